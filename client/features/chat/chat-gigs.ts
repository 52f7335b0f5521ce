import type { ChatDocMessage } from '../../../shared/chat-doc';
import type { Application } from '../../../shared/schemas/application';

/**
 * A conversation is one per pair of users, and several gigs may link them: these say which gigs
 * those are (from the applications this device holds) and which one each message is about.
 */

export type LinkedGig = { gigId: string; title: string; status: Application['status']; deleted: boolean };

/** Every gig an application links the two users by: gigs that still exist first, newest application first. */
export function linkedGigs(applications: readonly Application[]): LinkedGig[] {
  return [...applications]
    .sort((a, b) => Number(a.gigDeleted === true) - Number(b.gigDeleted === true) || b.appliedAt - a.appliedAt)
    .map((a) => ({ gigId: a.gigId, title: a.gigTitle, status: a.status, deleted: a.gigDeleted === true }));
}

/**
 * The gig new messages are written from: the one the user came from (`?gig=`), else the one the
 * conversation last talked about, else the only one linking the two. Never a deleted gig, nor a
 * gig that does not link them.
 */
export function writingAbout(
  gigs: readonly LinkedGig[],
  requested: string | null,
  messages: readonly Pick<ChatDocMessage, 'gigId'>[],
): LinkedGig | undefined {
  const live = gigs.filter((g) => !g.deleted);
  const find = (id: string | null | undefined) => (id ? live.find((g) => g.gigId === id) : undefined);
  const fromUrl = find(requested);
  if (fromUrl) return fromUrl;
  for (let i = messages.length - 1; i >= 0; i--) {
    const last = find(messages[i]!.gigId);
    if (last) return last;
  }
  return live.length === 1 ? live[0] : undefined;
}

/**
 * Where the subject changes in the message list: message id → the gig it turns to. A message
 * without a gig, or naming one that does not link the two, keeps the subject as it was.
 */
export function subjectChanges(
  gigs: readonly LinkedGig[],
  messages: readonly Pick<ChatDocMessage, 'id' | 'gigId'>[],
): Map<string, LinkedGig> {
  const byId = new Map(gigs.map((g) => [g.gigId, g]));
  const changes = new Map<string, LinkedGig>();
  let current: string | undefined;
  for (const m of messages) {
    const gig = m.gigId ? byId.get(m.gigId) : undefined;
    if (!gig || gig.gigId === current) continue;
    current = gig.gigId;
    changes.set(m.id, gig);
  }
  return changes;
}
