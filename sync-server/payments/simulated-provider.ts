import crypto from 'node:crypto';
import { stamp } from '../domain/documents';
import type { SimAccount, SimLink, SimSession } from '../domain/records';
import type { DecisionReader, DocWrite, Store } from '../store/store';

export type { SimAccount, SimLink, SimSession } from '../domain/records';
import {
  ProviderError,
  type CheckoutInput,
  type CheckoutSession,
  type PaymentsProvider,
  type ProviderAccount,
  type RefundInput,
  type TransferInput,
} from './provider';

/**
 * The default provider when STRIPE_SECRET_KEY is unset: it behaves like Stripe for the server
 * (accounts, onboarding links, Checkout Sessions, transfers, idempotency keys) but keeps its state
 * in the store's `ledger` collection (`kind: 'sim_*'`) and stands in for Stripe's hosted pages
 * with local pages under /api/payments/simulated/ that say plainly that no real money moves.
 */

export const SIMULATED_BASE_PATH = '/api/payments/simulated';
const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const LINK_TTL_MS = 30 * 60 * 1000;

const simId = {
  account: (id: string) => `sim-account:${id}`,
  link: (id: string) => `sim-link:${id}`,
  session: (id: string) => `sim-session:${id}`,
  transfer: (id: string) => `sim-transfer:${id}`,
  refund: (id: string) => `sim-refund:${id}`,
  idempotency: (key: string) => `sim-idempotency:${key}`,
};

const random = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
const write = (doc: Record<string, unknown>): DocWrite => ({
  collection: 'ledger',
  doc: { ...doc, _deleted: false } as DocWrite['doc'],
});

/**
 * A failure the next refund or transfer meets (tests only, `failNext`): a 4xx refuses it; a 5xx
 * answers a server error after making it (`made`) or without, and, like Stripe, keeps that answer
 * under the call's idempotency key and replays it to every later call with the key.
 */
export type SimulatedFault = { status: number; made?: boolean };
export type SimulatedOperation = 'refund' | 'transfer';

export type SimulatedProvider = PaymentsProvider & {
  readonly mode: 'simulated';
  link(linkId: string): Promise<SimLink | undefined>;
  account(accountId: string): Promise<SimAccount | undefined>;
  session(sessionId: string): Promise<SimSession | undefined>;
  /** The "Complete onboarding" button: the account can now receive payouts. */
  completeOnboarding(accountId: string): Promise<void>;
  /** The "Pay" button: the session is paid, with a payment intent and a charge like Stripe's. */
  paySession(sessionId: string): Promise<SimSession>;
  /** Tests: the next `operation` meets `fault` (in this process only; nothing is stored until it happens). */
  failNext(operation: SimulatedOperation, fault: SimulatedFault): void;
};

const SERVER_ERROR = 'The simulated payment provider had a server error.';
const REFUSED = 'The simulated payment provider refused the request.';

