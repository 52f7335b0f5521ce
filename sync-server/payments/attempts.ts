import type { Unanswered } from '../domain/records';
import { ProviderError } from './provider';

/**
 * One move of an application's money at the provider (a refund or a transfer), made at most once
 * whatever earlier tries got back (decision 031, revised "Money stranded in SETTLING").
 *
 * Keys are derived from the application and an attempt number. A refusal (4xx) moved nothing: the
 * next try takes the next number. A call that got no answer worth trusting may have moved the
 * money, so the next try first asks the provider for its record of it:
 * - found: it happened; it is recorded as made, nothing is sent again;
 * - not found, and the provider had answered with a server error: Stripe keeps that answer under
 *   the key and replays it to every later call with it, so the key is retired for the next number;
 * - not found, and no answer came at all: the same key again (the provider makes it, or answers
 *   what it made under it; a call still running answers 409 and is tried later).
 */

export type Attempted =
  | { ok: true; id: string; attempt: number; found: boolean }
  | { ok: false; definitive: boolean; error: string; attempt: number; unanswered: Unanswered | null };

export type AttemptState = { refusedAttempts: number; unanswered?: Unanswered | null } | undefined;

export type AttemptPlan = {
  keyOf: (attempt: number) => string;
  /** The provider's record of the move, made under any of the application's keys. */
  find: () => Promise<{ id: string } | undefined>;
  make: (idempotencyKey: string) => Promise<{ id: string }>;
  now: () => number;
};

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function attemptOnce(previous: AttemptState, plan: AttemptPlan): Promise<Attempted> {
  let attempt = previous?.refusedAttempts ?? 0;
  const last = previous?.unanswered ?? null;
  if (last) {
    let found: { id: string } | undefined;
    try {
      found = await plan.find();
    } catch (err) {
      // Still no way to know: nothing is sent, the next try asks again.
      return { ok: false, definitive: false, error: messageOf(err), attempt, unanswered: last };
    }
    if (found) return { ok: true, id: found.id, attempt, found: true };
    if (last.status !== null && last.status >= 500 && last.key === plan.keyOf(attempt)) attempt += 1;
  }
  const key = plan.keyOf(attempt);
  try {
    const made = await plan.make(key);
    return { ok: true, id: made.id, attempt, found: false };
  } catch (err) {
    const e = err instanceof ProviderError ? err : new ProviderError(messageOf(err), undefined, false);
    if (e.definitive) return { ok: false, definitive: true, error: e.message, attempt: attempt + 1, unanswered: null };
    return {
      ok: false,
      definitive: false,
      error: e.message,
      attempt,
      unanswered: { key, status: e.status ?? null, at: plan.now() },
    };
  }
}

/**
 * The attempt bookkeeping to store after `outcome`, given what the ledger holds now (another
 * instance may have recorded a later attempt meanwhile: attempt numbers only grow).
 */
export function attemptRecord(
  latest: AttemptState,
  outcome: Attempted,
): { refusedAttempts: number; unanswered: Unanswered | null } {
  const stored = latest?.refusedAttempts ?? 0;
  if (stored > outcome.attempt) return { refusedAttempts: stored, unanswered: latest?.unanswered ?? null };
  return { refusedAttempts: outcome.attempt, unanswered: outcome.ok ? null : outcome.unanswered };
}
