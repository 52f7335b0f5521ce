import { reputationFields, sameReputation } from '../../shared/reputation';
import type { Review } from '../../shared/schemas/review';
import { isProfileComplete } from '../../shared/schemas/user';
import { stamp } from '../domain/documents';
import type { DecisionReader, DocWrite, Stored } from '../store/store';

/**
 * Each member's reputation document (shared/schemas/reputation.ts), recomputed from the store
 * whenever what it counts may have changed: their name or username, completed work, a review of
 * them published. Recomputing rather than counting up makes every write of it idempotent (a timer
 * firing twice, a decision run again) and keeps it true to the store. Its cost is the member's
 * applications and reviews, read through their indexes.
 */

type Options = {
  /** Reviews written in the same decision (not in the store yet). */
  pending?: readonly Pick<Review, 'id' | 'subjectId' | 'authorRole' | 'rating' | 'publishedAt'>[];
  /** The member's record as the same decision writes it. */
  user?: Stored<'users'>;
  /**
   * Write it even when it did not change: a new sequence makes it reach readers who may see it from
   * now on (the member posted their first gig, an application links them to someone).
   */
  restamp?: boolean;
};

/** The member's reputation fields now, or undefined when they have no completed profile (no public profile either). */
export function reputationOf(read: DecisionReader, userId: string, options: Options = {}) {
  const user = options.user ?? read.get('users', userId);
  if (!user || user._deleted || !isProfileComplete(user)) return undefined;
  const about = new Map<string, Pick<Review, 'authorRole' | 'rating' | 'publishedAt'>>();
  for (const r of read.byIndex('reviews', 'subjectId', userId)) if (!r._deleted) about.set(r.id, r);
  for (const r of options.pending ?? []) if (r.subjectId === userId) about.set(r.id, r);
  const live = <T extends { _deleted: boolean }>(docs: T[]) => docs.filter((d) => !d._deleted);
  return reputationFields({
    id: userId,
    username: user.username!,
    name: user.name,
    asApplicant: live(read.byIndex('applications', 'applicantId', userId)),
    asCreator: live(read.byIndex('applications', 'creatorId', userId)),
    about: [...about.values()],
  });
}

/** The writes that bring the members' reputations up to date (none where nothing changed). */
export function reputationWrites(
  read: DecisionReader,
  userIds: readonly string[],
  now: number,
  options: Options = {},
): DocWrite[] {
  const writes: DocWrite[] = [];
  for (const userId of new Set(userIds)) {
    const next = reputationOf(read, userId, options.user?.id === userId ? options : { ...options, user: undefined });
    if (!next) continue;
    const current = read.get('reputations', userId);
    const live = current && !current._deleted ? current : undefined;
    if (live && !options.restamp && sameReputation(live, next)) continue;
    writes.push({ collection: 'reputations', doc: { ...next, updatedAt: stamp(now, current), _deleted: false } });
  }
  return writes;
}
