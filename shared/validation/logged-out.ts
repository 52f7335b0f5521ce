/**
 * docs/product.md §8's words for an action that needs a session, word for word. The login page shows the
 * one that fits when a signed-out visitor is sent there from such a page (shared/routes.ts).
 */
export const LOGGED_OUT_MESSAGES = {
  setup: 'You must be logged in to complete profile setup',
  createGig: 'You must be logged in to create a gig',
  converse: 'Please log in to start a conversation',
  apply: 'Please log in or create an account to apply for gigs',
} as const;
