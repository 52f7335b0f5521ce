import { z } from 'zod';
import { api, ApiError } from './api';
import type { PaymentConfirmation } from '../../shared/payment-messages';

/**
 * The payment endpoints of the sync server (README "The server's API"), typed for the screens:
 * payout setup in /settings, paying from the basket, the /payment/success page, Mark as Complete.
 * Amounts are integer minor units. Failures throw ApiError with the server's message (docs/product.md §8
 * wording where docs/product.md has one), NetworkError when no answer came, or MalformedAnswer when an
 * answer does not have the shape below: the screens treat that as the failure they describe
 * rather than, say, sending the browser to `/undefined`.
 */

/** An answer of the wrong shape (a proxy's page, a half-deployed server): the request failed. */
export class MalformedAnswer extends Error {
  constructor(readonly path: string) {
    super(`Unexpected answer from ${path}`);
  }
}

/** A link the browser may be sent to: an absolute http(s) URL, nothing else (no javascript:, no relative path). */
const httpUrl = z.string().refine((text) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
});
const minor = z.number().int().nonnegative();

async function answer<S extends z.ZodType>(
  schema: S,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<z.infer<S>> {
  const parsed = schema.safeParse(await api<unknown>(method, path, body));
  if (!parsed.success) throw new MalformedAnswer(path);
  return parsed.data;
}

const connectAnswer = z.object({ accountId: z.string().min(1), accountLink: httpUrl });
const statusAnswer = z.object({
  state: z.enum(['none', 'details_due', 'connected']),
  accountId: z.string().nullable(),
  released: z.number().int().nonnegative(),
});
const checkoutAnswer = z.object({ url: httpUrl, sessionId: z.string().min(1) });
const confirmAnswer = z.looseObject({
  confirmed: z.literal(true),
  applicationId: z.string(),
  gigId: z.string(),
  gigTitle: z.string(),
  sessionId: z.string(),
  status: z.string(),
  amount: minor,
  base: minor,
  fee: minor,
  currency: z.string(),
  paymentConfirmedAt: z.number(),
});
const completionAnswer = z.union([
  z.looseObject({
    success: z.literal(true),
    payout: z.enum(['sent', 'held', 'none', 'pending']),
    amount: minor,
    alreadyCompleted: z.literal(true).optional(),
  }),
  z.looseObject({ success: z.literal(false), error: z.string().optional() }),
]);

/** none: no payout account yet; details_due: onboarding not finished; connected: payouts arrive. */
export type PayoutState = 'none' | 'details_due' | 'connected';
export type PayoutStatus = { state: PayoutState; accountId: string | null; released: number };

export type ConnectAccountResult = { accountId: string; accountLink: string };
export type CheckoutStart = { url: string; sessionId: string };

export type { PaymentConfirmation };

export type CompletionResult = {
  success: true;
  /**
   * sent: paid out now; held: waiting for the freelancer's payout account; none: a zero budget;
   * pending: the provider has not answered yet, the server is settling it (answered 202).
   */
  payout: 'sent' | 'held' | 'none' | 'pending';
  /** The freelancer's 90%. */
  amount: number;
  alreadyCompleted?: true;
};

/**
 * Creates (or reuses) the signed-in user's payout account and returns an onboarding link to open
 * with `location.assign`. The server stores the account id on the user record itself.
 */
export function createConnectAccount(user: { id: string; email: string }): Promise<ConnectAccountResult> {
  return answer(connectAnswer, 'POST', '/api/stripe/create-connect-account', {
    email: user.email,
    userId: user.id,
    hostname: window.location.hostname,
  });
}

/** The signed-in user's payout state, asked of the provider (held payouts are released on the way). */
export function getPayoutStatus(): Promise<PayoutStatus> {
  return answer(statusAnswer, 'GET', '/api/stripe/account-status');
}

/** Starts (or resumes) paying an accepted offer; open `url` with `location.assign`. The server computes the amount. */
export function startCheckout(applicationId: string): Promise<CheckoutStart> {
  return answer(checkoutAnswer, 'POST', '/api/payments/checkout', { applicationId });
}

/** The success page's call: the server checks the payment with the provider before work starts. Safe to repeat. */
export function confirmPayment(applicationId: string, sessionId: string): Promise<PaymentConfirmation> {
  return answer(confirmAnswer, 'POST', '/api/payments/confirm', { applicationId, sessionId });
}

/** Mark as Complete (docs/product.md §7): a non-OK answer or success=false is an error. */
export async function completeGig(input: {
  gigId: string;
  applicationId: string;
  userId: string;
}): Promise<CompletionResult> {
  const result = await answer(completionAnswer, 'POST', '/api/gigs/complete-gig', { ...input, userType: 'buyer' });
  if (!result.success) throw new ApiError(500, result.error ?? 'Failed to complete gig');
  return result as CompletionResult;
}

export type PaymentSuccessQuery = {
  gigId: string;
  applicationId: string;
  /** Display only ("463.50"): the server's confirmation carries the real amount. */
  amount: string;
  title: string;
  currency: string;
  sessionId: string;
};

/** The /payment/success query (docs/product.md §2 plus session_id), or null: 'Missing required payment information'. */
export function readPaymentSuccessQuery(search: string): PaymentSuccessQuery | null {
  const q = new URLSearchParams(search);
  const gigId = q.get('gigId');
  const applicationId = q.get('applicationId');
  const sessionId = q.get('session_id');
  if (!gigId || !applicationId || !sessionId) return null;
  return {
    gigId,
    applicationId,
    sessionId,
    amount: q.get('amount') ?? '',
    title: q.get('title') ?? '',
    currency: q.get('currency') ?? '',
  };
}

// Issue 15 (decision 031): money moves of delivered, cancelled and disputed work.

const settlementAnswer = z.looseObject({ status: z.string(), settlement: z.looseObject({}).nullable() });
export type WorkMoneyAnswer = z.infer<typeof settlementAnswer>;

/** Freelancer: cancel paid work with a full refund to the buyer (on their own, or accepting the buyer's request). */
export function cancelPaidWork(applicationId: string): Promise<WorkMoneyAnswer> {
  return answer(settlementAnswer, 'POST', '/api/work/cancel', { applicationId });
}

/** A party or an operator: try again a payment the provider refused. */
export function retryPayment(applicationId: string): Promise<WorkMoneyAnswer> {
  return answer(settlementAnswer, 'POST', '/api/work/retry', { applicationId });
}
