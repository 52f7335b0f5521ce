import { QUOTA_MESSAGES } from '../../shared/validation/quotas';
import type { AppContext } from '../context';
import { RateLimiter } from '../http/rate-limit';
import type { WindowCounters } from '../http/window-counters';
import type { PushRow, ReplicatedCollection } from '../../shared/sync/protocol';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Per-user write quotas (docs/decisions/012). Pushed documents per minute: at least one full push
 * (500 rows) so any batch the client sends fits an empty window. New documents per day, for what
 * others are shown or notified of: gigs on everyone's board, applications in a buyer's list.
 */
export const WRITE_QUOTAS = {
  pushedPerMinute: 600,
  createdPerDay: { gigs: 100, applications: 200 } as Partial<Record<ReplicatedCollection, number>>,
};

export type WriteQuotas = {
  pushed: RateLimiter;
  created: Partial<Record<ReplicatedCollection, RateLimiter>>;
};

export function createWriteQuotas(enabled: boolean, now: () => number, counters?: WindowCounters): WriteQuotas {
  const created: WriteQuotas['created'] = {};
  for (const [collection, limit] of Object.entries(WRITE_QUOTAS.createdPerDay)) {
    created[collection as ReplicatedCollection] = new RateLimiter(
      `created-${collection}`,
      limit,
      DAY,
      enabled,
      now,
      counters,
    );
  }
  return { pushed: new RateLimiter('pushed', WRITE_QUOTAS.pushedPerMinute, MINUTE, enabled, now, counters), created };
}

/**
 * Charges a push to its user's quotas before any row is applied, all or nothing: a 429 leaves
 * the store untouched and the client sends the same batch again later. Each quota takes its
 * share atomically (so concurrent pushes, on any instance, cannot both pass the last of it), and
 * a refusal by the daily quota gives back what the per-minute one took. A row counts as new when
 * its id is not stored yet (a refused one counts too: it cost the check).
 */
export async function chargePush(
  ctx: AppContext,
  userId: string,
  collection: ReplicatedCollection,
  rows: PushRow[],
): Promise<void> {
  if (!ctx.config.rateLimits) return;
  const daily = ctx.limits.writes.created[collection];
  const fresh = daily
    ? rows.filter(
        (r) =>
          r.newDocumentState._deleted !== true &&
          !(typeof r.newDocumentState.id === 'string' && ctx.store.get(collection, r.newDocumentState.id)),
      ).length
    : 0;
  await daily?.check(userId, fresh, QUOTA_MESSAGES.tooManyCreated);
  await ctx.limits.writes.pushed.take(userId, rows.length, QUOTA_MESSAGES.tooManyChanges);
  try {
    await daily?.take(userId, fresh, QUOTA_MESSAGES.tooManyCreated);
  } catch (err) {
    await ctx.limits.writes.pushed.giveBack(userId, rows.length);
    throw err;
  }
}
