import type { CurrencyCode } from '../../shared/constants';
import type { ServiceAgreement } from './payout-countries';

/**
 * The one door to the card payment provider (docs/architecture.md "Payments"). Two implementations:
 * Stripe (`stripe-provider.ts`) and the simulated default (`simulated-provider.ts`).
 *
 * Amounts are integer minor units in and out. Every call that creates something or moves money
 * takes an idempotency key (see `idempotencyKeys`), so a retry after a timeout or a crash never
 * creates a second account, session or transfer.
 */

/** `connected`: the account can receive transfers. `details_due`: onboarding is not finished. */
export type PayoutState = 'connected' | 'details_due';

export type ProviderAccount = { id: string; state: PayoutState };

export type CheckoutLineItem = { name: string; amount: number };

export type CheckoutInput = {
  currency: CurrencyCode;
  /** The final budget first, then the buyer's service fee as its own line. */
  lineItems: CheckoutLineItem[];
  /** Ids only: the provider echoes them back and the server checks them on confirmation. */
  metadata: Record<string, string>;
  /** payment_intent_data.transfer_group: the application id, linking the charge to its payout. */
  transferGroup: string;
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string;
};

export type CheckoutSession = {
  id: string;
  url: string;
  paid: boolean;
  /** 'open' until paid or expired. */
  status: 'open' | 'complete' | 'expired';
  amountTotal: number;
  /** Upper case, as the rest of the app writes currencies. */
  currency: string;
  metadata: Record<string, string>;
  paymentIntentId?: string;
  /** The charge the payout is funded from (source_transaction of the transfer). */
  chargeId?: string;
};

export type TransferInput = {
  amount: number;
  currency: CurrencyCode;
  destination: string;
  transferGroup: string;
  /** The buyer's charge: the transfer waits for its funds instead of drawing on the balance. */
  sourceTransaction?: string;
  metadata: Record<string, string>;
};

/**
 * A refund of (part of) the buyer's charge (decision 031). With separate charges and transfers the
 * money is still on the platform until a transfer moves it, so a refund draws on the charge itself.
 */
export type RefundInput = {
  /** The buyer's charge; the payment intent when the charge id is not known. */
  chargeId?: string;
  paymentIntentId?: string;
  amount: number;
  currency: CurrencyCode;
  /** Ids only: `applicationId` names the application the charge paid for. */
  metadata: Record<string, string>;
};

/**
 * What to look for when an earlier refund or transfer of an application got no answer worth
 * trusting (decision 031, revised): the provider's own record of it, by the application id the
 * call carried in its metadata (every key ever used for it) and the amount.
 */
export type RefundLookup = { chargeId?: string; paymentIntentId?: string; applicationId: string; amount: number };
export type TransferLookup = { transferGroup: string; applicationId: string; amount: number };

/**
 * A verified provider event: only what the server acts on. `connectedAccount` is set on events that
 * happened on a connected account (Stripe's `account` field): they come to the Connect endpoint.
 */
export type ProviderEvent = { id: string; connectedAccount?: string } & (
  | {
      type: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded';
      sessionId: string;
      applicationId: string | undefined;
    }
  | { type: 'account.updated'; accountId: string }
  | { type: 'other'; providerType: string }
);

/** Which webhook endpoint received the event: each has its own signing secret (decision 007). */
export type WebhookEndpoint = 'platform' | 'connect';

export interface PaymentsProvider {
  readonly mode: 'stripe' | 'simulated';
  /** `serviceAgreement` 'recipient' for a cross-border payout account (payout-countries.ts); full by default. */
  createConnectAccount(
    input: { email: string; userId: string; country?: string; serviceAgreement?: ServiceAgreement },
    idempotencyKey: string,
  ): Promise<ProviderAccount>;
  /** A one-time onboarding link; it expires, so each call makes a new one. */
  accountLink(
    input: { accountId: string; refreshUrl: string; returnUrl: string },
    idempotencyKey: string,
  ): Promise<{ url: string }>;
  retrieveAccount(accountId: string): Promise<ProviderAccount>;
  createCheckoutSession(input: CheckoutInput, idempotencyKey: string): Promise<CheckoutSession>;
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSession | undefined>;
  createTransfer(input: TransferInput, idempotencyKey: string): Promise<{ id: string }>;
  /** Refunds `amount` of the charge to the buyer; throws ProviderError (definitive) when refused. */
  createRefund(input: RefundInput, idempotencyKey: string): Promise<{ id: string }>;
  /** The refund of this application the provider made (not failed or cancelled), if any. */
  findRefund(lookup: RefundLookup): Promise<{ id: string } | undefined>;
  /** The transfer of this application the provider made, if any. */
  findTransfer(lookup: TransferLookup): Promise<{ id: string } | undefined>;
  /**
   * Verifies the signature and age of a webhook with the secret of the endpoint that received it;
   * throws ProviderError(400) when it is not genuine, ProviderError(404) when that endpoint has no secret.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined, endpoint: WebhookEndpoint): Promise<ProviderEvent>;
}

/**
 * A failed provider call. `definitive` means the provider refused the request (a 4xx answer): no
 * money moved and repeating it with the same key would only replay the refusal. A timeout or 5xx
 * is not definitive: the call may have gone through, so the provider is asked before anything is
 * tried again (payments/attempts.ts).
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly definitive: boolean,
  ) {
    super(message);
  }
}

/**
 * Idempotency keys are derived from what they protect, never random, so a retry from another
 * request, another click or a restarted server reaches the provider with the same key.
 */
export const idempotencyKeys = {
  connectAccount: (userId: string) => `user:${userId}:connect-account`,
  /** Links expire within minutes: the key only guards one request (`nonce` is per request). */
  accountLink: (accountId: string, nonce: string) => `account:${accountId}:link:${nonce}`,
  /** `attempt` counts earlier sessions of this application that expired unpaid. */
  checkout: (applicationId: string, attempt: number) => `application:${applicationId}:checkout:${attempt}`,
  /** `attempt` counts keys retired: refused outright, or answered 5xx and found not made. */
  transfer: (applicationId: string, attempt: number) =>
    `application:${applicationId}:transfer${attempt ? `:retry-${attempt}` : ''}`,
  /** `attempt` counts keys retired: refused outright, or answered 5xx and found not made. */
  refund: (applicationId: string, attempt: number) =>
    `application:${applicationId}:refund${attempt ? `:retry-${attempt}` : ''}`,
};
