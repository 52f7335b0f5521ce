import { SYSTEM_ACTOR } from '../../shared/application-machine';
import type { Store, Stored } from '../store/store';
import type { TimerJob } from '../timers/scheduler';
import { lockKey, type Payments } from './payments';
import { decideMove, settle, settleLocked } from './settle';

/** A settlement whose provider calls got no answer is taken up again after this long. */
export const SETTLEMENT_RETRY_AFTER_MS = 60_000;

/** Applications in one of the states the server looks after (sync-server/indexes.ts `workState`). */
export function applicationsIn(store: Pick<Store, 'byIndex'>, status: string): Stored<'applications'>[] {
  return store.byIndex('applications', 'workState', status).filter((a) => !a._deleted && a.status === status);
}

/**
 * Automatic release (issue 15): delivered work the buyer leaves unanswered until its stored
 * `autoReleaseAt` is paid out, exactly once. Due keys come from the stored dates, so a restart
 * loses nothing; the claim is the machine's AUTO_RELEASE as one decision, which an approval, a
 * change request or a dispute that got there first refuses.
 */
export function autoReleaseJob(p: Payments): TimerJob {
  return {
    name: 'auto-release',
    due: (store, now) =>
      applicationsIn(store, 'DELIVERED')
        .filter((a) => typeof a.autoReleaseAt === 'number' && a.autoReleaseAt <= now)
        .map((a) => a.id),
    fire: (id) =>
      p.lock.run(lockKey.application(id), async () => {
        const claimed = await decideMove(p, id, SYSTEM_ACTOR, { type: 'AUTO_RELEASE' });
        // Answered, disputed or released elsewhere first: nothing to do. A zero budget completes at once.
        if (!claimed.ok || claimed.application.status !== 'SETTLING') return;
        await settleLocked(p, id);
      }),
  };
}

/**
 * Settlements left without the provider's answer (a timeout, a crash between a provider call and
 * its record) are continued with the same idempotency keys, so nothing moves twice.
 */
export function settlementRecoveryJob(p: Payments): TimerJob {
  return {
    name: 'settlements',
    due: (store, now) =>
      applicationsIn(store, 'SETTLING')
        .filter((a) => a.updatedAt <= now - SETTLEMENT_RETRY_AFTER_MS)
        .map((a) => a.id),
    fire: async (id) => {
      await settle(p, id);
    },
  };
}
