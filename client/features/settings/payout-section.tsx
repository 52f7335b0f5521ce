import { useCallback, useEffect, useState } from 'react';
import { NEEDS_NETWORK, PAYOUT_SETUP_MESSAGES } from '../../../shared/payment-messages';
import type { User } from '../../../shared/schemas/user';
import { ApiError, isOffline } from '../../lib/api';
import { createConnectAccount, getPayoutStatus, type PayoutStatus } from '../../lib/payments-api';
import { useOnline } from '../../ui/hooks';
import { SimulatedNotice } from '../payments';

type View = { kind: 'loading' } | { kind: 'ready'; status: PayoutStatus } | { kind: 'error'; message: string };

/**
 * Payout setup (docs/product.md §2 Settings): the account's real state, asked of the server (which asks the
 * provider: coming back from onboarding proves nothing by itself), a button that creates or reuses
 * the payout account and opens its onboarding link, and a Try Again button on each failure.
 */
export function PayoutSection({ user }: { user: User | undefined }) {
  const online = useOnline();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setView({ kind: 'loading' });
    try {
      setView({ kind: 'ready', status: await getPayoutStatus() });
    } catch (err) {
      setView({ kind: 'error', message: isOffline(err) ? NEEDS_NETWORK : PAYOUT_SETUP_MESSAGES.loadFailed });
    }
  }, []);

  useEffect(() => {
    if (online) void load();
    else setView({ kind: 'error', message: NEEDS_NETWORK });
  }, [online, load]);

  async function connect() {
    if (!user?.email) return;
    setBusy(true);
    try {
      const { accountLink } = await createConnectAccount({ id: user.id, email: user.email });
      window.location.assign(accountLink);
    } catch (err) {
      setBusy(false);
      const existing = view.kind === 'ready' && view.status.accountId;
      // 422: the provider cannot pay out to this user's country; the server says why (decision 007).
      const message = isOffline(err)
        ? NEEDS_NETWORK
        : err instanceof ApiError && err.status === 422
          ? err.message
          : existing
            ? PAYOUT_SETUP_MESSAGES.connectFailed
            : PAYOUT_SETUP_MESSAGES.createFailed;
      setView({ kind: 'error', message });
    }
  }

  return (
    <section aria-labelledby="settings-payouts" className="payouts">
      <h2 id="settings-payouts">Payouts</h2>
      <p>Completed work is paid to the payout account you connect here: you receive 90% of each final budget.</p>
      <SimulatedNotice />
      {view.kind === 'loading' && <p role="status">Loading payout account…</p>}
      {view.kind === 'error' && (
        <div className="row">
          <p className="form-error" role="alert">
            {view.message}
          </p>
          <button type="button" className="button button--quiet" onClick={() => void load()}>
            Try Again
          </button>
        </div>
      )}
      {view.kind === 'ready' && (
        <>
          <p data-testid="payout-state">
            {view.status.state === 'connected'
              ? 'Your payout account is connected. Payouts arrive when buyers mark work complete.'
              : view.status.state === 'details_due'
                ? 'Your payout account needs a few more details before it can receive payouts.'
                : 'No payout account yet.'}
          </p>
          {view.status.released > 0 && (
            <p className="success" role="status">
              {view.status.released} held payout{view.status.released === 1 ? ' was' : 's were'} released to your
              account.
            </p>
          )}
          {view.status.state !== 'connected' && (
            // Waits for the user's own record (the first sync brings it) rather than ignoring a click.
            <button
              type="button"
              className="button"
              onClick={() => void connect()}
              disabled={busy || !online || !user?.email}
            >
              {view.status.state === 'details_due' ? 'Finish payout setup' : 'Set up payouts'}
            </button>
          )}
        </>
      )}
    </section>
  );
}
