import crypto from 'node:crypto';
import { HttpError } from '../http/errors';
import { stamp } from '../domain/documents';
import type { Stored } from '../store/store';
import { PAYMENT_MESSAGES } from './messages';
import { lockKey, usableAccountId, viaProvider, type Payments } from './payments';
import { payoutTerms, type ServiceAgreement } from './payout-countries';
import { releaseHeldPayouts } from './payouts';
import { idempotencyKeys, type PayoutState } from './provider';

export type PayoutStatus = { state: 'none' | PayoutState; accountId: string | null; released: number };

/** The user record's payoutStatus (shared/schemas/user.ts) for a provider payout state. */
const recordedStatus = (state: PayoutState) => (state === 'connected' ? 'active' : 'pending');

export const accountUrls = (origin: string) => ({
  refreshUrl: `${origin}/api/stripe/account-link/refresh`,
  returnUrl: `${origin}/settings`,
});

/** A fresh onboarding link (they expire): the key only guards this one request. */
export async function onboardingLink(p: Payments, accountId: string, origin: string): Promise<string> {
  const nonce = crypto.randomBytes(8).toString('hex');
  const { url } = await viaProvider(p, PAYMENT_MESSAGES.connectFailed, () =>
    p.provider.accountLink({ accountId, ...accountUrls(origin) }, idempotencyKeys.accountLink(accountId, nonce)),
  );
  return url;
}

/**
 * The service agreement a new payout account needs under Stripe, from the platform's country and
 * the user's (decision 007); 422 with a clear message where Stripe cannot pay out. The simulated
 * provider moves no money, so it pays out anywhere.
 */
function serviceAgreementFor(p: Payments, country: string | undefined): ServiceAgreement | undefined {
  if (p.provider.mode !== 'stripe') return undefined;
  const terms = payoutTerms(p.ctx.config.stripePlatformCountry, country);
  if (!terms.ok) throw new HttpError(422, terms.error);
  return terms.serviceAgreement;
}

/**
 * POST /api/stripe/create-connect-account: reuses the user's payout account or creates one, stores
 * its id on the user record (the server is the only writer of stripeAccountId), and answers an
 * onboarding link. One at a time per user, so a double click cannot create two accounts.
 */
export async function connectAccount(
  p: Payments,
  userId: string,
  origin: string,
): Promise<{ accountId: string; accountLink: string }> {
  const { store } = p.ctx;
  const accountId = await p.lock.run(lockKey.user(userId), async () => {
    const user = store.get('users', userId)!;
    const existing = usableAccountId(p, user.stripeAccountId);
    if (existing) return existing;
    const country = user.location || undefined;
    const serviceAgreement = serviceAgreementFor(p, country);
    const account = await viaProvider(p, PAYMENT_MESSAGES.accountCreateFailed, () =>
      p.provider.createConnectAccount(
        {
          email: user.email ?? '',
          userId,
          ...(country ? { country } : {}),
          ...(serviceAgreement ? { serviceAgreement } : {}),
        },
        idempotencyKeys.connectAccount(userId),
      ),
    );
    // Recorded once: another instance asking at once got the same account (same idempotency key).
    const now = p.ctx.now();
    await store.transaction((read) => {
      const fresh = read.get('users', userId)!;
      if (fresh.stripeAccountId === account.id) return { writes: [], value: undefined };
      return {
        writes: [
          {
            collection: 'users',
            doc: {
              ...fresh,
              stripeAccountId: account.id,
              payoutStatus: recordedStatus(account.state),
              updatedAt: stamp(now, fresh),
            },
          },
        ],
        value: undefined,
      };
    });
    return account.id;
  });
  return { accountId, accountLink: await onboardingLink(p, accountId, origin) };
}

/** Records the provider's payout state on the user record when it changed. */
async function recordPayoutState(p: Payments, userId: string, accountId: string, state: PayoutState): Promise<void> {
  const now = p.ctx.now();
  await p.ctx.store.transaction((read) => {
    const user = read.get('users', userId);
    if (!user || user.stripeAccountId !== accountId || user.payoutStatus === recordedStatus(state))
      return { writes: [], value: undefined };
    return {
      writes: [
        { collection: 'users', doc: { ...user, payoutStatus: recordedStatus(state), updatedAt: stamp(now, user) } },
      ],
      value: undefined,
    };
  });
}

/**
 * Asks the provider for the user's real payout state, records it, and releases held payouts once
 * the account can receive them. Used by GET /api/stripe/account-status, the account.updated
 * webhook and the simulated onboarding page.
 */
export async function refreshPayoutState(p: Payments, user: Stored<'users'>): Promise<PayoutStatus> {
  const accountId = usableAccountId(p, user.stripeAccountId);
  if (!accountId) return { state: 'none', accountId: null, released: 0 };
  const account = await viaProvider(p, PAYMENT_MESSAGES.accountLoadFailed, () => p.provider.retrieveAccount(accountId));
  await recordPayoutState(p, user.id, accountId, account.state);
  const released = account.state === 'connected' ? await releaseHeldPayouts(p, user.id, accountId) : 0;
  return { state: account.state, accountId, released };
}

/** The user whose payout account this is (webhooks name the account, not the user). */
export function userByAccountId(p: Payments, accountId: string): Stored<'users'> | undefined {
  return p.ctx.store.byIndex('users', 'stripeAccountId', accountId).find((u) => !u._deleted);
}
