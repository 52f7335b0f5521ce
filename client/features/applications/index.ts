/** What other features may use of applications: the writes that apply, offer, accept and decline, and those of delivered, cancelled and disputed work. */
export {
  acceptOffer,
  applyToGig,
  askToCancel,
  cancelUnpaid,
  declineOffer,
  openDispute,
  refuseCancellation,
  requestChanges,
  sendOffers,
  submitWork,
  withdrawApplication,
  withdrawOffer,
} from './application-writes';