export function createSimulatedProvider(store: Store, now: () => number): SimulatedProvider {
  const faults: Record<SimulatedOperation, SimulatedFault[]> = { refund: [], transfer: [] };
  /** The next fault of `operation`: a refusal is thrown at once, a server error is returned to store. */
  const takeFault = (operation: SimulatedOperation): { status: number; made: boolean } | undefined => {
    const fault = faults[operation].shift();
    if (!fault) return undefined;
    if (fault.status < 500) throw new ProviderError(REFUSED, fault.status, true);
    return { status: fault.status, made: fault.made === true };
  };
  /** What a key already answered: its result, or the server error kept under it. */
  const replay = (seen: { resultId: string; failure?: { status: number; message: string } }) => {
    if (seen.failure) return { failure: seen.failure };
    return { id: seen.resultId };
  };
  const thrown = (value: { id: string } | { failure: { status: number; message: string } }): { id: string } => {
    if ('failure' in value) throw new ProviderError(value.failure.message, value.failure.status, false);
    return value;
  };
  const get = (id: string, read: DecisionReader = store) => {
    const doc = read.get('ledger', id);
    return doc && !doc._deleted ? doc : undefined;
  };
  /**
   * Like Stripe's idempotency keys, whichever instance asks: what `key` produced the first time,
   * or `fresh` (written with it, as one decision) when the key is new. The result is read inside
   * the decision too: when another instance made it, this replica may have the key's record
   * before the feed brings the result, and the database's check of the reads fetches both.
   */
  const once = async <T>(
    key: string,
    fresh: { id: string; writes: DocWrite[] },
    resultOf: (read: DecisionReader, id: string) => T | undefined,
  ): Promise<T> => {
    const { value } = await store.transaction((read) => {
      const seen = read.get('ledger', simId.idempotency(key));
      if (seen && !seen._deleted && seen.kind === 'sim_idempotency')
        return { writes: [], value: resultOf(read, seen.resultId) };
      const remember = write({
        id: simId.idempotency(key),
        kind: 'sim_idempotency',
        resultId: fresh.id,
        createdAt: now(),
      });
      return { writes: [...fresh.writes, remember], value: undefined };
    });
    const result = value ?? resultOf(store, fresh.id);
    if (result === undefined) throw new ProviderError(`The result of idempotency key ${key} is missing`, 500, false);
    return result;
  };
  /** A ledger document changed as one decision on its current version (`change` undefined: left as it is). */
  const update = async <T extends { id: string }>(
    id: string,
    change: (current: Record<string, unknown> & { kind?: unknown }) => T | undefined,
  ): Promise<T | undefined> => {
    const { value } = await store.transaction((read) => {
      const doc = read.get('ledger', id);
      const next = doc && !doc._deleted ? change(doc) : undefined;
      return { writes: next ? [write(next)] : [], value: next };
    });
    return value;
  };

  /**
   * A read checked against the store's newest: on PostgreSQL this instance's replica may not yet
   * have what another instance made a moment ago (a session, an account), and "no such session"
   * must not rest on that.
   */
  const current = async <T>(lookup: (read: DecisionReader) => T): Promise<T> =>
    (await store.transaction((read) => ({ writes: [], value: lookup(read) }))).value;

  const accountOf = (a: SimAccount): ProviderAccount => ({
    id: a.accountId,
    state: a.enabled ? 'connected' : 'details_due',
  });
  const sessionOf = (s: SimSession): CheckoutSession => ({
    id: s.sessionId,
    url: `${new URL(s.successUrl).origin}${SIMULATED_BASE_PATH}/checkout/${s.sessionId}`,
    paid: s.paid,
    status: s.paid ? 'complete' : s.expiresAt <= now() ? 'expired' : 'open',
    amountTotal: s.amountTotal,
    currency: s.currency,
    metadata: { ...s.metadata },
    ...(s.paymentIntentId ? { paymentIntentId: s.paymentIntentId } : {}),
    ...(s.chargeId ? { chargeId: s.chargeId } : {}),
  });
  const session = (sessionId: string, read?: DecisionReader): SimSession | undefined => {
    const doc = get(simId.session(sessionId), read);
    return doc?.kind === 'sim_session' ? doc : undefined;
  };
  const account = (accountId: string, read?: DecisionReader): SimAccount | undefined => {
    const doc = get(simId.account(accountId), read);
    return doc?.kind === 'sim_account' ? doc : undefined;
  };
  /** The session or account as the store has it now (`current`), for lookups outside a decision. */
  const sessionNow = (sessionId: string) => current((read) => session(sessionId, read));
  const accountNow = (accountId: string) => current((read) => account(accountId, read));

  return {
    mode: 'simulated',

    async createConnectAccount({ email, userId }, key) {
      const accountId = random('acct_sim');
      const doc: SimAccount = {
        id: simId.account(accountId),
        kind: 'sim_account',
        accountId,
        userId,
        email,
        enabled: false,
      };
      const made = await once(
        key,
        { id: accountId, writes: [write({ ...doc, createdAt: now(), updatedAt: now() })] },
        (read, id) => account(id, read),
      );
      return accountOf(made);
    },

    async accountLink({ accountId, refreshUrl, returnUrl }) {
      if (!(await accountNow(accountId))) throw new ProviderError(`No such account: ${accountId}`, 404, true);
      const linkId = random('link_sim');
      const doc: SimLink = {
        id: simId.link(linkId),
        kind: 'sim_link',
        linkId,
        accountId,
        returnUrl,
        refreshUrl,
        expiresAt: now() + LINK_TTL_MS,
      };
      await store.commit([write({ ...doc, createdAt: now() })]);
      return { url: `${new URL(returnUrl).origin}${SIMULATED_BASE_PATH}/onboarding/${linkId}` };
    },

    async retrieveAccount(accountId) {
      const a = await accountNow(accountId);
      if (!a) throw new ProviderError(`No such account: ${accountId}`, 404, true);
      return accountOf(a);
    },

    async createCheckoutSession(input: CheckoutInput, key) {
      const sessionId = random('cs_sim');
      const doc: SimSession = {
        id: simId.session(sessionId),
        kind: 'sim_session',
        sessionId,
        applicationId: input.metadata.applicationId ?? '',
        lineItems: input.lineItems,
        amountTotal: input.lineItems.reduce((sum, item) => sum + item.amount, 0),
        currency: input.currency,
        metadata: { ...input.metadata },
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        paid: false,
        paymentIntentId: null,
        chargeId: null,
        expiresAt: now() + SESSION_TTL_MS,
      };
      const made = await once(
        key,
        { id: sessionId, writes: [write({ ...doc, createdAt: now(), updatedAt: now() })] },
        (read, id) => session(id, read),
      );
      return sessionOf(made);
    },

    async retrieveCheckoutSession(sessionId) {
      const s = await sessionNow(sessionId);
      return s ? sessionOf(s) : undefined;
    },

    async createTransfer(input: TransferInput, key) {
      const transferId = random('tr_sim');
      const fault = takeFault('transfer');
      const { value } = await store.transaction((read) => {
        const seen = read.get('ledger', simId.idempotency(key));
        if (seen && !seen._deleted && seen.kind === 'sim_idempotency') return { writes: [], value: replay(seen) };
        const destination = read.get('ledger', simId.account(input.destination));
        if (!destination || destination._deleted || destination.kind !== 'sim_account' || !destination.enabled)
          return { writes: [], value: undefined };
        const failure = fault ? { status: fault.status, message: SERVER_ERROR } : undefined;
        const remember = write({
          id: simId.idempotency(key),
          kind: 'sim_idempotency',
          resultId: failure && !fault?.made ? '' : transferId,
          ...(failure ? { failure } : {}),
          createdAt: now(),
        });
        const made = write({
          id: simId.transfer(transferId),
          kind: 'sim_transfer',
          transferId,
          applicationId: input.metadata.applicationId ?? input.transferGroup,
          ...input,
          createdAt: now(),
        });
        const writes = !failure || fault?.made ? [made, remember] : [remember];
        return { writes, value: failure ? { failure } : { id: transferId } };
      });
      if (!value) throw new ProviderError('The destination account cannot receive transfers yet', 400, true);
      return thrown(value);
    },

    async createRefund(input: RefundInput, key) {
      const refundId = random('re_sim');
      const applicationId = input.metadata.applicationId ?? '';
      const fault = takeFault('refund');
      type Answer = { id: string } | { refused: string } | { failure: { status: number; message: string } };
      const { value } = await store.transaction<Answer>((read) => {
        const seen = read.get('ledger', simId.idempotency(key));
        if (seen && !seen._deleted && seen.kind === 'sim_idempotency') return { writes: [], value: replay(seen) };
        // Like Stripe: a refund draws on a paid charge, and all its refunds together never exceed it.
        const docs = read.byIndex('ledger', 'applicationId', applicationId).filter((d) => !d._deleted);
        const charged = docs.find(
          (d) =>
            d.kind === 'sim_session' &&
            d.paid &&
            (d.chargeId === input.chargeId || d.paymentIntentId === input.paymentIntentId),
        );
        if (!charged || charged.kind !== 'sim_session') return { writes: [], value: { refused: 'No such charge' } };
        const refunded = docs
          .flatMap((d) => (d.kind === 'sim_refund' && d.chargeId === charged.chargeId ? [d.amount] : []))
          .reduce((sum, amount) => sum + amount, 0);
        if (refunded + input.amount > charged.amountTotal)
          return { writes: [], value: { refused: 'The refund is larger than what is left of the charge' } };
        const failure = fault ? { status: fault.status, message: SERVER_ERROR } : undefined;
        const remember = write({
          id: simId.idempotency(key),
          kind: 'sim_idempotency',
          resultId: failure && !fault?.made ? '' : refundId,
          ...(failure ? { failure } : {}),
          createdAt: now(),
        });
        const made = write({
          id: simId.refund(refundId),
          kind: 'sim_refund',
          refundId,
          applicationId,
          chargeId: charged.chargeId,
          amount: input.amount,
          currency: input.currency,
          createdAt: now(),
        });
        const writes = !failure || fault?.made ? [made, remember] : [remember];
        return { writes, value: failure ? { failure } : { id: refundId } };
      });
      if ('refused' in value) throw new ProviderError(value.refused, 400, true);
      return thrown(value);
    },

    async findRefund({ chargeId, paymentIntentId, applicationId, amount }) {
      const found = store
        .byIndex('ledger', 'applicationId', applicationId)
        .find(
          (d) =>
            !d._deleted &&
            d.kind === 'sim_refund' &&
            d.amount === amount &&
            (d.chargeId === chargeId || (chargeId === undefined && paymentIntentId !== undefined)),
        );
      return found?.kind === 'sim_refund' ? { id: found.refundId } : undefined;
    },

    async findTransfer({ transferGroup, applicationId, amount }) {
      const found = store
        .byIndex('ledger', 'applicationId', applicationId)
        .find(
          (d) => !d._deleted && d.kind === 'sim_transfer' && d.transferGroup === transferGroup && d.amount === amount,
        );
      return found?.kind === 'sim_transfer' ? { id: found.transferId } : undefined;
    },

    async verifyWebhook() {
      // Simulated payments have no webhooks: their pages call the server directly.
      throw new ProviderError('Webhooks are not configured', 404, true);
    },

    link: (linkId) =>
      current((read) => {
        const doc = get(simId.link(linkId), read);
        return doc?.kind === 'sim_link' ? doc : undefined;
      }),
    account: accountNow,
    session: sessionNow,

    async completeOnboarding(accountId) {
      if (!(await accountNow(accountId))) throw new ProviderError(`No such account: ${accountId}`, 404, true);
      await update(simId.account(accountId), (doc) =>
        doc.kind === 'sim_account' && doc.enabled !== true
          ? { ...doc, id: simId.account(accountId), enabled: true, updatedAt: stamp(now(), doc) }
          : undefined,
      );
    },

    failNext(operation, fault) {
      faults[operation].push(fault);
    },

    async paySession(sessionId) {
      const s = await sessionNow(sessionId);
      if (!s) throw new ProviderError(`No such checkout session: ${sessionId}`, 404, true);
      if (s.paid) return s;
      if (s.expiresAt <= now()) throw new ProviderError('This checkout session has expired', 400, true);
      const ids = { paymentIntentId: random('pi_sim'), chargeId: random('ch_sim') };
      // Paid once, whichever instance's page is clicked first: a second click answers the first payment.
      await update(simId.session(sessionId), (doc) =>
        doc.kind === 'sim_session' && doc.paid !== true
          ? { ...doc, id: simId.session(sessionId), paid: true, ...ids, updatedAt: stamp(now(), doc) }
          : undefined,
      );
      return session(sessionId)!;
    },
  };
}
