/**
 * The payment texts the screens show, word for word: docs/product.md §8 (payment success page, offers and
 * completion) and issue 7's wording of the payout-setup messages, which name the provider.
 */
export const PAYMENT_SUCCESS_MESSAGES = {
  missingInfo: 'Missing required payment information',
  applicationNotFound: 'Application not found',
  invalidStatus: 'Invalid application status',
  updateFailed: 'Failed to update payment status. Please contact support.',
} as const;

export const COMPLETION_MESSAGES = {
  completeFailed: 'Failed to complete gig',
  transferFailed: 'Payment transfer was not successful',
  completeError: 'Error marking gig as complete. Please try again.',
} as const;

/**
 * Not in docs/product.md before decision 031's revision: "Approve and pay" or Mark as Complete was
 * accepted and the money claimed for the freelancer, but the payment provider has not answered
 * yet (answered 202, `payout: 'pending'`). Not a failure: the server pays it out shortly.
 */
export const COMPLETION_PENDING =
  'The payment provider has not answered yet. The payout is being settled and will go through shortly; there is nothing more to do.';

export const PAYOUT_SETUP_MESSAGES = {
  loadFailed: 'Failed to load Stripe account information',
  createFailed: 'Failed to create Stripe account',
  connectFailed: 'Failed to connect with Stripe',
} as const;

/**
 * Not in docs/product.md: the payment provider cannot pay out to the freelancer's country from this
 * platform (decision 007). The settings page shows it as the server answers it.
 */
export function payoutsUnavailable(countryName: string): string {
  return `Payouts to accounts in ${countryName} are not available yet: our payment provider cannot send payouts there from this platform. Please contact support.`;
}

/** Not in docs/product.md: the server could not open the provider's checkout (the buyer may try again). */
export const PAYMENT_START_FAILED = 'The payment could not be started. Please try again.';

/** Not in docs/product.md: what a money action says while the device is offline, instead of failing later. */
export const NEEDS_NETWORK = 'You are offline. Payments need a connection: please reconnect and try again.';

/** The server's message when it is one of `texts` (it may add nothing else), otherwise `fallback`. */
function oneOf(texts: Record<string, string>, fallback: string): (serverMessage: string | undefined) => string {
  const known = new Set(Object.values(texts));
  return (serverMessage) => {
    const text = serverMessage?.trim() ?? '';
    return known.has(text) ? text : fallback;
  };
}

/**
 * The success page shows one of its four docs/product.md texts: the server's when it is one of them,
 * otherwise 'Failed to update payment status. Please contact support.'.
 */
export const paymentSuccessError = oneOf(PAYMENT_SUCCESS_MESSAGES, PAYMENT_SUCCESS_MESSAGES.updateFailed);

/** Mark as Complete shows one of its three docs/product.md texts: the server's when it is one, else the generic retry text. */
export const completionError = oneOf(COMPLETION_MESSAGES, COMPLETION_MESSAGES.completeError);

/** What `POST /api/payments/confirm` answers: the payment as the server recorded it. */
export type PaymentConfirmation = {
  confirmed: true;
  applicationId: string;
  gigId: string;
  gigTitle: string;
  sessionId: string;
  status: string;
  /** What the buyer paid: the final budget plus the 3% service fee, in minor units. */
  amount: number;
  base: number;
  fee: number;
  currency: string;
  paymentConfirmedAt: number;
};

/**
 * Not in docs/product.md: the texts of the money moves of issue 15 (decision 031): cancelling paid
 * work with a refund, trying a refused payment again, an operator's resolution.
 */
export const WORK_PAYMENT_MESSAGES = {
  refundRefused: 'The payment provider refused the refund. Nothing was refunded; it can be tried again.',
  paymentRefused: 'The payment provider refused the payment. Nothing moved; it can be tried again.',
  payoutRefusedAfterRefund:
    'The payment provider refused the freelancer’s payout. The buyer’s refund went out; only the payout can be tried again.',
  providerNoAnswer: 'The payment provider did not answer. The payment will be tried again shortly.',
  cancelFailed: 'Error cancelling the work. Please try again.',
  retryFailed: 'Error trying the payment again. Please try again.',
  resolveFailed: 'Error resolving the dispute. Please try again.',
} as const;

/** A money move of issue 15 shows the server's text when it is one of these (or a machine refusal passed in `known`), otherwise `fallback`. */
export function workPaymentError(
  serverMessage: string | undefined,
  fallback: string,
  known: readonly string[] = [],
): string {
  const text = serverMessage?.trim() ?? '';
  return (Object.values(WORK_PAYMENT_MESSAGES) as string[]).includes(text) || known.includes(text) ? text : fallback;
}
