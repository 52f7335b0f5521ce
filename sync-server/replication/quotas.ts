import { QUOTA_MESSAGES } from '../../shared/validation/quotas';
import type { AppContext } from '../context';
import { RateLimiter } from '../http/rate-limit';
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

export function createWriteQuotas(enabled: boolean, now: () => number): WriteQuotas {
  const created: WriteQuotas['created'] = {};
  for (const [collection, limit] of Object.entries(WRITE_QUOTAS.createdPerDay)) {
    created[collection as ReplicatedCollection] = new RateLimiter(limit, DAY, enabled, now);
  }
  return { pushed: new RateLimiter(WRITE_QUOTAS.pushedPerMinute, MINUTE, enabled, now), created };
}

/**
 * Charges a push to its user's quotas before any row is applied, all or nothing: a 429 leaves
 * the store untouched and the client sends the same batch again later. Runs synchronously with
 * the push's policy checks, so concurrent pushes cannot both pass the last of a quota. A row
 * counts as new when its id is not stored yet (a refused one counts too: it cost the check).
 */
export function chargePush(ctx: AppContext, userId: string, collection: ReplicatedCollection, rows: PushRow[]): void {
  if (!ctx.config.rateLimits) return;
  const daily = ctx.limits.writes.created[collection];
  const fresh = daily ? rows.filter((r) => r.newDocumentState._deleted !== true && !(typeof r.newDocumentState.id === 'string' && ctx.store.get(collection, r.newDocumentState.id))).length : 0;
  // Both checked before either is charged, so a refusal by one charges neither.
  daily?.check(userId, fresh, QUOTA_MESSAGES.tooManyCreated);
  ctx.limits.writes.pushed.take(userId, rows.length, QUOTA_MESSAGES.tooManyChanges);
  daily?.take(userId, fresh, QUOTA_MESSAGES.tooManyCreated);
}
