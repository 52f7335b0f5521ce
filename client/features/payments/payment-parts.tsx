import { useEffect, useState } from 'react';
import { buyerCheckout, formatMoney as money, payoutSplit } from '../../../shared/money';
import {
  COMPLETION_PENDING,
  completionError,
  NEEDS_NETWORK,
  PAYMENT_START_FAILED,
} from '../../../shared/payment-messages';
import type { Application } from '../../../shared/schemas/application';
import { api, ApiError, isOffline } from '../../lib/api';
import { completeGig, startCheckout } from '../../lib/payments-api';
import { useOnline } from '../../ui/hooks';
import { ConfirmDialog } from '../../ui/modal';

/** "simulated" when the server has no Stripe keys: the UI says so plainly. */
export function usePaymentsMode(): 'stripe' | 'simulated' | null {
  const [mode, setMode] = useState<'stripe' | 'simulated' | null>(null);
  useEffect(() => {
    let live = true;
    api<{ paymentsMode: 'stripe' | 'simulated' }>('GET', '/api/public-config').then(
      (c) => live && setMode(c.paymentsMode),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return mode;
}

export function SimulatedNotice() {
  const mode = usePaymentsMode();
  if (mode !== 'simulated') return null;
  return <p className="notice">Payments are simulated on this server: no real money moves.</p>;
}

/** Base, 3% service fee and total, each to two decimals (docs/product.md §9). */
export function AmountLines({ finalBudget, currency }: { finalBudget: number; currency: string }) {
  return <PaidAmounts {...buyerCheckout(finalBudget)} currency={currency} />;
}

/** The three lines of a buyer's payment, from amounts already worked out (the server's confirmation, say). */
export function PaidAmounts({
  base,
  fee,
  total,
  currency,
}: {
  base: number;
  fee: number;
  total: number;
  currency: string;
}) {
  return (
    <dl className="details amounts">
      <dt>Base</dt>
      <dd>{money(base, currency)}</dd>
      <dt>Service fee (3%)</dt>
      <dd>{money(fee, currency)}</dd>
      <dt>Total</dt>
      <dd>
        <strong>{money(total, currency)}</strong>
      </dd>
    </dl>
  );
}

/** The buyer's Pay step for an accepted offer (PENDING_PAYMENT): opens the provider's checkout. */
export function PayForApplication({ application }: { application: Application }) {
  const online = useOnline();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function pay() {
    setError(null);
    if (!online) return setError(NEEDS_NETWORK);
    setBusy(true);
    try {
      const { url } = await startCheckout(application.id);
      window.location.assign(url);
    } catch (err) {
      setError(isOffline(err) ? NEEDS_NETWORK : err instanceof ApiError ? err.message : PAYMENT_START_FAILED);
      setBusy(false);
    }
  }
  return (
    <div className="payment">
      <p>{application.applicantName} accepted your offer. Pay to start the work:</p>
      <AmountLines finalBudget={application.finalBudget ?? 0} currency={application.currency} />
      <button type="button" className="button" onClick={() => void pay()} disabled={busy}>
        Pay {money(buyerCheckout(application.finalBudget ?? 0).total, application.currency)}
      </button>
      {!online && <p className="field-state">Paying needs a connection.</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Mark as Complete (work in progress) or "Approve and pay" (delivered work, `approve`), behind a
 * confirmation; it pays the freelancer (or holds the payout).
 */
export function MarkComplete({
  application,
  userId,
  approve = false,
}: {
  application: Application;
  userId: string;
  approve?: boolean;
}) {
  const online = useOnline();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function complete() {
    setConfirming(false);
    setError(null);
    if (!online) return setError(NEEDS_NETWORK);
    setBusy(true);
    try {
      const result = await completeGig({ gigId: application.gigId, applicationId: application.id, userId });
      // Accepted, the provider's answer still to come: being settled, not failed.
      setPending(result.payout === 'pending');
    } catch (err) {
      setError(isOffline(err) ? NEEDS_NETWORK : completionError(err instanceof ApiError ? err.message : undefined));
    } finally {
      setBusy(false);
    }
  }
  const payout = payoutSplit(application.finalBudget ?? 0);
  const label = approve ? 'Approve and pay' : 'Mark as Complete';
  return (
    <div className="row">
      <button type="button" className="button" onClick={() => setConfirming(true)} disabled={busy}>
        {busy ? (approve ? 'Paying…' : 'Completing…') : label}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {pending && (
        <p className="notice" role="status">
          {COMPLETION_PENDING}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={approve ? 'Approve this work and pay?' : 'Mark this work as complete?'}
          message={
            <p>
              {application.applicantName} will be paid {money(payout.freelancer, application.currency)} for “
              {application.gigTitle}”. This cannot be undone.
            </p>
          }
          confirmLabel={label}
          onConfirm={() => void complete()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

/** The buyer's receipt once paid: base, fee, total and the date. */
export function BuyerReceipt({ application }: { application: Application }) {
  if (!application.paymentConfirmedAt || !application.finalBudget) return null;
  return (
    <div className="receipt">
      <p>
        <strong>Receipt</strong> · paid {new Date(application.paymentConfirmedAt).toLocaleDateString()}
      </p>
      <AmountLines finalBudget={application.finalBudget} currency={application.currency} />
    </div>
  );
}

/** The freelancer's payout: 90% of the final budget, the 10% platform fee, and where it stands. */
export function FreelancerPayout({
  application,
  payoutStatus,
}: {
  application: Application;
  payoutStatus: 'none' | 'pending' | 'active' | undefined;
}) {
  if (!application.finalBudget) return null;
  const { freelancer, platformFee } = payoutSplit(application.finalBudget);
  const status =
    application.status === 'COMPLETED'
      ? payoutStatus === 'active'
        ? 'Paid out to your payout account'
        : 'Held until you set up payouts in Settings'
      : application.status === 'PENDING_PAYMENT'
        ? 'Waiting for the buyer’s payment'
        : application.status === 'DELIVERED'
          ? 'Paid by the buyer; released to you when the buyer approves, or automatically'
          : 'Paid by the buyer; released to you when the work is marked complete';
  return (
    <div className="receipt">
      <p>
        <strong>Your payout</strong>
      </p>
      <dl className="details amounts">
        <dt>You receive</dt>
        <dd>{money(freelancer, application.currency)}</dd>
        <dt>Platform fee (10%)</dt>
        <dd>{money(platformFee, application.currency)}</dd>
        <dt>Status</dt>
        <dd>{status}</dd>
      </dl>
    </div>
  );
}
