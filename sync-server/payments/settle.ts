import { SYSTEM_ACTOR, transition, type Actor, type ApplicationEvent } from '../../shared/application-machine';
import { settlementAmounts } from '../../shared/money';
import { workSettings } from '../config';
import { stamp } from '../domain/documents';
import { gigRefOf } from '../domain/links';
import { notificationWrites } from '../domain/notifications';
import { notFound } from '../http/errors';
import { reopenings } from '../policies/hiring';
import { readCurrent, type DecisionReader, type DocWrite, type Stored } from '../store/store';
import { ledger, ledgerId, ledgerWrite, type TransferEntry } from './ledger';
import { PAYMENT_MESSAGES as M } from './messages';
import { lockKey, usableAccountId, type Payments } from './payments';
import { transferOnce } from './payouts';
import { refundOnce } from './refunds';

/**
 * Settling the buyer's money (docs/decisions/031-money-nobody-strands.md). A move that decides
 * where the money goes (Mark as Complete, "Approve and pay", the automatic release, a freelancer
 * cancelling paid work, an operator's resolution, a payment that arrived after cancelling) first
 * claims it: one decision moves the application to SETTLING with the amounts decided, so of
 * several moves racing on one application (on any instances) exactly one wins. Then the provider
 * calls run, each with an idempotency key derived from the application and the attempt, and a last
 * decision records the outcome (COMPLETED, REFUNDED or SPLIT) with its ledger entries. A refusal
 * by the provider records SETTLEMENT_FAILED (nothing moved; it can be tried again); a call that
 * got no answer leaves SETTLING (`pending`), continued by the next try or the recovery timer, which
 * first ask the provider whether the money moved (attempts.ts): nothing moves twice, nothing stays
 * stuck behind a key the provider keeps answering with a server error.
 */

export type SettleOutcome = {
  /** settled: final; failed: the provider refused (SETTLEMENT_FAILED); reverted: a refused release went back; pending: no answer yet. */
  outcome: 'settled' | 'failed' | 'reverted' | 'pending';
  application: Stored<'applications'>;
  payout: 'sent' | 'held' | 'none';
  /** Finished before this call (by another request or instance). */
  already: boolean;
};

export type MoveResult =
  | { ok: true; application: Stored<'applications'> }
  | { ok: false; error: string; code: 'forbidden' | 'invalid' | 'missing' };

/**
 * One machine move on the application as it is now, as one decision, with its notifications and
 * the writes `more` adds (ledger entries, the gig's openings) in the same commit.
 */
export async function decideMove(
  p: Payments,
  applicationId: string,
  actor: Actor,
  event: ApplicationEvent,
  more?: (read: DecisionReader, updated: Stored<'applications'>) => DocWrite[],
): Promise<MoveResult> {
  const now = p.ctx.now();
  const settings = workSettings(p.ctx.config);
  const { value } = await p.ctx.store.transaction<MoveResult>((read) => {
    const current = read.get('applications', applicationId);
    if (!current || current._deleted)
      return { writes: [], value: { ok: false, error: M.applicationNotFound, code: 'missing' } };
    const result = transition({
      actor,
      application: current,
      gig: gigRefOf(read, current.gigId),
      event,
      now,
      settings,
    });
    if (!result.ok) return { writes: [], value: result };
    const updated = { ...current, ...result.changes, updatedAt: stamp(now, current) } as Stored<'applications'>;
    const writes: DocWrite[] = [
      { collection: 'applications', doc: updated as DocWrite['doc'] },
      ...notificationWrites(result.notifications, now),
      ...(more?.(read, updated) ?? []),
    ];
    return { writes, value: { ok: true, application: updated } };
  });
  return value;
}

function outcomeOf(app: Stored<'applications'>): SettleOutcome['outcome'] {
  if (app.status === 'COMPLETED' || app.status === 'REFUNDED' || app.status === 'SPLIT') return 'settled';
  if (app.status === 'SETTLEMENT_FAILED') return 'failed';
  if (app.status === 'SETTLING') return 'pending';
  return 'reverted';
}

function payoutOf(read: DecisionReader, app: Stored<'applications'>): SettleOutcome['payout'] {
  const transfer = ledger.transfer(read, app.id);
  if (!transfer) return 'none';
  return transfer.status === 'sent' ? 'sent' : 'held';
}

/** Settles an application's money (see above), one at a time per application in this process. */
export function settle(p: Payments, applicationId: string): Promise<SettleOutcome> {
  return p.lock.run(lockKey.application(applicationId), () => settleLocked(p, applicationId));
}

