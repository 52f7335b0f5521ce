import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { WORK_MACHINE_MESSAGES } from '../../../shared/application-machine';
import { formatMoney, settlementAmounts } from '../../../shared/money';
import { NEEDS_NETWORK, WORK_PAYMENT_MESSAGES as W, workPaymentError } from '../../../shared/payment-messages';
import { PATHS } from '../../../shared/routes';
import type { SettlementKind } from '../../../shared/schemas/application';
import { parseMoneyInput } from '../../../shared/validation/apply';
import { splitAmountError } from '../../../shared/validation/work';
import { ApiError, isOffline } from '../../lib/api';
import { getOperatorQueue, resolveDispute, type DisputeView, type OperatorQueue } from '../../lib/operator-api';
import { retryPayment } from '../../lib/payments-api';
import { ConfirmDialog } from '../../ui/modal';

const LOAD_FAILED = 'Failed to load disputes. Please try again.';
const KNOWN = Object.values(WORK_MACHINE_MESSAGES);
const when = (at: number | null) => (at ? new Date(at).toLocaleString() : 'not stamped yet');

type Load =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'error'; message: string }
  | { state: 'ready'; queue: OperatorQueue };

/** Who is who, the payment and the submissions of one dispute. */
function DisputeFacts({ d }: { d: DisputeView }) {
  const money = (minor: number) => formatMoney(minor, d.payment.currency);
  return (
    <>
      <dl className="details">
        <dt>Buyer</dt>
        <dd>
          {d.buyer.name}
          {d.buyer.email ? ` · ${d.buyer.email}` : ''}
        </dd>
        <dt>Freelancer</dt>
        <dd>
          {d.freelancer.name}
          {d.freelancer.email ? ` · ${d.freelancer.email}` : ''}
        </dd>
        <dt>Paid</dt>
        <dd>
          {money(d.payment.total)} ({money(d.payment.base)} + {money(d.payment.fee)} service fee) on{' '}
          {when(d.payment.paidAt)}
        </dd>
        {d.dispute && (
          <>
            <dt>Opened by</dt>
            <dd>
              {d.dispute.by === 'buyer' ? 'the buyer' : 'the freelancer'} on {when(d.dispute.openedAt)}
            </dd>
            <dt>Reason</dt>
            <dd className="submission__note">{d.dispute.reason}</dd>
          </>
        )}
        {d.cancellation && (
          <>
            <dt>Cancellation asked</dt>
            <dd>
              {when(d.cancellation.requestedAt)}
              {d.cancellation.note ? `: “${d.cancellation.note}”` : ''}
            </dd>
          </>
        )}
      </dl>
      <h4>Submissions</h4>
      {d.submissions.length === 0 ? (
        <p className="empty">No work was submitted.</p>
      ) : (
        <ol className="submissions">
          {d.submissions.map((s, i) => (
            <li key={`${s.submittedAt}-${i}`} className="submission">
              <p className="submission__meta">
                Submission {i + 1} · {when(s.submittedAt)}
              </p>
              <p className="submission__note">{s.note}</p>
              {s.link && (
                <p>
                  <a href={s.link} target="_blank" rel="noopener noreferrer nofollow">
                    {s.link}
                  </a>
                </p>
              )}
              {s.changesRequested && (
                <p className="submission__changes">
                  <strong>Changes requested:</strong> {s.changesRequested.note}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      <h4>Conversation</h4>
      {d.conversation.length === 0 ? (
        <p className="empty">They have not written to each other.</p>
      ) : (
        <ul
          className="conversation"
          aria-label={`Conversation between ${d.buyer.name} and ${d.freelancer.name}`}
          tabIndex={0}
        >
          {d.conversationTruncated && <li className="field-state">Earlier messages are not shown.</li>}
          {d.conversation.map((m, i) => (
            <li key={i}>
              <strong>{m.from === 'buyer' ? d.buyer.name : d.freelancer.name}</strong> ({when(m.at)}): {m.content}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The resolution: a refund in full, a release in full, or a split, confirmed before it moves money. */
function Resolve({ d, onDone }: { d: DisputeView; onDone: (message: string) => void }) {
  const id = useId();
  const [outcome, setOutcome] = useState<SettlementKind>('refund');
  const [part, setPart] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const money = (minor: number) => formatMoney(minor, d.payment.currency);
  const paid = { base: d.payment.base, fee: d.payment.fee };
  const splitError = outcome === 'split' ? splitAmountError(part, paid.base, d.payment.currency) : undefined;
  const freelancerBase = outcome === 'refund' ? 0 : outcome === 'release' ? paid.base : (parseMoneyInput(part) ?? 0);
  const amounts = splitError ? undefined : settlementAmounts(paid, freelancerBase);
  const full = settlementAmounts(paid, paid.base);

  async function resolve() {
    setConfirming(false);
    setBusy(true);
    setError(null);
    try {
      await resolveDispute(d.applicationId, outcome, outcome === 'split' ? freelancerBase : undefined);
      onDone(`The dispute on “${d.gig.title}” was resolved.`);
    } catch (err) {
      setError(
        isOffline(err)
          ? NEEDS_NETWORK
          : workPaymentError(err instanceof ApiError ? err.message : undefined, W.resolveFailed, KNOWN),
      );
      setBusy(false);
    }
  }

  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (splitError) {
          setError(splitError);
          document.getElementById(`${id}-part`)?.focus();
          return;
        }
        setError(null);
        setConfirming(true);
      }}
    >
      <fieldset className="resolution">
        <legend>Resolution</legend>
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-outcome`}
            checked={outcome === 'refund'}
            onChange={() => setOutcome('refund')}
          />
          Refund the buyer in full ({money(d.payment.total)})
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-outcome`}
            checked={outcome === 'release'}
            onChange={() => setOutcome('release')}
          />
          Release to the freelancer in full ({money(full.toFreelancer)} after the 10% platform fee)
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name={`${id}-outcome`}
            checked={outcome === 'split'}
            onChange={() => setOutcome('split')}
          />
          Split
        </label>
      </fieldset>
      {outcome === 'split' && (
        <label htmlFor={`${id}-part`}>
          Freelancer’s part of the final budget ({d.payment.currency})
          <input
            id={`${id}-part`}
            inputMode="decimal"
            value={part}
            onChange={(e) => setPart(e.target.value)}
            aria-invalid={Boolean(error && splitError)}
          />
        </label>
      )}
      {amounts && (
        <p className="field-state" role="status">
          The freelancer receives {money(amounts.toFreelancer)}; the buyer is refunded {money(amounts.refund)} (
          {money(amounts.refundFee)} of it the service fee).
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Resolving…' : 'Resolve dispute'}
        </button>
      </div>
      {confirming && amounts && (
        <ConfirmDialog
          title="Resolve this dispute?"
          message={
            <p>
              {d.freelancer.name} receives {money(amounts.toFreelancer)} and {d.buyer.name} is refunded{' '}
              {money(amounts.refund)} for “{d.gig.title}”. The money moves now. This cannot be undone.
            </p>
          }
          confirmLabel="Resolve dispute"
          onConfirm={() => void resolve()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </form>
  );
}

function RetryFailed({ d, onDone }: { d: DisputeView; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="row">
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          retryPayment(d.applicationId).then(
            () => onDone(`The payment for “${d.gig.title}” went through.`),
            (err: unknown) => {
              setError(
                isOffline(err)
                  ? NEEDS_NETWORK
                  : workPaymentError(err instanceof ApiError ? err.message : undefined, W.retryFailed),
              );
              setBusy(false);
            },
          );
        }}
      >
        {busy ? 'Trying again…' : 'Try again'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * `/operator/disputes` (decision 031): the open disputes with everything an operator needs to decide
 * (the gig, both parties, the payment, the submissions, the conversation) and the resolution, and
 * the payments the provider refused, to try again. The server answers only operators; anyone else
 * gets the signed-in area's "Page not found".
 */
export default function OperatorDisputesPage() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);
  const reload = useCallback(() => {
    getOperatorQueue().then(
      (queue) => setLoad({ state: 'ready', queue }),
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 404) setLoad({ state: 'missing' });
        else setLoad({ state: 'error', message: isOffline(err) ? NEEDS_NETWORK : LOAD_FAILED });
      },
    );
  }, []);
  useEffect(reload, [reload]);
  const done = (message: string) => {
    setNotice(message);
    reload();
  };

  if (load.state === 'missing')
    return (
      <main className="page narrow">
        <h1>Page not found</h1>
        <p>There is nothing at this address.</p>
        <Link className="button" to={PATHS.landing}>
          Go to the gig board
        </Link>
      </main>
    );
  return (
    <main className="page">
      <h1>Disputes</h1>
      {notice && (
        <p className="success" role="status">
          {notice}
        </p>
      )}
      {load.state === 'loading' && <p role="status">Loading disputes…</p>}
      {load.state === 'error' && (
        <div>
          <p className="form-error" role="alert">
            {load.message}
          </p>
          <button type="button" className="button" onClick={reload}>
            Try Again
          </button>
        </div>
      )}
      {load.state === 'ready' && (
        <>
          <section aria-labelledby="open-disputes">
            <h2 id="open-disputes">Open disputes</h2>
            {load.queue.disputes.length === 0 ? (
              <p className="empty">No open disputes.</p>
            ) : (
              <ul className="card-list">
                {load.queue.disputes.map((d) => (
                  <li key={d.applicationId} className="card operator-dispute">
                    <h3>
                      {d.gig.title}
                      {d.gig.deleted ? ' (gig deleted)' : ''}
                    </h3>
                    <DisputeFacts d={d} />
                    <Resolve d={d} onDone={done} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="refused-payments">
            <h2 id="refused-payments">Payments the provider refused or has not answered</h2>
            {load.queue.failed.length === 0 ? (
              <p className="empty">None.</p>
            ) : (
              <ul className="card-list">
                {load.queue.failed.map((d) => (
                  <li key={d.applicationId} className="card operator-dispute">
                    <h3>{d.gig.title}</h3>
                    <p className="form-error">
                      {d.status === 'SETTLING'
                        ? 'The payment provider has not answered yet.'
                        : (d.settlement?.failure ?? 'Refused by the payment provider.')}
                    </p>
                    {d.status === 'SETTLEMENT_FAILED' && d.settlement?.refundedAt && (
                      <p>
                        The buyer’s refund of {formatMoney(d.settlement.refund, d.payment.currency)} went out; only the
                        freelancer’s payout of {formatMoney(d.settlement.toFreelancer, d.payment.currency)} is left.
                      </p>
                    )}
                    <DisputeFacts d={d} />
                    <RetryFailed d={d} onDone={done} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  );
}
