/** What other features may use of applications: the writes that apply, offer, accept and decline. */
export { acceptOffer, applyToGig, declineOffer, sendOffers } from './application-writes';
