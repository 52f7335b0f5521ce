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
  const [outcome] = await claimPushes(store, n.userId, [n], now, limit);
  return outcome!;
}

/**
 * Claims the pushes of several notifications of one user, in order, in one store decision: a
 * batch of notifications written together (thirty at once, say) is one write of the user's
 * record, not thirty decisions contending for it (on PostgreSQL they would be run again and
 * again, and some given up). Answers each notification's outcome.
 */
export async function claimPushes(
  store: PushStore,
  userId: string,
  notifications: readonly { id: string; createdAt: number }[],
  now: number,
  limit: number,
): Promise<ClaimOutcome[]> {
  const id = claimsId(userId);
  const { value } = await store.transaction((read) => {
    let claims = claimsOf(read.get('pushsends', id));
    let changed = false;
    const outcomes = notifications.map((n) => {
      const decided = decideClaim(claims, n, now, limit);
      if (decided.claims) {
        claims = decided.claims;
        changed = true;
      }
      return decided.outcome;
    });
    if (!changed) return { writes: [], value: outcomes };
    const record: PushClaimsRecord = { id, userId, claims };
    return { writes: [{ collection: 'pushsends', doc: { ...record, _deleted: false } }], value: outcomes };
  });
  return value;
}
