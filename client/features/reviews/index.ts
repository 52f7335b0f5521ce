/** What other features may use of reviews: the review panel of completed work, profile links and reputations. */
export { ProfileLink } from './profile-link';
export { RatingSummary, ReputationLine } from './reputation-line';
export { ReviewPanel } from './review-panel';
