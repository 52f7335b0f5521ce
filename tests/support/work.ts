import { applicationBalance } from '../../sync-server/payments/ledger';
import {
  applyTo,
  createPayoutAccount,
  gigDoc,
  isoDay,
  offerAndAccept,
  person,
  pullAll,
  write,
  type Person,
} from './fixtures';
import type { TestClient } from './http-client';
import type { TestServer } from './in-process-server';
import type { StripeMock } from './stripe-mock';

/**
 * Paid work and the moves of issue 15 (delivery, change requests, cancellation, disputes) for the
 * integration tests, in either payments mode: simulated (the default) or Stripe against the local
 * Stripe-compatible server.
 */

export type Doc = Record<string, unknown>;
export type Mode = { name: 'simulated' } | { name: 'stripe'; stripe: StripeMock };

/** A clock the test moves (the server's `now`): no sleeping 14 days. */
export function testClock(start = Date.now()) {
  const clock = { at: start, now: () => clock.at, advance: (ms: number) => (clock.at += ms) };
  return clock;
}

export type Work = {
  buyer: Person;
  seller: Person;
  gigId: string;
  applicationId: string;
};

const stored = (server: TestServer, id: string) => server.ctx.store.get('applications', id)!;

/** The application as its party's device would hold it (what a push is based on). */
export function current(server: TestServer, applicationId: string): Doc {
  const { _seq: _s, _deleted: _d, ...doc } = stored(server, applicationId) as Doc;
  return doc;
}

/** An accepted offer of `finalBudget` (PENDING_PAYMENT, or IN_PROGRESS for 0). */
export async function acceptedOffer(
  server: TestServer,
  finalBudget = 45000,
  gig: Doc = {},
  asBuyer?: Person,
): Promise<Work> {
  const buyer = asBuyer ?? (await person(server.url, { name: 'Bea Buyer' }));
  // A deadline far ahead: the tests move the server's clock by weeks.
  const gigMaster = (
    await write(buyer.http, 'gigs', gigDoc({ title: 'Poster design', projectDeadline: isoDay(365), ...gig }))
  ).master!;
  const seller = await person(server.url, { name: 'Sam Seller' });
  const accepted = await offerAndAccept(
    buyer.http,
    seller.http,
    await applyTo(seller, gigMaster.id as string),
    finalBudget,
  );
  return { buyer, seller, gigId: gigMaster.id as string, applicationId: accepted.id as string };
}

/** The buyer pays through the provider of `mode`; the work is IN_PROGRESS. */
export async function pay(server: TestServer, mode: Mode, w: Work): Promise<void> {
  const checkout = await w.buyer.http.post<{ sessionId: string }>('/api/payments/checkout', {
    applicationId: w.applicationId,
  });
  if (checkout.status !== 200) throw new Error(`checkout: ${checkout.status} ${JSON.stringify(checkout.body)}`);
  const { sessionId } = checkout.body;
  if (mode.name === 'stripe') {
    mode.stripe.markPaid(sessionId);
    const confirmed = await w.buyer.http.post('/api/payments/confirm', { applicationId: w.applicationId, sessionId });
    if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  } else {
    const paid = await w.buyer.http.post(`/api/payments/simulated/checkout/${sessionId}/pay`, {});
    if (paid.status !== 200) throw new Error(`pay: ${paid.status} ${JSON.stringify(paid.body)}`);
  }
  if (stored(server, w.applicationId).status !== 'IN_PROGRESS')
    throw new Error('fixture: payment did not start the work');
}

/** Paid work in progress. */
export async function paidWork(server: TestServer, mode: Mode, finalBudget = 45000, asBuyer?: Person): Promise<Work> {
  const w = await acceptedOffer(server, finalBudget, {}, asBuyer);
  await pay(server, mode, w);
  return w;
}

/** The freelancer's payout account, able to receive transfers. */
export async function onboard(server: TestServer, mode: Mode, seller: Person): Promise<string> {
  const res = await createPayoutAccount(seller.http, seller.user);
  if (res.status !== 200) throw new Error(`payout account: ${res.status} ${JSON.stringify(res.body)}`);
  if (mode.name === 'stripe') mode.stripe.enableAccount(res.body.accountId);
  else {
    const done = await seller.http.post(res.body.accountLink.slice(server.url.length), {});
    if (done.status !== 200) throw new Error(`onboarding: ${done.status}`);
  }
  return res.body.accountId;
}

/** Pushes one change of the application as `client`, based on the server's current version. */
export async function move(server: TestServer, client: TestClient, applicationId: string, change: (doc: Doc) => Doc) {
  const base = current(server, applicationId);
  return write(client, 'applications', change(base), base);
}