/** `settle` for a caller already holding the application's lock. */
export async function settleLocked(p: Payments, applicationId: string): Promise<SettleOutcome> {
  const { store } = p.ctx;
  const app = await readCurrent(store, (read) => read.get('applications', applicationId));
  if (!app || app._deleted) throw notFound(M.applicationNotFound);
  if (app.status !== 'SETTLING' || !app.settlement)
    return { outcome: outcomeOf(app), application: app, payout: payoutOf(store, app), already: true };
  const s = app.settlement;
  const charge = ledger.charge(store, applicationId);
  const paid = charge ? { base: charge.base, fee: charge.amount - charge.base } : { base: 0, fee: 0 };
  const amounts = settlementAmounts(paid, Math.min(s.freelancerBase, paid.base));

  const pending: SettleOutcome = { outcome: 'pending', application: app, payout: 'none', already: false };
  if (s.refund > 0) {
    if (!charge) return refuseSettlement(p, app, 'No payment is recorded for this application');
    const refunded = await refundOnce(p, app, charge, s.refund, amounts.refundFee);
    if (!refunded.ok) return refunded.definitive ? refuseSettlement(p, app, refunded.error) : pending;
  }

  let payout: SettleOutcome['payout'] = 'none';
  let transfer: TransferEntry | undefined;
  const previous = ledger.transfer(store, applicationId);
  if (s.toFreelancer > 0 && previous?.status === 'sent') {
    // Made by an earlier try (on any instance) whose outcome was not recorded yet.
    transfer = previous;
    payout = 'sent';
  } else if (s.toFreelancer > 0) {
    const now = p.ctx.now();
    transfer = {
      id: ledgerId.transfer(applicationId),
      kind: 'transfer',
      applicationId,
      freelancerId: app.applicantId,
      amount: s.toFreelancer,
      currency: app.currency,
      status: 'held',
      transferGroup: applicationId,
      sourceTransaction: charge?.chargeId ?? null,
      destination: null,
      transferId: null,
      refusedAttempts: previous?.refusedAttempts ?? 0,
      unanswered: previous?.unanswered ?? null,
      lastError: null,
      sentAt: null,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    const freelancer = store.get('users', app.applicantId);
    const destination = usableAccountId(p, freelancer?.stripeAccountId);
    let connected = false;
    if (destination) {
      try {
        connected = (await p.provider.retrieveAccount(destination)).state === 'connected';
      } catch (err) {
        p.ctx.log(`Payout account ${destination} could not be read`, err instanceof Error ? err.message : err);
        return pending;
      }
    }
    if (destination && connected) {
      const sent = await transferOnce(p, transfer, destination);
      if (!sent.ok) return sent.definitive ? refuseSettlement(p, app, sent.error) : pending;
      Object.assign(transfer, {
        status: 'sent',
        destination,
        transferId: sent.transferId,
        sentAt: p.ctx.now(),
        refusedAttempts: sent.attempt,
        unanswered: null,
      });
      payout = 'sent';
    } else {
      payout = 'held';
    }
  }

  // The outcome, as one decision: another instance that settled it first is found and answered.
  const done = await decideMove(
    p,
    applicationId,
    SYSTEM_ACTOR,
    { type: 'SETTLED', payoutHeld: payout === 'held' },
    (read, updated) => {
      const now = p.ctx.now();
      const writes: DocWrite[] = [];
      const latest = ledger.transfer(read, applicationId);
      // A transfer another try recorded as sent stays sent.
      if (transfer && (latest?.status !== 'sent' || transfer.status === 'sent')) {
        writes.push(
          ledgerWrite({
            ...transfer,
            refusedAttempts: Math.max(latest?.refusedAttempts ?? 0, transfer.refusedAttempts),
            updatedAt: stamp(now, latest),
          }),
        );
      }
      if (amounts.platformFee > 0)
        writes.push(
          ledgerWrite({
            id: ledgerId.platformFee(applicationId),
            kind: 'platform_fee',
            applicationId,
            amount: amounts.platformFee,
            currency: app.currency,
            createdAt: now,
            updatedAt: now,
          }),
        );
      // Refunded work no longer holds its opening: the gig may be open again (decision 014).
      if (updated.status === 'REFUNDED') writes.push(...reopenings(read, updated, now));
      return writes;
    },
  );
  if (!done.ok) {
    const current = (await readCurrent(store, (read) => read.get('applications', applicationId)))!;
    return { outcome: outcomeOf(current), application: current, payout: payoutOf(store, current), already: true };
  }
  return { outcome: 'settled', application: done.application, payout, already: false };
}

/** The provider refused: SETTLEMENT_FAILED (or, for the buyer's own release, back to where it was). */
async function refuseSettlement(p: Payments, app: Stored<'applications'>, failure: string): Promise<SettleOutcome> {
  // A split refunds first: a payout refused after it must not say that nothing moved.
  const refunded = ledger.refund(p.ctx.store, app.id)?.status === 'sent';
  const moved = await decideMove(p, app.id, SYSTEM_ACTOR, { type: 'SETTLEMENT_REFUSED', failure, refunded });
  const current = moved.ok
    ? moved.application
    : (await readCurrent(p.ctx.store, (read) => read.get('applications', app.id)))!;
  return {
    outcome: outcomeOf(current),
    application: current,
    payout: payoutOf(p.ctx.store, current),
    already: !moved.ok,
  };
}
