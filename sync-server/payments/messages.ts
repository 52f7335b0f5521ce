import {
  COMPLETION_MESSAGES,
  PAYMENT_START_FAILED,
  PAYMENT_SUCCESS_MESSAGES,
  PAYOUT_SETUP_MESSAGES,
} from '../../shared/payment-messages';

/**
 * What the payment routes answer: the texts the screens show word for word (shared/payment-messages.ts,
 * from docs/product.md §8), under the names the server's steps use, and the server's own refusals.
 */
export const PAYMENT_MESSAGES = {
  ...PAYMENT_SUCCESS_MESSAGES,
  ...COMPLETION_MESSAGES,
  accountLoadFailed: PAYOUT_SETUP_MESSAGES.loadFailed,
  accountCreateFailed: PAYOUT_SETUP_MESSAGES.createFailed,
  connectFailed: PAYOUT_SETUP_MESSAGES.connectFailed,
  checkoutFailed: PAYMENT_START_FAILED,
  // Not in docs/product.md.
  onlyBuyerPays: 'Only the buyer of this gig can pay for it.',
  nothingToPay: 'This offer has no budget to pay.',
  ownPayoutsOnly: 'Payout setup is only for the logged-in user.',
  onlyBuyerCompletes: 'Only the buyer of this gig can mark the work complete.',
  wrongGig: 'This application does not belong to this gig.',
} as const;
