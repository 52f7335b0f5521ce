import { reputationFields, sameReputation } from '../../shared/reputation';
import type { Reputation } from '../../shared/schemas/reputation';
import type { Review } from '../../shared/schemas/review';
import { isProfileComplete } from '../../shared/profile-complete';
import { stamp } from '../domain/documents';
import type { DecisionReader, DocWrite } from '../store/store';

/**
 * Each member's reputation, on their user record (shared/schemas/reputation.ts), recomputed from
 * the store whenever what it counts may have changed: completed work, a review of them published.
 * Recomputing rather than counting up makes every write of it idempotent (a timer firing twice, a
 * decision run again) and keeps it true to the store. Its cost is the member's applications and
 * reviews, read through their indexes.
 */

/** Reviews written in the same decision (not in the store yet). */
type Pending = readonly Pick<Review, 'id' | 'subjectId' | 'authorRole' | 'rating' | 'publishedAt'>[];

/** The member's reputation now, or undefined when they have no completed profile (no public profile either). */
export function reputationOf(read: DecisionReader, userId: string, pending: Pending = []): Reputation | undefined {
  const user = read.get('users', userId);
  if (!user || user._deleted || !isProfileComplete(user)) return undefined;
  const about = new Map<string, Pick<Review, 'authorRole' | 'rating' | 'publishedAt'>>();
  for (const r of read.byIndex('reviews', 'subjectId', userId)) if (!r._deleted) about.set(r.id, r);
  for (const r of pending) if (r.subjectId === userId) about.set(r.id, r);
  const live = <T extends { _deleted: boolean }>(docs: T[]) => docs.filter((d) => !d._deleted);
  return reputationFields({
    asApplicant: live(read.byIndex('applications', 'applicantId', userId)),
    asCreator: live(read.byIndex('applications', 'creatorId', userId)),
    about: [...about.values()],
  });
}

/**
 * The writes that bring the members' reputations up to date: each user record whose reputation
 * changed, written again (to everyone who may see that profile). None where nothing changed.
 */
export function reputationWrites(
  read: DecisionReader,
  userIds: readonly string[],
  now: number,
  pending: Pending = [],
): DocWrite[] {
  const writes: DocWrite[] = [];
  for (const userId of new Set(userIds)) {
    const next = reputationOf(read, userId, pending);
    const user = read.get('users', userId);
    if (!next || !user) continue;
    if (user.reputation && sameReputation(user.reputation, next)) continue;
    writes.push({ collection: 'users', doc: { ...user, reputation: next, updatedAt: stamp(now, user) } });
  }
  return writes;
}
