import { MESSAGES, normalizeStatus } from '../../shared/application-machine';
import { payoutSplit } from '../../shared/money';
import { actorOf } from '../auth/operators';
import { badRequest, conflict, forbidden, HttpError } from '../http/errors';
import { readCurrent, type Stored } from '../store/store';
import { ledger } from './ledger';
import { PAYMENT_MESSAGES as M } from './messages';
import { buyersApplication, lockKey, type Payments } from './payments';
import { decideMove, settleLocked } from './settle';

export type CompletionResult = {
  success: true;
  /**
   * sent: transferred now; held: waiting for the freelancer's payout account; none: nothing to
   * pay; pending: the provider has not answered yet, the work is being settled (SETTLING) and the
   * payout is made by the next try or the recovery timer (answered 202).
   */
  payout: 'sent' | 'held' | 'none' | 'pending';
  amount: number;
  alreadyCompleted?: true;
};

/**
 * POST /api/gigs/complete-gig (docs/architecture.md "Mark as Complete", and "Approve and pay" on
 * delivered work, decision 031): the gig's creator completes paid work in progress or delivered;
 * 90% of the base goes to the freelancer's payout account, funded by the buyer's charge, then the
 * application becomes COMPLETED with GIG_COMPLETED to the freelancer. Without an account able to
 * receive it the work completes anyway and the payout is held. The money is claimed first
 * (SETTLING, payments/settle.ts), so a dispute or the automatic release racing it gets nothing; a
 * transfer the provider refuses puts the work back as it was ('Payment transfer was not
 * successful'); one it has not answered yet leaves the work SETTLING and answers `pending`. A
 * second call answers the first one's outcome.
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
    if (app.gigId !== gigId) throw badRequest(M.wrongGig);
    const base = typeof app.finalBudget === 'number' ? app.finalBudget : 0;
    const split = payoutSplit(base);
    const already = (): CompletionResult => {
      const transfer = ledger.transfer(store, applicationId);
      return {
        success: true,
        payout: base > 0 ? (transfer?.status === 'sent' ? 'sent' : 'held') : 'none',
        amount: split.freelancer,
        alreadyCompleted: true,
      };
    };
    if (normalizeStatus(app.status) === 'COMPLETED') return already();

    // A release the buyer already claimed (a retry, or another instance's request) is continued.
    const buyersRelease = (a: Stored<'applications'> | undefined) =>
      a?.status === 'SETTLING' && a.settlement?.kind === 'release' && a.settlement.by === 'buyer';
    if (!buyersRelease(app)) {
      if (base > 0 && !ledger.charge(store, applicationId)) throw conflict(MESSAGES.unpaid);
      const claimed = await decideMove(p, applicationId, actorOf(p.ctx, actor), { type: 'COMPLETE' });
      if (!claimed.ok) {
        const current = await readCurrent(store, (read) => read.get('applications', applicationId));
        if (current && normalizeStatus(current.status) === 'COMPLETED') return already();
        if (!buyersRelease(current))
          throw claimed.code === 'forbidden' ? forbidden(claimed.error) : conflict(claimed.error);
      } else if (claimed.application.status === 'COMPLETED') {
        // Work with a final budget of 0 holds no money: it is completed at once.
        return { success: true, payout: 'none', amount: split.freelancer };
      }
    }

    const settled = await settleLocked(p, applicationId);
    if (settled.outcome === 'settled' && settled.application.status === 'COMPLETED')
      return settled.already ? already() : { success: true, payout: settled.payout, amount: split.freelancer };
    // Not answered yet: the money is claimed for the freelancer and will be paid out (not a failure).
    if (settled.outcome === 'pending') return { success: true, payout: 'pending', amount: split.freelancer };
    // Refused: the work is back as it was.
    throw new HttpError(502, M.transferFailed);
  });
}
