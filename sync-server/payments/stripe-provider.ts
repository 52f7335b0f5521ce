import Stripe from 'stripe';
import type { CurrencyCode } from '../../shared/constants';
import {
  ProviderError,
  type CheckoutInput,
  type CheckoutSession,
  type PaymentsProvider,
  type ProviderAccount,
  type ProviderEvent,
  type RefundInput,
  type RefundLookup,
  type TransferInput,
  type TransferLookup,
  type WebhookEndpoint,
} from './provider';

/** Stripe's default webhook tolerance: a signature older than this is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type StripeProviderOptions = {
  secretKey: string;
  /** The platform endpoint's signing secret (checkout events). */
  webhookSecret: string | undefined;
  /** The Connect endpoint's signing secret (events on connected accounts, such as account.updated). */
  connectWebhookSecret: string | undefined;
  apiBase: string | undefined;
};

/** STRIPE_API_BASE (e.g. http://127.0.0.1:12111) → the SDK's host, port and protocol. */
export function apiBaseOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? '80' : '443'), protocol };
}

/** A provider call that failed, as a ProviderError (4xx from Stripe: refused, nothing happened). */
function providerError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode;
    // 409 (a concurrent request with the same key) and 429 are worth retrying with the same key;
    // an idempotency error means the key was reused with other parameters: a bug, not a refusal.
    const definitive =
      status !== undefined &&
      status >= 400 &&
      status < 500 &&
      status !== 409 &&
      status !== 429 &&
      err.type !== 'StripeIdempotencyError';
    return new ProviderError(err.message, status, definitive);
  }
  return new ProviderError(err instanceof Error ? err.message : String(err), undefined, false);
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw providerError(err);
  }
}

const idOf = (v: string | { id: string } | null | undefined): string | undefined => (typeof v === 'string' ? v : v?.id);

function accountOf(a: Stripe.Account): ProviderAccount {
  // Separate charges and transfers: the account must be able to take transfers and pay them out.
  const canReceive =
    Boolean(a.payouts_enabled) && (a.capabilities?.transfers === 'active' || Boolean(a.charges_enabled));
  return { id: a.id, state: canReceive ? 'connected' : 'details_due' };
}

function sessionOf(s: Stripe.Checkout.Session): CheckoutSession {
  const intent = s.payment_intent;
  return {
    id: s.id,
    url: s.url ?? '',
    paid: s.payment_status === 'paid',
    status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
    amountTotal: s.amount_total ?? 0,
    currency: (s.currency ?? '').toUpperCase(),
    metadata: { ...(s.metadata ?? {}) },
    paymentIntentId: idOf(intent),
    chargeId: intent && typeof intent !== 'string' ? idOf(intent.latest_charge) : undefined,
  };
}

export function createStripeProvider(options: StripeProviderOptions): PaymentsProvider {
  const stripe = new Stripe(options.secretKey, {
    ...apiBaseOptions(options.apiBase),
    // Safe: every call that creates something carries our own idempotency key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
  const lower = (c: CurrencyCode) => c.toLowerCase();

  return {
    mode: 'stripe',

    async createConnectAccount({ email, userId, country, serviceAgreement }, idempotencyKey) {
      const account = await call(() =>
        stripe.accounts.create(
          {
            type: 'express',
            email,
            ...(country ? { country } : {}),
            // Cross-border payouts need the recipient agreement (payout-countries.ts); full is the default.
            ...(serviceAgreement === 'recipient' ? { tos_acceptance: { service_agreement: 'recipient' } } : {}),
            capabilities: { transfers: { requested: true } },
            metadata: { userId },
          },
          { idempotencyKey },
        ),
      );
      return accountOf(account);
    },

    async accountLink({ accountId, refreshUrl, returnUrl }, idempotencyKey) {
      const link = await call(() =>
        stripe.accountLinks.create(
          { account: accountId, refresh_url: refreshUrl, return_url: returnUrl, type: 'account_onboarding' },
          { idempotencyKey },
        ),
      );
      return { url: link.url };
    },

    async retrieveAccount(accountId) {
      return accountOf(await call(() => stripe.accounts.retrieve(accountId)));
    },

    async createCheckoutSession(input: CheckoutInput, idempotencyKey) {
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: input.lineItems.map((item) => ({
              quantity: 1,
              price_data: {
                currency: lower(input.currency),
                unit_amount: item.amount,
                product_data: { name: item.name },
              },
            })),
            metadata: input.metadata,
            client_reference_id: input.metadata.applicationId,
            payment_intent_data: { transfer_group: input.transferGroup, metadata: input.metadata },
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
          },
          { idempotencyKey },
        ),
      );
      return sessionOf(session);
    },

    async retrieveCheckoutSession(sessionId) {
      try {
        return sessionOf(
          await stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent.latest_charge'] }),
        );
      } catch (err) {
        const e = providerError(err);
        if (e.status === 404) return undefined;
        throw e;
      }
    },

    async createTransfer(input: TransferInput, idempotencyKey) {
      const transfer = await call(() =>
        stripe.transfers.create(
          {
            amount: input.amount,
            currency: lower(input.currency),
            destination: input.destination,
            transfer_group: input.transferGroup,
            ...(input.sourceTransaction ? { source_transaction: input.sourceTransaction } : {}),
            metadata: input.metadata,
          },
          { idempotencyKey },
        ),
      );
      return { id: transfer.id };
    },

    async createRefund(input: RefundInput, idempotencyKey) {
      const refund = await call(() =>
        stripe.refunds.create(
          {
            ...(input.chargeId ? { charge: input.chargeId } : { payment_intent: input.paymentIntentId }),
            amount: input.amount,
            reason: 'requested_by_customer',
            metadata: input.metadata,
          },
          { idempotencyKey },
        ),
      );
      return { id: refund.id };
    },

    // Reconciliation after a call that got no answer worth trusting (attempts.ts): Stripe's own
    // record of the application's refund or transfer, by the metadata every call carries.
    async findRefund({ chargeId, paymentIntentId, applicationId, amount }: RefundLookup) {
      return call(async () => {
        const of = chargeId ? { charge: chargeId } : { payment_intent: paymentIntentId };
        for await (const refund of stripe.refunds.list({ ...of, limit: 100 })) {
          const live = refund.status !== 'failed' && refund.status !== 'canceled';
          if (live && refund.amount === amount && refund.metadata?.applicationId === applicationId)
            return { id: refund.id };
        }
        return undefined;
      });
    },

    async findTransfer({ transferGroup, applicationId, amount }: TransferLookup) {
      return call(async () => {
        for await (const transfer of stripe.transfers.list({ transfer_group: transferGroup, limit: 100 })) {
          if (transfer.amount === amount && transfer.metadata?.applicationId === applicationId)
            return { id: transfer.id };
        }
        return undefined;
      });
    },

    async verifyWebhook(rawBody, signature, endpoint: WebhookEndpoint) {
      const secret = endpoint === 'connect' ? options.connectWebhookSecret : options.webhookSecret;
      if (!secret) throw new ProviderError('Webhooks are not configured', 404, true);
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature ?? '', secret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        throw new ProviderError('Invalid webhook signature', 400, true);
      }
      return eventOf(event);
    },
  };
}

function eventOf(event: Stripe.Event): ProviderEvent {
  const base = { id: event.id, ...(event.account ? { connectedAccount: event.account } : {}) };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      return { ...base, type: event.type, sessionId: session.id, applicationId: session.metadata?.applicationId };
    }
    case 'account.updated':
      return { ...base, type: 'account.updated', accountId: event.data.object.id };
    default:
      return { ...base, type: 'other', providerType: event.type };
  }
}
