import { normalizeStatus, SYSTEM_ACTOR, transition } from '../../shared/application-machine';
import { FEES } from '../../shared/constants';
import { buyerCheckout, formatMinorPlain } from '../../shared/money';
import type { PaymentConfirmation } from '../../shared/payment-messages';
import type { Application } from '../../shared/schemas/application';
import { badRequest, conflict, HttpError } from '../http/errors';
import { gigRefOf } from '../domain/links';
import { notificationWrites } from '../domain/notifications';
import { stamp } from '../domain/documents';
import type { DocWrite, Stored } from '../store/store';
import { ledger, ledgerId, ledgerWrite, type ChargeEntry, type CheckoutEntry } from './ledger';
import { PAYMENT_MESSAGES as M } from './messages';
import { buyersApplication, lockKey, viaProvider, type Payments } from './payments';
import { idempotencyKeys, type CheckoutSession } from './provider';
import { settleLocked } from './settle';

export type Confirmation = PaymentConfirmation;

/** The success page's display-only query (docs/product.md §2); Stripe fills in {CHECKOUT_SESSION_ID}. */
export function successUrl(origin: string, app: Application, total: number): string {
  const query = new URLSearchParams({
    gigId: app.gigId,
    applicationId: app.id,
    amount: formatMinorPlain(total),
    title: app.gigTitle,
    currency: app.currency,
  });
  return `${origin}/payment/success?${query.toString()}&session_id={CHECKOUT_SESSION_ID}`;
}

/**
 * POST /api/payments/checkout: a Checkout Session for the final budget plus the 3% buyer fee as a
 * line of its own, computed here from the stored application (never from the client). An open
 * session is reused; one already paid is confirmed instead of charging again; an expired one is
 * replaced under the next attempt's idempotency key.
 */
export async function startCheckout(
  p: Payments,
  buyer: Stored<'users'>,
  applicationId: string,
  origin: string,
): Promise<{ url: string; sessionId: string }> {
  return p.lock.run(lockKey.application(applicationId), async () => {
    const { store } = p.ctx;
    const app = buyersApplication(p, applicationId, buyer.id);
    if (normalizeStatus(app.status) !== 'PENDING_PAYMENT') throw conflict(M.invalidStatus);
    const base = app.finalBudget ?? 0;
    if (!(base > 0)) throw badRequest(M.nothingToPay);
    const amounts = buyerCheckout(base);
    const success = successUrl(origin, app, amounts.total);

    const previous = ledger.checkoutsOf(store, app.id);
    const last = previous.at(-1);
    if (last && last.status === 'open') {
      const session = await viaProvider(p, M.checkoutFailed, () => p.provider.retrieveCheckoutSession(last.sessionId));
      if (session?.paid) {
        await confirmLocked(p, app.id, session.id, 'confirm');
        return { url: success.replace('{CHECKOUT_SESSION_ID}', session.id), sessionId: session.id };
      }
      if (session && session.status === 'open' && session.amountTotal === amounts.total)
        return { url: session.url || last.url, sessionId: session.id };
      const now = p.ctx.now();
      await store.transaction((read) => {
        const current = ledger.checkout(read, last.sessionId);
        return {
          writes:
            current?.status === 'open'
              ? [ledgerWrite({ ...current, status: 'expired', updatedAt: stamp(now, current) })]
              : [],
          value: undefined,
        };
      });
    }

    const attempt = previous.length;
    const idempotencyKey = idempotencyKeys.checkout(app.id, attempt);
    const lineItems = [{ name: app.gigTitle || 'Gig', amount: amounts.base }];
    // A fee that rounds to zero (a budget under 0.17) gets no line: providers refuse zero-amount lines.
    if (amounts.fee > 0)
      lineItems.push({ name: `Service fee (${FEES.buyerServiceFeeRate * 100}%)`, amount: amounts.fee });
    const session = await viaProvider(p, M.checkoutFailed, () =>
      p.provider.createCheckoutSession(
        {
          currency: app.currency,
          lineItems,
          metadata: {
            applicationId: app.id,
            gigId: app.gigId,
            buyerId: app.creatorId,
            freelancerId: app.applicantId,
            base: String(amounts.base),
            fee: String(amounts.fee),
          },
          transferGroup: app.id,
          successUrl: success,
          cancelUrl: `${origin}/basket`,
          ...(buyer.email ? { customerEmail: buyer.email } : {}),
        },
        idempotencyKey,
      ),
    );
    const now = p.ctx.now();
    const entry: CheckoutEntry = {
      id: ledgerId.checkout(session.id),
      kind: 'checkout',
      applicationId: app.id,
      sessionId: session.id,
      buyerId: app.creatorId,
      base: amounts.base,
      fee: amounts.fee,
      total: amounts.total,
      currency: app.currency,
      status: 'open',
      attempt,
      url: session.url,
      idempotencyKey,
      createdAt: now,
      updatedAt: now,
    };
    // Another instance asking at once used the same idempotency key, so got this same session:
    // whichever records it second leaves the first record as it is.
    await store.transaction((read) => ({
      writes: ledger.checkout(read, session.id) ? [] : [ledgerWrite(entry)],
      value: undefined,
    }));
    return { url: session.url, sessionId: session.id };
  });
}

function confirmationOf(app: Stored<'applications'>, charge: ChargeEntry): Confirmation {
  return {
    confirmed: true,
    applicationId: app.id,
    gigId: app.gigId,
    gigTitle: app.gigTitle,
    sessionId: charge.sessionId,
    status: app.status,
    amount: charge.amount,
    base: charge.base,
    fee: charge.amount - charge.base,
    currency: charge.currency,
    paymentConfirmedAt: charge.paymentConfirmedAt,
  };
}

