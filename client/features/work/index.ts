/** What other features may use of delivered, cancelled and disputed work (decision 031): the actions of each side and what the work's state says. */
export { BuyerWorkActions, SellerWorkActions, WithdrawOffer } from './work-actions';
export { AutoRelease, Submissions, WorkState } from './work-details';
