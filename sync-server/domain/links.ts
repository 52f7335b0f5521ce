import type { GigRef } from '../../shared/application-machine';
import type { ConversationLink } from '../../shared/validation/chat-access';
import { applicationPairKey } from '../indexes';
import type { DecisionReader } from '../store/store';

/**
 * What links two users, and the gig an application names: read by the read filter, the
 * conversation policy, the chat's access check and its records, and the payment steps.
 */

/** Whether an application links the two users, either way round (what lets them talk). */
export function linkedByApplication(store: DecisionReader, a: string, b: string): boolean {
  return (
    store.anyByIndex('applications', 'pair', applicationPairKey(a, b)) ||
    store.anyByIndex('applications', 'pair', applicationPairKey(b, a))
  );
}

/**
 * The application a conversation between two users is about: the one for `gigId` when that gig
 * links them and still exists (the gig the user came from), otherwise the most recent one whose
 * gig still exists, otherwise the most recent one.
 */
export function conversationLink(
  store: DecisionReader,
  a: string,
  b: string,
  gigId?: string,
): ConversationLink | undefined {
  const candidates = [
    ...store.byIndex('applications', 'pair', applicationPairKey(a, b)),
    ...store.byIndex('applications', 'pair', applicationPairKey(b, a)),
  ];
  const rank = (x: (typeof candidates)[number]) =>
    x._deleted || x.gigDeleted === true ? 2 : gigId && x.gigId === gigId ? 0 : 1;
  const app = candidates.sort((x, y) => rank(x) - rank(y) || Number(y.appliedAt) - Number(x.appliedAt))[0];
  return app && { gigTitle: app.gigTitle, gigId: app.gigId, creatorId: app.creatorId };
}

/** The gig as the application machine sees it, or undefined once it is deleted. */
export function gigRefOf(store: DecisionReader, gigId: string): GigRef | undefined {
  const gig = store.get('gigs', gigId);
  return gig && !gig._deleted ? { id: gig.id, createdBy: gig.createdBy, title: gig.title } : undefined;
}

/**
 * Whether the user has ever posted a gig (a deleted one's tombstone counts): their public profile
 * is then everyone's to see. Ever, not now: a device keeps what it was shown (a profile that left
 * its reader's view would stay on the device, out of step with the server), so who may see a
 * profile only grows, as with the links applications make.
 */
export function hasPostedGig(store: DecisionReader, userId: string): boolean {
  return store.anyByIndex('gigs', 'createdBy', userId);
}
