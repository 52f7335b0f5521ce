/**
 * What the payment routes answer. SPEC.md §8 gives the payment success page's and completion's
 * messages word for word; the payout setup messages name the provider as SPEC.md says they do.
 */
export const PAYMENT_MESSAGES = {
  // SPEC.md §8, payment success page.
  missingInfo: 'Missing required payment information',
  applicationNotFound: 'Application not found',
  invalidStatus: 'Invalid application status',
  updateFailed: 'Failed to update payment status. Please contact support.',
  // SPEC.md §8, offers and completion.
  completeFailed: 'Failed to complete gig',
  transferFailed: 'Payment transfer was not successful',
  completeError: 'Error marking gig as complete. Please try again.',
  // SPEC.md §8, payout setup (naming the provider).
  accountLoadFailed: 'Failed to load Stripe account information',
  accountCreateFailed: 'Failed to create Stripe account',
  connectFailed: 'Failed to connect with Stripe',
  // Not in SPEC.md.
  onlyBuyerPays: 'Only the buyer of this gig can pay for it.',
  nothingToPay: 'This offer has no budget to pay.',
  checkoutFailed: 'The payment could not be started. Please try again.',
  ownPayoutsOnly: 'Payout setup is only for the logged-in user.',
  onlyBuyerCompletes: 'Only the buyer of this gig can mark the work complete.',
  wrongGig: 'This application does not belong to this gig.',
} as const;
