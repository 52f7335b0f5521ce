import { usernameKey } from '../../shared/profiles';
import type { DecisionReader, DocWrite, Stored } from '../store/store';

/**
 * One member per username (docs/decisions/032-reviews-and-profiles.md): `/u/{username}` names a
 * member, so two may not share a name, compared as `usernameKey` (trimmed, lower-cased). A claim
 * is a server-only document whose id is the key, read by id: a lookup is a Map read whatever the
 * user typed, and on several instances two members racing for one name are a decision's conflict
 * (the second decision sees the first's claim and is refused).
 */

export const claimIdOf = (username: string): string => `username:${usernameKey(username)}`;

/** The member holding a username now, if anyone does. */
export function holderOf(read: DecisionReader, username: string): string | undefined {
  const claim = read.get('usernames', claimIdOf(username));
  return claim && !claim._deleted ? claim.userId : undefined;
}

/** The member `/u/{username}` names: the holder, still using that name. */
export function memberByUsername(read: DecisionReader, username: string): Stored<'users'> | undefined {
  const holder = holderOf(read, username);
  const user = holder ? read.get('users', holder) : undefined;
  if (!user || user._deleted || !user.username) return undefined;
  return usernameKey(user.username) === usernameKey(username) ? user : undefined;
}

/**
 * The claim writes of a change of username from `before` to `after` (either may be empty), or
 * 'taken' when another member holds `after`. Keeping the same name (whatever its case) claims
 * nothing new: a member who shared a name with another before names were unique keeps it (the
 * older account holds the address, start-up's `claimStoredUsernames`).
 */
export function usernameWrites(
  read: DecisionReader,
  userId: string,
  before: string | undefined,
  after: string | undefined,
): DocWrite[] | 'taken' {
  const writes: DocWrite[] = [];
  const release = () => {
    if (before && holderOf(read, before) === userId)
      writes.push({ collection: 'usernames', doc: { id: claimIdOf(before), userId, _deleted: true } });
  };
  if (!after) {
    release();
    return writes;
  }
  const holder = holderOf(read, after);
  if (before && usernameKey(before) === usernameKey(after)) {
    if (!holder) writes.push({ collection: 'usernames', doc: { id: claimIdOf(after), userId, _deleted: false } });
    return writes;
  }
  if (holder && holder !== userId) return 'taken';
  release();
  if (!holder) writes.push({ collection: 'usernames', doc: { id: claimIdOf(after), userId, _deleted: false } });
  return writes;
}
