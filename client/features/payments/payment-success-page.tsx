import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { REDIRECT_DELAYS_MS } from '../../../shared/constants';
import { splitFromTotal } from '../../../shared/money';
import { decimalToMinor } from '../../../shared/validation/decimal';
import { NEEDS_NETWORK, PAYMENT_SUCCESS_MESSAGES, paymentSuccessError } from '../../../shared/payment-messages';
import { ApiError, isOffline, NetworkError } from '../../lib/api';
import { confirmPayment, readPaymentSuccessQuery, type PaymentConfirmation } from '../../lib/payments-api';
import { PaidAmounts } from './payment-parts';
import { PATHS } from '../../../shared/routes';

type State =
  | { kind: 'confirming' }
  | { kind: 'confirmed'; confirmation: PaymentConfirmation }
  | { kind: 'error'; message: string; retry: boolean };

/**
 * `/payment/success` (docs/product.md §2, §4): shows the title, amount and currency of the query, asks the
 * server to confirm the payment with the provider (the URL proves nothing), then goes to the
 * basket after 5 s. A reload, or a payment the webhook confirmed first, shows the confirmation.
 */
export default function PaymentSuccessPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const query = readPaymentSuccessQuery(search);
  const [state, setState] = useState<State>(
    query ? { kind: 'confirming' } : { kind: 'error', message: PAYMENT_SUCCESS_MESSAGES.missingInfo, retry: false },
  );
  const [attempt, setAttempt] = useState(0);
  const applicationId = query?.applicationId;
  const sessionId = query?.sessionId;

  useEffect(() => {
    if (!applicationId || !sessionId) return;
    let live = true;
    setState({ kind: 'confirming' });
    confirmPayment(applicationId, sessionId).then(
      (confirmation) => live && setState({ kind: 'confirmed', confirmation }),
      (err: unknown) => {
        if (!live) return;
        // No answer is worth another try; only a browser that is offline is told it is offline.
        if (err instanceof NetworkError)
          setState({
            kind: 'error',
            message: isOffline(err) ? NEEDS_NETWORK : PAYMENT_SUCCESS_MESSAGES.updateFailed,
            retry: true,
          });
        else
          setState({
            kind: 'error',
            message: paymentSuccessError(err instanceof ApiError ? err.message : undefined),
            retry: false,
          });
      },
    );
    return () => {
      live = false;
    };
  }, [applicationId, sessionId, attempt]);

  useEffect(() => {
    if (state.kind !== 'confirmed') return;
    const timer = setTimeout(
      () => navigate(`${PATHS.basket}?view=buyer`, { replace: true }),
      REDIRECT_DELAYS_MS.afterPaymentSuccess,
    );
    return () => clearTimeout(timer);
  }, [state.kind, navigate]);

  const title = state.kind === 'confirmed' ? state.confirmation.gigTitle : (query?.title ?? '');
  // The server's confirmation is the truth; until it comes, the query's total split the same way.
  const queryTotal = query ? decimalToMinor(query.amount) : undefined;
  const amounts =
    state.kind === 'confirmed'
      ? {
          base: state.confirmation.base,
          fee: state.confirmation.fee,
          total: state.confirmation.amount,
          currency: state.confirmation.currency,
        }
      : queryTotal !== undefined && query
        ? { ...splitFromTotal(queryTotal), total: queryTotal, currency: query.currency }
        : null;

  return (
    <main className="page narrow">
      <h1>Payment</h1>
      {query && (
        <dl className="details">
          <dt>Gig</dt>
          <dd>{title}</dd>
        </dl>
      )}
      {query && amounts && <PaidAmounts {...amounts} />}
      {state.kind === 'confirming' && <p role="status">Confirming your payment…</p>}
      {state.kind === 'confirmed' && (
        <>
          <p className="success" role="status">
            Payment confirmed! The freelancer can start working. Taking you to your gigs…
          </p>
          <Link className="button button--quiet" to={`${PATHS.basket}?view=buyer`}>
            Go to My Gigs now
          </Link>
        </>
      )}
      {state.kind === 'error' && (
        <>
          <p className="form-error" role="alert">
            {state.message}
          </p>
          <div className="row">
            {state.retry && (
              <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
                Try Again
              </button>
            )}
            <Link className="button button--quiet" to={PATHS.basket}>
              Return to dashboard
            </Link>
          </div>
        </>
      )}
    </main>
  );
}
