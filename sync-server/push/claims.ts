import type { Stored } from '../store/store';
import { CLAIM_KEPT_MS, FRESH_MS } from './limits';
import type { PushClaim, PushClaimsRecord, PushSendRecord } from './records';
import type { PushStore } from './subscriptions';

/**
 * The claim on each notification's push (collection `pushsends`), kept per user: one record per
 * user holding the claims that can still matter. The store keeps a tombstone of every record it
 * ever held, so a record per notification could never be pruned; entries of a record can.
 */

export const claimsId = (userId: string) => `user:${userId}`;

export type ClaimOutcome =
  /** This instance sends the push. */
  | 'claimed'
  /** Another instance claimed it (or this one did already). */
  | 'taken'
  /** The notification is no longer news. */
  | 'stale'
  /** The user has `limit` pushes claimed in the window already: this one is not pushed. */
  | 'full';

function claimsOf(doc: Stored<'pushsends'> | undefined): PushClaim[] {
  if (!doc || doc._deleted) return [];
  const claims = (doc as PushSendRecord as Partial<PushClaimsRecord>).claims;
  return Array.isArray(claims) ? claims : [];
}

/**
 * The decision on one notification's push at `now`, from the user's claims: a pure function of
 * them, so a store shared by several instances may run it again. Claims whose notification is
 * older than `CLAIM_KEPT_MS` are dropped as the record is written.
 */
export function decideClaim(
  claims: readonly PushClaim[],
  n: { id: string; createdAt: number },
  now: number,
  limit: number,
): { outcome: ClaimOutcome; claims?: PushClaim[] } {
  if (now - n.createdAt > FRESH_MS) return { outcome: 'stale' };
  const kept = claims.filter((c) => now - c.createdAt <= CLAIM_KEPT_MS);
  const same = kept.find((c) => c.notificationId === n.id);
  if (same && same.createdAt >= n.createdAt) return { outcome: 'taken' };
  const others = kept.filter((c) => c.notificationId !== n.id);
  if (others.length >= limit) return { outcome: 'full' };
  return {
    outcome: 'claimed',
    claims: [...others, { notificationId: n.id, createdAt: n.createdAt, claimedAt: now }],
  };
}

/** Claims a notification's push for this instance, in a store decision. */
export async function claimPush(
  store: PushStore,
  n: { id: string; userId: string; createdAt: number },
  now: number,
  limit: number,
): Promise<ClaimOutcome> {
  const id = claimsId(n.userId);
  const { value } = await store.transaction((read) => {
    const decided = decideClaim(claimsOf(read.get('pushsends', id)), n, now, limit);
    if (!decided.claims) return { writes: [], value: decided.outcome };
    const record: PushClaimsRecord = { id, userId: n.userId, claims: decided.claims };
    return { writes: [{ collection: 'pushsends', doc: { ...record, _deleted: false } }], value: decided.outcome };
  });
  return value;
}
