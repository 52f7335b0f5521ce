import type { ApplicationStatus } from '../constants';

/** docs/product.md §8 Gigs, deletion, word for word; `workUnderWay` is ours (docs/decisions/014-openings-and-filled-gigs.md). */
export const DELETE_GIG_MESSAGES = {
  notFound: 'Gig not found.',
  notOwner: 'You do not have permission to delete this gig.',
  workUnderWay: 'Work on this gig is under way. Complete the work before deleting the gig.',
} as const;

/** Money is involved from acceptance until completion: the gig stays while any work is in these. */
const UNDER_WAY: readonly string[] = ['PENDING_PAYMENT', 'IN_PROGRESS'] satisfies ApplicationStatus[];

/**
 * "Only the creator may delete, after confirmation" (docs/product.md §5), and never while work on the gig
 * is under way. The confirmation is the screen's; this is the rule, the same on the device (which
 * offers Delete only where it can succeed) and on the server. A logged-out actor is not the creator
 * of anything.
 */
export function checkDeleteGig(
  actorId: string | null | undefined,
  gig: { createdBy?: string } | undefined | null,
  applications: readonly { status: string }[],
): { ok: true } | { ok: false; error: (typeof DELETE_GIG_MESSAGES)[keyof typeof DELETE_GIG_MESSAGES] } {
  if (!gig) return { ok: false, error: DELETE_GIG_MESSAGES.notFound };
  if (!actorId || !gig.createdBy || gig.createdBy !== actorId)
    return { ok: false, error: DELETE_GIG_MESSAGES.notOwner };
  if (applications.some((a) => UNDER_WAY.includes(a.status)))
    return { ok: false, error: DELETE_GIG_MESSAGES.workUnderWay };
  return { ok: true };
}