export const submitWork = (server: TestServer, w: Work, note: string, link?: string) =>
  move(server, w.seller.http, w.applicationId, (doc) => ({
    ...doc,
    status: 'DELIVERED',
    submissions: [
      ...((doc.submissions as Doc[] | undefined) ?? []),
      { note, ...(link ? { link } : {}), submittedAt: Date.now() },
    ],
  }));

export const requestChanges = (server: TestServer, w: Work, note: string) =>
  move(server, w.buyer.http, w.applicationId, (doc) => {
    const submissions = [...(doc.submissions as Doc[])];
    submissions[submissions.length - 1] = { ...submissions.at(-1)!, changesRequested: { note, at: Date.now() } };
    return { ...doc, status: 'IN_PROGRESS', submissions, autoReleaseAt: null };
  });

export const openDispute = (server: TestServer, client: TestClient, applicationId: string, reason: string) =>
  move(server, client, applicationId, (doc) => ({
    ...doc,
    status: 'DISPUTED',
    dispute: { by: 'buyer', reason, openedAt: Date.now() },
  }));

export const askToCancel = (server: TestServer, w: Work, note?: string) =>
  move(server, w.buyer.http, w.applicationId, (doc) => ({
    ...doc,
    status: 'CANCELLATION_REQUESTED',
    cancellation: { ...(note ? { note } : {}), requestedAt: Date.now() },
  }));

export const refuseCancellation = (server: TestServer, w: Work) =>
  move(server, w.seller.http, w.applicationId, (doc) => ({
    ...doc,
    status: 'IN_PROGRESS',
    cancellation: { ...(doc.cancellation as Doc), refusedAt: Date.now() },
  }));

/** Mark as Complete / Approve and pay. */
export const approve = (w: Work, client: TestClient = w.buyer.http) =>
  client.post<{ success: boolean; payout?: string; amount?: number; error?: string }>('/api/gigs/complete-gig', {
    gigId: w.gigId,
    applicationId: w.applicationId,
    userId: w.buyer.user.id,
    userType: 'buyer',
  });

export type MoneyAnswer = { status?: string; settlement?: Doc | null; error?: string };

export const cancelPaidWork = (client: TestClient, applicationId: string) =>
  client.post<MoneyAnswer>('/api/work/cancel', { applicationId });

export const retryPayment = (client: TestClient, applicationId: string) =>
  client.post<MoneyAnswer>('/api/work/retry', { applicationId });

export const resolveDispute = (client: TestClient, applicationId: string, outcome: string, freelancerAmount?: number) =>
  client.post<MoneyAnswer>('/api/operator/disputes/resolve', {
    applicationId,
    outcome,
    ...(freelancerAmount !== undefined ? { freelancerAmount } : {}),
  });

/** The application's money per the ledger; `held` is 0 once it is settled. */
export const balanceOf = (server: TestServer, applicationId: string) =>
  applicationBalance(server.ctx.store, applicationId);

export async function notificationsOf(client: TestClient): Promise<Doc[]> {
  return (await pullAll(client, 'notifications')).documents as Doc[];
}

export const statusOf = (server: TestServer, applicationId: string) => stored(server, applicationId).status;

/**
 * The next refund or transfer of the provider of `mode` meets `status`: a 4xx refuses it; a 5xx
 * answers a server error after making it (`made`) or without (the Stripe mock's `failRefunds` /
 * `failTransfers`, the simulated provider's `failNext`).
 */
export function failNext(
  server: TestServer,
  mode: Mode,
  operation: 'refund' | 'transfer',
  status: number,
  made = false,
): void {
  if (mode.name === 'stripe') {
    if (operation === 'refund') mode.stripe.failRefunds(1, status, { made });
    else mode.stripe.failTransfers(1, status, { made });
    return;
  }
  if (!server.payments.simulated) throw new Error('fixture: the server is not in simulated mode');
  server.payments.simulated.failNext(operation, { status, made });
}

/** What the provider of `mode` itself refunded and transferred for one application (amounts, in order). */
export function providerMoves(server: TestServer, mode: Mode, applicationId: string) {
  const ledgerDocs = () => [...server.ctx.store.all('ledger')] as Doc[];
  if (mode.name === 'stripe')
    return {
      refunds: mode.stripe.refunds
        .filter((r) => (r.metadata as Doc).applicationId === applicationId)
        .map((r) => ({ id: String(r.id), amount: Number(r.amount) })),
      transfers: mode.stripe.transfers
        .filter((t) => t.transfer_group === applicationId)
        .map((t) => ({ id: String(t.id), amount: Number(t.amount) })),
    };
  return {
    refunds: ledgerDocs()
      .filter((d) => d.kind === 'sim_refund' && d.applicationId === applicationId)
      .map((d) => ({ id: String(d.refundId), amount: Number(d.amount) })),
    transfers: ledgerDocs()
      .filter((d) => d.kind === 'sim_transfer' && d.transferGroup === applicationId)
      .map((d) => ({ id: String(d.transferId), amount: Number(d.amount) })),
  };
}
