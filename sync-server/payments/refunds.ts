import { stamp } from '../domain/documents';
import type { Stored } from '../store/store';
import { attemptOnce, attemptRecord } from './attempts';
import { ledger, ledgerId, ledgerWrite, type ChargeEntry, type RefundEntry } from './ledger';
import type { Payments } from './payments';
import { idempotencyKeys } from './provider';

export type RefundOutcome = { ok: true } | { ok: false; definitive: boolean; error: string };

/**
 * The refund part of a settlement (decision 031): made once. A refund already recorded is not
 * made again; one whose call got no answer is looked for at the provider first (attempts.ts). The
 * outcome is recorded as one decision: a refund made is kept (another instance's, with the same
 * key or found the same way, is the same refund); a refusal moves the next try to a new key.
 */
export async function refundOnce(
  p: Payments,
  app: Stored<'applications'>,
  charge: ChargeEntry,
  amount: number,
  fee: number,
): Promise<RefundOutcome> {
  const { store } = p.ctx;
  const id = app.id;
  const previous = ledger.refund(store, id);
  if (previous?.status === 'sent') return { ok: true };
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
    refusedAttempts: previous?.refusedAttempts ?? 0,
    unanswered: previous?.unanswered ?? null,
    lastError: null,
    sentAt: null,
    createdAt: previous?.createdAt ?? p.ctx.now(),
    updatedAt: p.ctx.now(),
  };
  const of = {
    ...(charge.chargeId ? { chargeId: charge.chargeId } : {}),
    ...(charge.paymentIntentId ? { paymentIntentId: charge.paymentIntentId } : {}),
  };
  const outcome = await attemptOnce(previous, {
    keyOf: (attempt) => idempotencyKeys.refund(id, attempt),
    find: () => p.provider.findRefund({ ...of, applicationId: id, amount }),
    make: (key) =>
      p.provider.createRefund(
        { ...of, amount, currency: app.currency, metadata: { applicationId: id, buyerId: app.creatorId } },
        key,
      ),
    now: p.ctx.now,
  });
  if (!outcome.ok) p.ctx.log(`Refund for application ${id} failed`, outcome.error);
  const now = p.ctx.now();
  await store.transaction((read) => {
    const latest = ledger.refund(read, id);
    if (latest?.status === 'sent') return { writes: [], value: undefined };
    const attempts = attemptRecord(latest, outcome);
    const next: RefundEntry = outcome.ok
      ? { ...entry, ...attempts, status: 'sent', refundId: outcome.id, sentAt: now, lastError: null }
      : { ...entry, ...attempts, lastError: outcome.error };
    return { writes: [ledgerWrite({ ...next, updatedAt: stamp(now, latest) })], value: undefined };
  });
  return outcome.ok ? { ok: true } : { ok: false, definitive: outcome.definitive, error: outcome.error };
}
