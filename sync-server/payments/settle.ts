import { SYSTEM_ACTOR, transition, type Actor, type ApplicationEvent } from '../../shared/application-machine';
import { settlementAmounts } from '../../shared/money';
import { WORK_PAYMENT_MESSAGES as W } from '../../shared/payment-messages';
import { workSettings } from '../config';
import { stamp } from '../domain/documents';
import { gigRefOf } from '../domain/links';
import { notificationWrites } from '../domain/notifications';
import { HttpError, notFound } from '../http/errors';
import { reopenings } from '../policies/hiring';
import { readCurrent, type DecisionReader, type DocWrite, type Stored } from '../store/store';
import { ledger, ledgerId, ledgerWrite, type RefundEntry, type TransferEntry } from './ledger';
import { PAYMENT_MESSAGES as M } from './messages';
import { lockKey, usableAccountId, type Payments } from './payments';
import { recordFailedTransfer, sendTransfer } from './payouts';
import { idempotencyKeys, ProviderError } from './provider';

/**
 * Settling the buyer's money (docs/decisions/031-money-nobody-strands.md). A move that decides
 * where the money goes (Mark as Complete, "Approve and pay", the automatic release, a freelancer
 * cancelling paid work, an operator's resolution, a payment that arrived after cancelling) first
 * claims it: one decision moves the application to SETTLING with the amounts decided, so of
 * several moves racing on one application (on any instances) exactly one wins. Then the provider
 * calls run, each with an idempotency key derived from the application and the attempt, and a last
 * decision records the outcome (COMPLETED, REFUNDED or SPLIT) with its ledger entries. A refusal
 * by the provider records SETTLEMENT_FAILED (nothing moved; it can be tried again); a call that
 * got no answer leaves SETTLING, continued by the next try or the recovery timer with the same keys.
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

  if (s.refund > 0) {
    if (!charge) return refuseSettlement(p, app, 'No payment is recorded for this application');
    const refused = await refund(p, app, charge, s.refund, amounts.refundFee);
    if (refused) return refused;
  }

  let payout: SettleOutcome['payout'] = 'none';
  let transfer: TransferEntry | undefined;
  if (s.toFreelancer > 0) {
    const previous = ledger.transfer(store, applicationId);
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
        throw new HttpError(502, s.by === 'buyer' ? M.transferFailed : W.providerNoAnswer);
      }
    }
    if (destination && connected) {
      const sent = await sendTransfer(p, transfer, destination);
      if (!sent.ok) {
        await recordFailedTransfer(p, transfer, sent);
        if (sent.definitive) return refuseSettlement(p, app, sent.error);
        throw new HttpError(502, s.by === 'buyer' ? M.transferFailed : W.providerNoAnswer);
      }
      Object.assign(transfer, { status: 'sent', destination, transferId: sent.transferId, sentAt: p.ctx.now() });
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
      if (transfer) {
        const latest = ledger.transfer(read, applicationId);
        writes.push(
          ledgerWrite({ ...transfer, refusedAttempts: latest?.refusedAttempts ?? 0, updatedAt: stamp(now, latest) }),
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

/**
 * The refund part of a settlement: sent once (an earlier try's refund is found in the ledger), a
 * refusal recorded and answered as SETTLEMENT_FAILED, no answer left for the next try.
 */
async function refund(
  p: Payments,
  app: Stored<'applications'>,
  charge: NonNullable<ReturnType<typeof ledger.charge>>,
  amount: number,
  fee: number,
): Promise<SettleOutcome | undefined> {
  const { store } = p.ctx;
  const id = app.id;
  const previous = ledger.refund(store, id);
  if (previous?.status === 'sent') return undefined;
  const attempt = previous?.refusedAttempts ?? 0;
  const entry: RefundEntry = {
    id: ledgerId.refund(id),
    kind: 'refund',
    applicationId: id,
    buyerId: app.creatorId,
    amount,
    fee,
    currency: app.currency,
    status: 'pending',
    chargeId: charge.chargeId,
    refundId: null,
    refusedAttempts: attempt,
    lastError: null,
    sentAt: null,
    createdAt: previous?.createdAt ?? p.ctx.now(),
    updatedAt: p.ctx.now(),
  };
  let outcome: { ok: true; refundId: string } | { ok: false; definitive: boolean; error: string };
  try {
    const made = await p.provider.createRefund(
      {
        ...(charge.chargeId ? { chargeId: charge.chargeId } : {}),
        ...(charge.paymentIntentId ? { paymentIntentId: charge.paymentIntentId } : {}),
        amount,
        currency: app.currency,
        metadata: { applicationId: id, buyerId: app.creatorId },
      },
      idempotencyKeys.refund(id, attempt),
    );
    outcome = { ok: true, refundId: made.id };
  } catch (err) {
    p.ctx.log(`Refund for application ${id} failed`, err instanceof Error ? err.message : err);
    outcome = {
      ok: false,
      definitive: err instanceof ProviderError && err.definitive,
      error: err instanceof Error ? err.message : String(err),
    };
  }
  const now = p.ctx.now();
  // Recorded as one decision: a refund sent is kept (another instance's, with the same key, is
  // the same refund); a refusal of this attempt is counted once, moving the next try to a new key.
  await store.transaction((read) => {
    const latest = ledger.refund(read, id);
    if (latest?.status === 'sent') return { writes: [], value: undefined };
    const counted = (latest?.refusedAttempts ?? 0) > attempt;
    const next: RefundEntry = outcome.ok
      ? { ...entry, status: 'sent', refundId: outcome.refundId, sentAt: now, lastError: null }
      : {
          ...entry,
          refusedAttempts: counted ? latest!.refusedAttempts : attempt + (outcome.definitive ? 1 : 0),
          lastError: outcome.error,
        };
    return { writes: [ledgerWrite({ ...next, updatedAt: stamp(now, latest) })], value: undefined };
  });
  if (outcome.ok) return undefined;
  if (outcome.definitive) return refuseSettlement(p, app, outcome.error);
  throw new HttpError(502, W.providerNoAnswer);
}

/** The provider refused: SETTLEMENT_FAILED (or, for the buyer's own release, back to where it was). */
async function refuseSettlement(p: Payments, app: Stored<'applications'>, failure: string): Promise<SettleOutcome> {
  const moved = await decideMove(p, app.id, SYSTEM_ACTOR, { type: 'SETTLEMENT_REFUSED', failure });
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
