import type { NotificationDraft } from '../../shared/application-machine';
import { notificationWrites } from '../domain/notifications';
import { stamp } from '../domain/documents';
import { ledger, ledgerWrite, type TransferEntry } from './ledger';
import { lockKey, type Payments } from './payments';
import { attemptOnce, attemptRecord } from './attempts';
import { idempotencyKeys } from './provider';

export type TransferOutcome =
  { ok: true; transferId: string; attempt: number } | { ok: false; definitive: boolean; error: string };

/**
 * Sends the freelancer's share of one application, once: keys derived from the application and
 * the attempt, and a try after one that got no answer asks the provider first (attempts.ts), so
 * however often this runs (double clicks, a retry after a crash or a 5xx, a release racing a
 * completion on another instance) the provider makes one transfer. A failed try is recorded on
 * the application's transfer entry as one decision; a transfer made is the caller's to record
 * (with `attempt`, the key's number).
 */
export async function transferOnce(p: Payments, t: TransferEntry, destination: string): Promise<TransferOutcome> {
  const id = t.applicationId;
  const outcome = await attemptOnce(t, {
    keyOf: (attempt) => idempotencyKeys.transfer(id, attempt),
    find: () => p.provider.findTransfer({ transferGroup: t.transferGroup, applicationId: id, amount: t.amount }),
    make: (key) =>
      p.provider.createTransfer(
        {
          amount: t.amount,
          currency: t.currency,
          destination,
          transferGroup: t.transferGroup,
          ...(t.sourceTransaction ? { sourceTransaction: t.sourceTransaction } : {}),
          metadata: { applicationId: id, freelancerId: t.freelancerId },
        },
        key,
      ),
    now: p.ctx.now,
  });
  if (outcome.ok) return { ok: true, transferId: outcome.id, attempt: outcome.attempt };
  p.ctx.log(`Transfer for application ${id} failed`, outcome.error);
  const now = p.ctx.now();
  await p.ctx.store.transaction((read) => {
    const latest = ledger.transfer(read, id);
    if (latest?.status === 'sent') return { writes: [], value: undefined };
    return {
      writes: [
        ledgerWrite({
          ...t,
          ...(latest ? { status: latest.status, createdAt: latest.createdAt } : {}),
          ...attemptRecord(latest, outcome),
          lastError: outcome.error,
          updatedAt: stamp(now, latest),
        }),
      ],
      value: undefined,
    };
  });
  return { ok: false, definitive: outcome.definitive, error: outcome.error };
}

/**
 * Releases every payout held for a freelancer whose payout account can now receive them
 * (docs/architecture.md: "the payout is held in the ledger, and it is released when their onboarding
 * completes"). Returns how many were sent; one that fails stays held for the next release.
 */
export async function releaseHeldPayouts(p: Payments, freelancerId: string, destination: string): Promise<number> {
  let sent = 0;
  for (const held of ledger.heldFor(p.ctx.store, freelancerId)) {
    const released = await p.lock.run(lockKey.application(held.applicationId), async () => {
      const current = ledger.transfer(p.ctx.store, held.applicationId);
      if (!current || current.status !== 'held') return false;
      // A settlement still under way (or refused) owns its transfer: only settled work's payout waits here.
      const work = p.ctx.store.get('applications', held.applicationId);
      if (work?.status !== 'COMPLETED' && work?.status !== 'SPLIT') return false;
      const outcome = await transferOnce(p, current, destination);
      if (!outcome.ok) return false;
      const now = p.ctx.now();
      // Sent once: another instance releasing the same payout got the same transfer (same key)
      // and whichever records it second finds it sent.
      const { value: recorded } = await p.ctx.store.transaction((read) => {
        const latest = ledger.transfer(read, held.applicationId);
        if (!latest || latest.status !== 'held') return { writes: [], value: false };
        const application = read.get('applications', held.applicationId);
        const gigTitle = typeof application?.gigTitle === 'string' ? application.gigTitle : '';
        const note: NotificationDraft = {
          userId: freelancerId,
          type: 'GIG_COMPLETED',
          message: `Your payout for "${gigTitle}" is on its way.`,
          applicationId: held.applicationId,
          ...(typeof application?.gigId === 'string' ? { gigId: application.gigId } : {}),
          gigTitle,
          amount: latest.amount,
          currency: latest.currency,
        };
        return {
          writes: [
            ledgerWrite({
              ...latest,
              status: 'sent',
              destination,
              transferId: outcome.transferId,
              sentAt: now,
              refusedAttempts: Math.max(latest.refusedAttempts, outcome.attempt),
              unanswered: null,
              lastError: null,
              updatedAt: stamp(now, latest),
            }),
            ...notificationWrites([note], now),
          ],
          value: true,
        };
      });
      if (!recorded) return false;
      return true;
    });
    if (released) sent += 1;
  }
  return sent;
}
