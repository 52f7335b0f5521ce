import type { CurrencyCode } from '../../shared/constants';

/**
 * The server's own records, the ones no device replicates: sessions, credentials, waitlist
 * entries, the payments ledger and the simulated payment provider's state. With the shared
 * document types they make up what each collection of the store holds (store/documents.ts).
 */

export type Session = { id: string; userId: string; expiresAt: number; createdAt: number };

export type Credentials = {
  id: string;
  email: string;
  passwordHash: string;
  /**
   * Written only by `npm run operator` (auth/operator-accounts.ts): this account is the operator
   * of `email` while OPERATOR_EMAILS lists it (decision 031, revised).
   */
  operator?: { email: string; confirmedAt: number };
};

export type WaitlistEntry = {
  id: string;
  name: string;
  email: string;
  location: string;
  city: string;
  submittedAt: number;
  status: string;
};

// The payments ledger (payments/ledger.ts): what was charged, paid out and kept, one entry per fact.

type Entry = { id: string; applicationId: string; createdAt: number; updatedAt: number };

export type CheckoutEntry = Entry & {
  kind: 'checkout';
  sessionId: string;
  buyerId: string;
  base: number;
  fee: number;
  total: number;
  currency: CurrencyCode;
  /** open → paid, or open → expired (then a new session is made with the next attempt number). */
  status: 'open' | 'paid' | 'expired';
  attempt: number;
  url: string;
  idempotencyKey: string;
};

export type ChargeEntry = Entry & {
  kind: 'charge';
  sessionId: string;
  paymentIntentId: string | null;
  chargeId: string | null;
  buyerId: string;
  /** What the buyer paid: base + buyer fee. */
  amount: number;
  base: number;
  currency: CurrencyCode;
  /** Which path confirmed it first: the success page, the webhook, or the simulated checkout. */
  confirmedBy: 'confirm' | 'webhook' | 'simulated';
  paymentConfirmedAt: number;
};

export type FeeEntry = Entry & { kind: 'buyer_fee' | 'platform_fee'; amount: number; currency: CurrencyCode };

/**
 * A provider call that got no answer worth trusting (a timeout, a 5xx): the money may or may not
 * have moved. The next try asks the provider first (payments/attempts.ts). `status` is the answer's
 * HTTP status, null when none came; `key` the idempotency key the call used.
 */
export type Unanswered = { key: string; status: number | null; at: number };

export type TransferEntry = Entry & {
  kind: 'transfer';
  freelancerId: string;
  amount: number;
  currency: CurrencyCode;
  /** held: no payout account able to receive yet; sent: the provider accepted the transfer. */
  status: 'held' | 'sent';
  transferGroup: string;
  sourceTransaction: string | null;
  destination: string | null;
  transferId: string | null;
  /**
   * Keys retired so far: attempts the provider refused outright, or answered with a server error
   * and, asked, showed it had not made. The next key carries this number.
   */
  refusedAttempts: number;
  /** The last attempt got no answer worth trusting: the next one reconciles first. */
  unanswered?: Unanswered | null;
  lastError: string | null;
  sentAt: number | null;
};

/**
 * Money back to the buyer (decision 031): a cancellation after payment, a dispute's refund or
 * split, a payment that arrived after the offer was cancelled. `fee` is the part of `amount` that
 * is the buyer's service fee. `pending` records a refusal (nothing moved); `sent` the provider's refund.
 */
export type RefundEntry = Entry & {
  kind: 'refund';
  buyerId: string;
  amount: number;
  fee: number;
  currency: CurrencyCode;
  status: 'pending' | 'sent';
  chargeId: string | null;
  refundId: string | null;
  /**
   * Keys retired so far: attempts the provider refused outright, or answered with a server error
   * and, asked, showed it had not made. The next key carries this number.
   */
  refusedAttempts: number;
  /** The last attempt got no answer worth trusting: the next one reconciles first. */
  unanswered?: Unanswered | null;
  lastError: string | null;
  sentAt: number | null;
};

export type WebhookEventEntry = {
  id: string;
  kind: 'webhook_event';
  eventId: string;
  type: string;
  createdAt: number;
  updatedAt: number;
};

export type LedgerEntry = CheckoutEntry | ChargeEntry | FeeEntry | TransferEntry | RefundEntry | WebhookEventEntry;

// The simulated payment provider's state (payments/simulated-provider.ts), kept in the ledger collection.

export type SimAccount = {
  id: string;
  kind: 'sim_account';
  accountId: string;
  userId: string;
  email: string;
  enabled: boolean;
};
export type SimLink = {
  id: string;
  kind: 'sim_link';
  linkId: string;
  accountId: string;
  returnUrl: string;
  refreshUrl: string;
  expiresAt: number;
};
export type SimSession = {
  id: string;
  kind: 'sim_session';
  sessionId: string;
  applicationId: string;
  lineItems: { name: string; amount: number }[];
  amountTotal: number;
  currency: string;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  paid: boolean;
  paymentIntentId: string | null;
  chargeId: string | null;
  expiresAt: number;
};
export type SimTransfer = {
  id: string;
  kind: 'sim_transfer';
  transferId: string;
  createdAt: number;
  [field: string]: unknown;
};
export type SimIdempotency = {
  id: string;
  kind: 'sim_idempotency';
  resultId: string;
  /** A server error answered under this key (a test's fault): replayed like Stripe replays it. */
  failure?: { status: number; message: string };
  createdAt: number;
};
export type SimRefund = {
  id: string;
  kind: 'sim_refund';
  refundId: string;
  applicationId: string;
  chargeId: string | null;
  amount: number;
  currency: string;
  createdAt: number;
};
export type SimRecord = SimAccount | SimLink | SimSession | SimTransfer | SimIdempotency | SimRefund;

/** Everything the ledger collection holds. */
export type LedgerRecord = LedgerEntry | SimRecord;
