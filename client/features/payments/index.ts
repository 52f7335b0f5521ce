/** What other features may use of payments: paying, the receipt, the payout, completion and the simulated-mode notice. */
export { BuyerReceipt, FreelancerPayout, MarkComplete, PayForApplication, SimulatedNotice } from './payment-parts';
