import type { AppContext } from '../context';
import { forbidden, HttpError, notFound } from '../http/errors';
import { gigRefOf } from '../domain/links';
import { StoreUnavailableError, type Stored } from '../store/store';
import { KeyedLock } from '../keyed-lock';
import { PAYMENT_MESSAGES as M } from './messages';
import { ProviderError, type PaymentsProvider } from './provider';
import { createSimulatedProvider, type SimulatedProvider } from './simulated-provider';
import { createStripeProvider } from './stripe-provider';

/** What every payment step needs: the app context, the provider, and the per-key lock. */
export type Payments = {
  ctx: AppContext;
  provider: PaymentsProvider;
  /** Set in simulated mode: its pages drive onboarding and checkout. */
  simulated: SimulatedProvider | undefined;
  lock: KeyedLock;
};

/** Stripe when STRIPE_SECRET_KEY is set, otherwise the simulated provider (docs/architecture.md "Payments"). */
export function createPayments(ctx: AppContext): Payments {
  const { stripeSecretKey, stripeWebhookSecret, stripeConnectWebhookSecret, stripeApiBase } = ctx.config;
  if (stripeSecretKey) {
    return {
      ctx,
      provider: createStripeProvider({
        secretKey: stripeSecretKey,
        webhookSecret: stripeWebhookSecret,
        connectWebhookSecret: stripeConnectWebhookSecret,
        apiBase: stripeApiBase,
      }),
      simulated: undefined,
      lock: new KeyedLock(),
    };
  }
  const simulated = createSimulatedProvider(ctx.store, ctx.now);
  return { ctx, provider: simulated, simulated, lock: new KeyedLock() };
}

export const lockKey = {
  application: (id: string) => `application:${id}`,
  user: (id: string) => `user:${id}`,
  event: (id: string) => `event:${id}`,
};

/** Payout account ids of the other mode (a data folder moved from simulated to Stripe) are ignored. */
export function usableAccountId(p: Payments, id: unknown): string | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  return id.startsWith('acct_sim_') === (p.provider.mode === 'simulated') ? id : undefined;
}

/**
 * The application, if `buyerId` is its gig's creator: 404 for users who cannot see it, 403 with
 * `notBuyer` (by default the Pay step's) for its freelancer. With no `buyerId` (a webhook) only its existence is checked.
 */
export function buyersApplication(
  p: Payments,
  applicationId: string,
  buyerId?: string,
  notBuyer: string = M.onlyBuyerPays,
): Stored<'applications'> {
  const app = p.ctx.store.get('applications', applicationId);
  if (!app || app._deleted) throw notFound(M.applicationNotFound);
  if (buyerId === undefined) return app;
  if (app.applicantId === buyerId) throw forbidden(notBuyer);
  const gig = gigRefOf(p.ctx.store, app.gigId);
  if (app.creatorId !== buyerId || (gig && gig.createdBy !== buyerId)) throw notFound(M.applicationNotFound);
  return app;
}

/**
 * Runs a provider call; a failure becomes a 502 with the message the user should see (the cause is
 * logged). The simulated provider keeps its records in the store: a store that is out of reach or
 * too busy for a moment stays StoreUnavailableError (503, try again), not a payment failure.
 */
export async function viaProvider<T>(p: Payments, message: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof HttpError || err instanceof StoreUnavailableError) throw err;
    p.ctx.log(
      `Payment provider call failed: ${message}`,
      err instanceof ProviderError ? `${err.status ?? 'no status'} ${err.message}` : err,
    );
    throw new HttpError(502, message);
  }
}
