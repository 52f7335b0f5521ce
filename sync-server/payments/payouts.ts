import type { NotificationDraft } from '../../shared/application-machine';
import { notificationWrites } from '../domain/notifications';
import { stamp } from '../domain/documents';
import { ledger, ledgerWrite, type TransferEntry } from './ledger';
import { lockKey, type Payments } from './payments';
import { idempotencyKeys, ProviderError } from './provider';

export type TransferOutcome = { ok: true; transferId: string } | { ok: false; definitive: boolean; error: string };

/**
 * Records a failed transfer attempt on the application's transfer entry, as one decision: a
 * refusal (definitive) moves the next try to a new idempotency key, counted once however many
 * instances saw the same refusal of the same attempt; a transfer already sent is left alone.
 */
export async function recordFailedTransfer(
  p: Payments,
  attempt: TransferEntry,
  outcome: { definitive: boolean; error: string },
): Promise<void> {
  const now = p.ctx.now();
  await p.ctx.store.transaction((read) => {
    const latest = ledger.transfer(read, attempt.applicationId);
    if (latest?.status === 'sent') return { writes: [], value: undefined };
    const base = latest ?? attempt;
    // Another instance already counted this attempt's refusal: its next key stands.
    const counted = base.refusedAttempts > attempt.refusedAttempts;
    return {
      writes: [
        ledgerWrite({
          ...attempt,
          ...(latest ? { status: latest.status, createdAt: latest.createdAt } : {}),
          refusedAttempts: counted ? base.refusedAttempts : attempt.refusedAttempts + (outcome.definitive ? 1 : 0),
          lastError: outcome.error,
          updatedAt: stamp(now, latest),
        }),
      ],
      value: undefined,
    };
  });
}

/**
 * Sends the freelancer's share of one application. The idempotency key is the application's
 * transfer key, so however often this runs (double clicks, a retry after a crash, a release racing
 * a completion on another instance) the provider makes at most one transfer per attempt number.
 */
export async function sendTransfer(
  p: Payments,
  t: Pick<
    TransferEntry,
    'applicationId' | 'freelancerId' | 'amount' | 'currency' | 'transferGroup' | 'sourceTransaction' | 'refusedAttempts'
  >,
  destination: string,
): Promise<TransferOutcome> {
  try {
    const { id } = await p.provider.createTransfer(
      {
        amount: t.amount,
        currency: t.currency,
        destination,
        transferGroup: t.transferGroup,
        ...(t.sourceTransaction ? { sourceTransaction: t.sourceTransaction } : {}),
        metadata: { applicationId: t.applicationId, freelancerId: t.freelancerId },
      },
      idempotencyKeys.transfer(t.applicationId, t.refusedAttempts),
    );
    return { ok: true, transferId: id };
  } catch (err) {
    p.ctx.log(`Transfer for application ${t.applicationId} failed`, err instanceof Error ? err.message : err);
    return {
      ok: false,
      definitive: err instanceof ProviderError && err.definitive,
      error: err instanceof Error ? err.message : String(err),
    };
  }
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
      const outcome = await sendTransfer(p, current, destination);
      if (!outcome.ok) {
        await recordFailedTransfer(p, current, outcome);
        return false;
      }
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
