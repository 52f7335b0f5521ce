/** SPEC.md §8 Gigs, deletion, word for word. */
export const DELETE_GIG_MESSAGES = {
  notFound: 'Gig not found.',
  notOwner: 'You do not have permission to delete this gig.',
} as const;

/**
 * "Only the creator may delete, after confirmation" (SPEC.md §5). The confirmation is the
 * screen's; this is the rule. A logged-out actor is not the creator of anything.
 */
export function checkDeleteGig(
  actorId: string | null | undefined,
  gig: { createdBy?: string } | undefined | null,
): { ok: true } | { ok: false; error: (typeof DELETE_GIG_MESSAGES)[keyof typeof DELETE_GIG_MESSAGES] } {
  if (!gig) return { ok: false, error: DELETE_GIG_MESSAGES.notFound };
  if (!actorId || !gig.createdBy || gig.createdBy !== actorId) return { ok: false, error: DELETE_GIG_MESSAGES.notOwner };
  return { ok: true };
}
