import { useMemo, useState } from 'react';
import { offerLabel, SELLER_TABS, sellerTabOf, statusLabel } from '../../../shared/display';
import { formatMoney } from '../../../shared/money';
import type { Application } from '../../../shared/schemas/application';
import type { User } from '../../../shared/schemas/user';
import { useData } from '../../data/data-provider';
import { useMe, useMyApplications } from '../../data/queries';
import { useOutbox } from '../../ui/hooks';
import { acceptOffer, declineOffer } from '../applications';
import { FreelancerPayout } from '../payments';
import { AutoRelease, SellerWorkActions, Submissions, WorkState } from '../work';
import { ProfileLink, ReviewPanel } from '../reviews';
import { Tabs } from '../../ui/tabs';

type Tab = (typeof SELLER_TABS)[number];
/** Where "Your payout" (90% of the final budget) is what the freelancer gets or got. */
const PAYOUT_SHOWN = new Set(['PENDING_PAYMENT', 'IN_PROGRESS', 'DELIVERED', 'CANCELLATION_REQUESTED', 'COMPLETED']);
const ACCEPT_FAILED = 'Error accepting offer. Please try again.';
const DECLINE_FAILED = 'Error declining offer. Please try again.';

function SellerApplication({
  application: a,
  payoutStatus,
  focus,
}: {
  application: Application;
  payoutStatus: User['payoutStatus'];
  focus: boolean;
}) {
  const data = useData();
  const isWaiting = useOutbox(data.outbox);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const offer = a.status === 'PENDING_ACCEPTANCE';

  async function run(action: () => Promise<void>, failure: string) {
    setError(null);
    setBusy(true);
    try {
      await action();
    } catch {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="card seller-application">
      <div className="page-head">
        <h3>{a.gigTitle}</h3>
        <span className="status">{offer ? 'Offer received' : statusLabel(a.status)}</span>
      </div>
      <p>
        {a.gigCategory} · posted by <ProfileLink userId={a.creatorId} name={a.creatorName} /> · your rate{' '}
        {offerLabel(a.budget, a.currency)}
        {a.gigDeleted ? ' · gig deleted' : ''}
      </p>
      {a.finalBudget !== null && (
        <p>
          Final budget: <strong>{formatMoney(a.finalBudget, a.currency)}</strong>
        </p>
      )}
      {a.status === 'PENDING_PAYMENT' && (
        <p className="notice">Offer accepted. Waiting for the buyer's payment before work starts.</p>
      )}
      {a.status === 'REJECTED' && (
        <p className="notice">You declined this offer. The buyer can still send you a new one.</p>
      )}
      {a.status === 'CLOSED' && (
        <p className="notice">
          The gig was filled before you got an offer. The buyer can still send you one if they add openings.
        </p>
      )}
      {PAYOUT_SHOWN.has(a.status) && <FreelancerPayout application={a} payoutStatus={payoutStatus} />}
      <Submissions application={a} />
      <AutoRelease application={a} />
      <WorkState application={a} side="seller" />
      <ReviewPanel application={a} focus={focus} />
      {isWaiting('applications', a.id) && <p className="field-state">Waiting to sync</p>}
      {offer && (
        <div className="row">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void run(() => acceptOffer(data, a), ACCEPT_FAILED)}
          >
            Start Working
          </button>
          <button
            type="button"
            className="button button--quiet"
            disabled={busy}
            onClick={() => void run(() => declineOffer(data, a.id), DECLINE_FAILED)}
          >
            Decline
          </button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <SellerWorkActions application={a} />
    </li>
  );
}

/**
 * The basket's seller view (docs/product.md §2): the user's applications under Pending, In
 * Progress, Completed, Declined, Closed and Cancelled. No complete button. `focus` names work whose
 * reviews to bring into view (a review notification): it opens on that work's tab.
 */
export function SellerView({ focus }: { focus?: Application }) {
  const [tab, setTab] = useState<Tab>(focus ? sellerTabOf(focus) : 'Pending');
  const { data, loading } = useMyApplications();
  const payoutStatus = useMe().data?.payoutStatus;
  const apps = useMemo(() => [...(data ?? [])].sort((x, y) => y.updatedAt - x.updatedAt), [data]);
  const shown = apps.filter((a) => sellerTabOf(a) === tab);
  return (
    <section aria-label="Work I applied for">
      <Tabs label="Seller tabs" tabs={SELLER_TABS} selected={tab} onSelect={setTab} />
      {loading ? (
        <p role="status">Loading your applications…</p>
      ) : shown.length === 0 ? (
        <p className="empty">{apps.length === 0 ? "You haven't applied to any gigs yet." : `Nothing under ${tab}.`}</p>
      ) : (
        <ul className="card-list">
          {shown.map((a) => (
            <SellerApplication key={a.id} application={a} payoutStatus={payoutStatus} focus={a.id === focus?.id} />
          ))}
        </ul>
      )}
    </section>
  );
}
