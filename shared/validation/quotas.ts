/**
 * What the server answers (429) when a user's writes pass a quota, and what the sync status then
 * shows while the waiting changes are kept and retried (docs/decisions/012).
 */
export const QUOTA_MESSAGES = {
  /** Documents pushed per minute. */
  tooManyChanges: 'Too many changes at once. Please wait a minute and try again.',
  /** Documents of one kind created per day. */
  tooManyCreated:
    'You have reached the most new items allowed in one day. Your changes are kept and will sync tomorrow.',
} as const;
