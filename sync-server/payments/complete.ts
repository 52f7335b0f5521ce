import { MESSAGES, normalizeStatus, transition } from '../../shared/application-machine';
import { payoutSplit } from '../../shared/money';
import { badRequest, conflict, forbidden, HttpError } from '../http/errors';
import { gigRefOf } from '../domain/links';
import { notificationWrites } from '../domain/notifications';
import { stamp } from '../domain/documents';
import type { DocWrite, Stored } from '../store/store';
import { ledger, ledgerId, ledgerWrite, type TransferEntry } from './ledger';
import { PAYMENT_MESSAGES as M } from './messages';
import { buyersApplication, lockKey, usableAccountId, viaProvider, type Payments } from './payments';
import { recordFailedTransfer, sendTransfer } from './payouts';

export type CompletionResult = {
  success: true;
  /** sent: transferred now; held: waiting for the freelancer's payout account; none: nothing to pay. */
  payout: 'sent' | 'held' | 'none';
  amount: number;
  alreadyCompleted?: true;
};

/**
 * POST /api/gigs/complete-gig (docs/architecture.md "Mark as Complete"): the gig's creator completes
 * paid work in progress; 90% of the base goes to the freelancer's payout account, funded by the
 * buyer's charge, then the application becomes COMPLETED with GIG_COMPLETED to the freelancer.
 * Without an account able to receive it the work completes anyway and the payout is held.
 * One at a time per application, and a second call answers the first one's outcome.
 */
export async function completeGig(
  p: Payments,
  actor: Stored<'users'>,
  gigId: string,
  applicationId: string,
): Promise<CompletionResult> {
  return p.lock.run(lockKey.application(applicationId), async () => {
    const { store } = p.ctx;
    const app = buyersApplication(p, applicationId, actor.id, M.onlyBuyerCompletes);
    const gig = gigRefOf(store, app.gigId);
    if (app.gigId !== gigId) throw badRequest(M.wrongGig);
    const base = typeof app.finalBudget === 'number' ? app.finalBudget : 0;
    const split = payoutSplit(base);
    /** A second completion (a double click, another instance) answers the first one's outcome. */
    const completedBefore = (): CompletionResult => ({
      success: true,
      payout: base > 0 ? (ledger.transfer(store, applicationId)?.status === 'sent' ? 'sent' : 'held') : 'none',
      amount: split.freelancer,
      alreadyCompleted: true,
    });
    if (normalizeStatus(app.status) === 'COMPLETED') return completedBefore();

    const plan = (now: number) =>
      transition({
        actor: { id: actor.id, name: actor.name },
        application: store.get('applications', applicationId)!,
        gig,
        event: { type: 'COMPLETE' },
        now,
      });
    const check = plan(p.ctx.now());
    if (!check.ok) throw check.code === 'forbidden' ? forbidden(check.error) : conflict(check.error);
    const charge = ledger.charge(store, applicationId);
    if (base > 0 && !charge) throw conflict(MESSAGES.unpaid);

    const currency = app.currency;
    const previous = ledger.transfer(store, applicationId);
    const transfer: TransferEntry = {
      id: ledgerId.transfer(applicationId),
      kind: 'transfer',
      applicationId,
      freelancerId: app.applicantId,
      amount: split.freelancer,
      currency,
      status: 'held',
      transferGroup: applicationId,
      sourceTransaction: charge?.chargeId ?? null,
      destination: null,
      transferId: null,
      refusedAttempts: previous?.refusedAttempts ?? 0,
      lastError: null,
      sentAt: null,
      createdAt: previous?.createdAt ?? p.ctx.now(),
      updatedAt: p.ctx.now(),
    };

    let payout: CompletionResult['payout'] = 'none';
    if (base > 0) {
      const freelancer = store.get('users', app.applicantId);
      const destination = usableAccountId(p, freelancer?.stripeAccountId);
      const account = destination
        ? await viaProvider(p, M.transferFailed, () => p.provider.retrieveAccount(destination))
        : undefined;
      if (destination && account?.state === 'connected') {
        const outcome = await sendTransfer(p, transfer, destination);
        if (!outcome.ok) {
          // Not completed: the buyer may try again. A refusal moves the next try to a new key.
          await recordFailedTransfer(p, transfer, outcome);
          throw new HttpError(502, M.transferFailed);
        }
        Object.assign(transfer, { status: 'sent', destination, transferId: outcome.transferId, sentAt: p.ctx.now() });
        payout = 'sent';
      } else {
        payout = 'held';
      }
    }

    // One decision on the application as it is now: on several instances a second completion
    // (its transfer answered by the same idempotency key) finds it COMPLETED and writes nothing.
    const now = p.ctx.now();
    const { value: outcome } = await store.transaction<'already' | 'completed' | { error: string }>((read) => {
      const current = read.get('applications', applicationId)!;
      if (normalizeStatus(current.status) === 'COMPLETED') return { writes: [], value: 'already' as const };
      const result = transition({
        actor: { id: actor.id, name: actor.name },
        application: current,
        gig: gigRefOf(read, current.gigId),
        event: { type: 'COMPLETE' },
        now,
      });
      if (!result.ok) return { writes: [], value: { error: result.error } };
      const notifications = result.notifications.map((n) =>
        payout === 'held' ? { ...n, message: `${n.message}. Set up payouts in Settings to receive your payment.` } : n,
      );
      const writes: DocWrite[] = [
        {
          collection: 'applications',
          doc: { ...current, ...result.changes, updatedAt: stamp(now, current) } as DocWrite['doc'],
        },
        ...notificationWrites(notifications, now),
      ];
      if (base > 0) {
        const latest = ledger.transfer(read, applicationId);
        writes.push(
          ledgerWrite({ ...transfer, refusedAttempts: latest?.refusedAttempts ?? 0, updatedAt: stamp(now, latest) }),
          ledgerWrite({
            id: ledgerId.platformFee(applicationId),
            kind: 'platform_fee',
            applicationId,
            amount: split.platformFee,
            currency,
            createdAt: now,
            updatedAt: now,
          }),
        );
      }
      return { writes, value: 'completed' as const };
    });
    if (outcome === 'already') return completedBefore();
    if (outcome !== 'completed') throw conflict(outcome.error);
    return { success: true, payout, amount: split.freelancer };
  });
}
