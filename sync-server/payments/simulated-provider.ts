import crypto from 'node:crypto';
import { stamp } from '../domain/documents';
import type { SimAccount, SimLink, SimSession } from '../domain/records';
import type { DocWrite, Store } from '../store/store';

export type { SimAccount, SimLink, SimSession } from '../domain/records';
import {
  ProviderError,
  type CheckoutInput,
  type CheckoutSession,
  type PaymentsProvider,
  type ProviderAccount,
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
  idempotency: (key: string) => `sim-idempotency:${key}`,
};

const random = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
const write = (doc: Record<string, unknown>): DocWrite => ({
  collection: 'ledger',
  doc: { ...doc, _deleted: false } as DocWrite['doc'],
});

export type SimulatedProvider = PaymentsProvider & {
  readonly mode: 'simulated';
  link(linkId: string): SimLink | undefined;
  account(accountId: string): SimAccount | undefined;
  session(sessionId: string): SimSession | undefined;
  /** The "Complete onboarding" button: the account can now receive payouts. */
  completeOnboarding(accountId: string): Promise<void>;
  /** The "Pay" button: the session is paid, with a payment intent and a charge like Stripe's. */
  paySession(sessionId: string): Promise<SimSession>;
};

export function createSimulatedProvider(store: Store, now: () => number): SimulatedProvider {
  const get = (id: string) => {
    const doc = store.get('ledger', id);
    return doc && !doc._deleted ? doc : undefined;
  };
  /** What an idempotency key produced the first time, if it was used before. */
  const replayed = (key: string) => {
    const doc = get(simId.idempotency(key));
    return doc?.kind === 'sim_idempotency' ? doc.resultId : undefined;
  };
  const remember = (key: string, resultId: string) =>
    write({ id: simId.idempotency(key), kind: 'sim_idempotency', resultId, createdAt: now() });

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
  const session = (sessionId: string): SimSession | undefined => {
    const doc = get(simId.session(sessionId));
    return doc?.kind === 'sim_session' ? doc : undefined;
  };
  const account = (accountId: string): SimAccount | undefined => {
    const doc = get(simId.account(accountId));
    return doc?.kind === 'sim_account' ? doc : undefined;
  };

  return {
    mode: 'simulated',

    async createConnectAccount({ email, userId }, key) {
      const previous = replayed(key);
      if (previous) return accountOf(account(previous)!);
      const accountId = random('acct_sim');
      const doc: SimAccount = {
        id: simId.account(accountId),
        kind: 'sim_account',
        accountId,
        userId,
        email,
        enabled: false,
      };
      await store.commit([write({ ...doc, createdAt: now(), updatedAt: now() }), remember(key, accountId)]);
      return accountOf(doc);
    },

    async accountLink({ accountId, refreshUrl, returnUrl }) {
      if (!account(accountId)) throw new ProviderError(`No such account: ${accountId}`, 404, true);
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
      const a = account(accountId);
      if (!a) throw new ProviderError(`No such account: ${accountId}`, 404, true);
      return accountOf(a);
    },

    async createCheckoutSession(input: CheckoutInput, key) {
      const previous = replayed(key);
      if (previous) return sessionOf(session(previous)!);
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
      await store.commit([write({ ...doc, createdAt: now(), updatedAt: now() }), remember(key, sessionId)]);
      return sessionOf(doc);
    },

    async retrieveCheckoutSession(sessionId) {
      const s = session(sessionId);
      return s ? sessionOf(s) : undefined;
    },

    async createTransfer(input: TransferInput, key) {
      const previous = replayed(key);
      if (previous) return { id: previous };
      const destination = account(input.destination);
      if (!destination?.enabled)
        throw new ProviderError('The destination account cannot receive transfers yet', 400, true);
      const transferId = random('tr_sim');
      await store.commit([
        write({ id: simId.transfer(transferId), kind: 'sim_transfer', transferId, ...input, createdAt: now() }),
        remember(key, transferId),
      ]);
      return { id: transferId };
    },

    async verifyWebhook() {
      // Simulated payments have no webhooks: their pages call the server directly.
      throw new ProviderError('Webhooks are not configured', 404, true);
    },

    link: (linkId) => {
      const doc = get(simId.link(linkId));
      return doc?.kind === 'sim_link' ? doc : undefined;
    },
    account,
    session,

    async completeOnboarding(accountId) {
      const doc = store.get('ledger', simId.account(accountId));
      if (!doc || doc._deleted || doc.kind !== 'sim_account')
        throw new ProviderError(`No such account: ${accountId}`, 404, true);
      if (doc.enabled === true) return;
      await store.commit([write({ ...doc, enabled: true, updatedAt: stamp(now(), doc) })]);
    },

    async paySession(sessionId) {
      const s = session(sessionId);
      if (!s) throw new ProviderError(`No such checkout session: ${sessionId}`, 404, true);
      if (s.paid) return s;
      if (s.expiresAt <= now()) throw new ProviderError('This checkout session has expired', 400, true);
      const paid: SimSession = { ...s, paid: true, paymentIntentId: random('pi_sim'), chargeId: random('ch_sim') };
      await store.commit([write({ ...s, ...paid, updatedAt: stamp(now(), s) })]);
      return paid;
    },
  };
}
