import { api, ApiError } from './api';
import type { PaymentConfirmation } from '../../shared/payment-messages';

/**
 * The payment endpoints of the sync server (README "The server's API"), typed for the screens:
 * payout setup in /settings, paying from the basket, the /payment/success page, Mark as Complete.
 * Amounts are integer minor units. Failures throw ApiError with the server's message (SPEC.md §8
 * wording where SPEC.md has one) or NetworkError when offline.
 */

/** none: no payout account yet; details_due: onboarding not finished; connected: payouts arrive. */
export type PayoutState = 'none' | 'details_due' | 'connected';
export type PayoutStatus = { state: PayoutState; accountId: string | null; released: number };

export type ConnectAccountResult = { accountId: string; accountLink: string };
export type CheckoutStart = { url: string; sessionId: string };

export type { PaymentConfirmation };

export type CompletionResult = {
  success: true;
  /** sent: paid out now; held: waiting for the freelancer's payout account; none: a zero budget. */
  payout: 'sent' | 'held' | 'none';
  /** The freelancer's 90%. */
  amount: number;
  alreadyCompleted?: true;
};

/**
 * Creates (or reuses) the signed-in user's payout account and returns an onboarding link to open
 * with `location.assign`. The server stores the account id on the user record itself.
 */
export function createConnectAccount(user: { id: string; email: string }): Promise<ConnectAccountResult> {
  return api<ConnectAccountResult>('POST', '/api/stripe/create-connect-account', {
    email: user.email,
    userId: user.id,
    hostname: window.location.hostname,
  });
}

/** The signed-in user's payout state, asked of the provider (held payouts are released on the way). */
export function getPayoutStatus(): Promise<PayoutStatus> {
  return api<PayoutStatus>('GET', '/api/stripe/account-status');
}

/** Starts (or resumes) paying an accepted offer; open `url` with `location.assign`. The server computes the amount. */
export function startCheckout(applicationId: string): Promise<CheckoutStart> {
  return api<CheckoutStart>('POST', '/api/payments/checkout', { applicationId });
}

/** The success page's call: the server checks the payment with the provider before work starts. Safe to repeat. */
export function confirmPayment(applicationId: string, sessionId: string): Promise<PaymentConfirmation> {
  return api<PaymentConfirmation>('POST', '/api/payments/confirm', { applicationId, sessionId });
}

/** Mark as Complete (SPEC.md §7): a non-OK answer or success=false is an error. */
export async function completeGig(input: { gigId: string; applicationId: string; userId: string }): Promise<CompletionResult> {
  const result = await api<CompletionResult | { success: false; error?: string }>('POST', '/api/gigs/complete-gig', { ...input, userType: 'buyer' });
  if (!result.success) throw new ApiError(500, result.error ?? 'Failed to complete gig');
  return result;
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

/** The /payment/success query (SPEC.md §2 plus session_id), or null: 'Missing required payment information'. */
export function readPaymentSuccessQuery(search: string): PaymentSuccessQuery | null {
  const q = new URLSearchParams(search);
  const gigId = q.get('gigId');
  const applicationId = q.get('applicationId');
  const sessionId = q.get('session_id');
  if (!gigId || !applicationId || !sessionId) return null;
  return { gigId, applicationId, sessionId, amount: q.get('amount') ?? '', title: q.get('title') ?? '', currency: q.get('currency') ?? '' };
}