/** The provider's session matches what this server asked for, for this application and buyer. */
function matches(session: CheckoutSession, entry: CheckoutEntry, app: Application): boolean {
  const expected = buyerCheckout(app.finalBudget ?? 0).total;
  return (
    session.id === entry.sessionId &&
    session.metadata.applicationId === app.id &&
    session.metadata.buyerId === app.creatorId &&
    entry.buyerId === app.creatorId &&
    session.amountTotal === expected &&
    entry.total === expected &&
    session.currency === app.currency
  );
}

/**
 * PENDING_PAYMENT → IN_PROGRESS once the provider says this session is paid (docs/architecture.md: the
 * success page's query is display only). Records the charge and the buyer fee in the same commit.
 * Confirming the same session again answers the same confirmation, whichever path came first.
 * `buyerId` is the signed-in user on the /confirm route; undefined for the webhook.
 */
export async function confirmPayment(
  p: Payments,
  applicationId: string,
  sessionId: string,
  by: ChargeEntry['confirmedBy'],
  buyerId?: string,
): Promise<Confirmation> {
  return p.lock.run(lockKey.application(applicationId), async () => {
    buyersApplication(p, applicationId, buyerId);
    return confirmLocked(p, applicationId, sessionId, by);
  });
}

async function confirmLocked(
  p: Payments,
  applicationId: string,
  sessionId: string,
  by: ChargeEntry['confirmedBy'],
): Promise<Confirmation> {
  const { store } = p.ctx;
  const app = buyersApplication(p, applicationId);
  const charge = ledger.charge(store, applicationId);
  if (charge) {
    // (A payment refunded because it came after the offer was cancelled confirms nothing.)
    if (charge.sessionId === sessionId && app.settlement?.by !== 'server') return confirmationOf(app, charge);
    throw conflict(M.invalidStatus);
  }
  // A payment that arrives after the accepted offer was cancelled is refunded in full (decision 031).
  const late = normalizeStatus(app.status) === 'CANCELLED' && (app.finalBudget ?? 0) > 0;
  if (normalizeStatus(app.status) !== 'PENDING_PAYMENT' && !late) throw conflict(M.invalidStatus);
  const entry = ledger.checkout(store, sessionId);
  if (!entry || entry.applicationId !== applicationId) throw badRequest(M.updateFailed);
  const session = await viaProvider(p, M.updateFailed, () => p.provider.retrieveCheckoutSession(sessionId));
  if (!session || !matches(session, entry, app)) throw badRequest(M.updateFailed);
  if (!session.paid) throw new HttpError(402, M.updateFailed);

  // One decision on the application and the ledger as they are now: the webhook and the success
  // page, on any instances, confirm once; the second finds the charge and answers it.
  const now = p.ctx.now();
  const { value: outcome } = await store.transaction<{ confirmed: Confirmation } | { error: HttpError }>((read) => {
    const current = read.get('applications', applicationId)!;
    const recorded = ledger.charge(read, applicationId);
    if (recorded)
      return recorded.sessionId === sessionId
        ? { writes: [], value: { confirmed: confirmationOf(current, recorded) } }
        : { writes: [], value: { error: conflict(M.invalidStatus) } };
    const buyer = read.get('users', current.creatorId);
    const result = transition({
      actor: late ? SYSTEM_ACTOR : { id: current.creatorId, name: buyer?.name ?? '' },
      application: current,
      gig: gigRefOf(read, current.gigId),
      event: { type: late ? 'REFUND_LATE_PAYMENT' : 'CONFIRM_PAYMENT' },
      now,
    });
    if (!result.ok) return { writes: [], value: { error: conflict(result.error) } };
    const checkout = ledger.checkout(read, sessionId) ?? entry;
    const confirmed: ChargeEntry = {
      id: ledgerId.charge(applicationId),
      kind: 'charge',
      applicationId,
      sessionId,
      paymentIntentId: session.paymentIntentId ?? null,
      chargeId: session.chargeId ?? null,
      buyerId: entry.buyerId,
      amount: session.amountTotal,
      base: entry.base,
      currency: entry.currency,
      confirmedBy: by,
      paymentConfirmedAt: now,
      createdAt: now,
      updatedAt: now,
    };
    const updated = { ...current, ...result.changes, updatedAt: stamp(now, current) };
    const writes: DocWrite[] = [
      { collection: 'applications', doc: updated as DocWrite['doc'] },
      ...notificationWrites(result.notifications, now),
      ledgerWrite({ ...checkout, status: 'paid', updatedAt: stamp(now, checkout) }),
      ledgerWrite(confirmed),
      ledgerWrite({
        id: ledgerId.buyerFee(applicationId),
        kind: 'buyer_fee',
        applicationId,
        amount: entry.fee,
        currency: entry.currency,
        createdAt: now,
        updatedAt: now,
      }),
    ];
    return { writes, value: { confirmed: confirmationOf(updated, confirmed) } };
  });
  if ('error' in outcome) throw outcome.error;
  if (late) {
    // The refund goes out now; if the provider does not answer, the recovery timer continues it.
    await settleLocked(p, applicationId).catch((err: unknown) =>
      p.ctx.log(`Late payment refund of ${applicationId}`, err),
    );
    throw conflict(M.invalidStatus);
  }
  return outcome.confirmed;
}
