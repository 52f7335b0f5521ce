/** What other features may use of create-gig: the panel (page or modal) that writes a new gig. */
export { CreateGigPanel } from './create-gig-panel';
