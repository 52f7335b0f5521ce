/** What other features may use of gigs: the form, the details view, the delete dialog and the gig writes. */
export { DeleteGigDialog } from './delete-gig-dialog';
export { GigDetails } from './gig-details';
export { GigForm } from './gig-form';
export { createGig, deleteGig, editGig, setOpenings } from './gig-writes';
