import { isProfileComplete } from '../../shared/profile-complete';
import type { DocWrite, Store, Stored } from '../store/store';
import { reputationWrites } from './reputation';
import { claimIdOf, holderOf } from './usernames';

/** Members settled per decision at start-up. */
const BATCH = 200;

/**
 * At start-up, what a store written before reviews and unique usernames lacks (decision 032):
 * each username claimed by the oldest account using it (a later account sharing it keeps it, but
 * the address `/u/{username}` stays the older one's), and the reputation of each completed profile
 * (its completed gigs). In batches of decisions, so instances starting together settle each member
 * once; a store that has it all writes nothing. Answers how many documents were written.
 */
export async function settleReputations(store: Store, now: number): Promise<number> {
  const users = [...store.all('users')]
    .filter((u) => !u._deleted)
    .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0) || (a.id < b.id ? -1 : 1));
  const unsettled = users.filter(
    (u) => (u.username && !holderOf(store, u.username)) || (isProfileComplete(u) && !u.reputation),
  );
  let written = 0;
  for (let i = 0; i < unsettled.length; i += BATCH) {
    const batch = unsettled.slice(i, i + BATCH);
    const { value } = await store.transaction((read) => {
      const writes: DocWrite[] = [];
      const claimed = new Set<string>();
      for (const stale of batch) {
        const user: Stored<'users'> | undefined = read.get('users', stale.id);
        if (!user || user._deleted) continue;
        const claim = user.username ? claimIdOf(user.username) : undefined;
        if (claim && !holderOf(read, user.username!) && !claimed.has(claim)) {
          claimed.add(claim);
          writes.push({ collection: 'usernames', doc: { id: claim, userId: user.id, _deleted: false } });
        }
        if (isProfileComplete(user) && !user.reputation) writes.push(...reputationWrites(read, [user.id], now));
      }
      return { writes, value: writes.length };
    });
    written += value;
  }
  return written;
}
