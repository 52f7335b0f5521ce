import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { defaultBasketView } from '../../../shared/display';
import { useSyncStatus } from '../../data/data-provider';
import { useApplication, useBasketRoles } from '../../data/queries';
import { useData } from '../../data/data-provider';
import { useOnline } from '../../ui/hooks';
import { BuyerView } from './buyer-view';
import { SellerView } from './seller-view';
import { Tabs } from '../../ui/tabs';

/**
 * `/basket` ("My Gigs"): the buyer view (gigs the user posted) and the seller view (work the user
 * applied for), switched by `?view=buyer|seller` so notifications can open the right side.
 * Without one it opens on the side that has something, and writes that choice into the URL.
 * `?review={applicationId}` (a review notification) opens the side the user was on in that work,
 * with its reviews in view.
 */
export default function BasketPage() {
  const [params, setParams] = useSearchParams();
  const { userId } = useData();
  const reviewOf = useApplication(params.get('review') ?? '');
  const work = reviewOf.data ?? undefined;
  const reviewSide = work ? (work.creatorId === userId ? 'buyer' : 'seller') : undefined;
  const requested = reviewSide ?? params.get('view');
  const roles = useBasketRoles();
  const sync = useSyncStatus();
  const online = useOnline();
  const [postedN, appliedN] = [Number(roles.posted), Number(roles.applied)];
  // A new device's first sync stores the gigs and applications a chunk at a time: drawn before it
  // ends, the cards would jump as each chunk lands and a gig would read "No applicants yet." while
  // its applications are on the way. The lists wait for it, unless nothing is coming (offline,
  // the server unreachable, or "Work offline").
  const firstSync = !sync.initialSync.done && online && sync.network === 'online' && !sync.workingOffline;
  const known = !roles.loading && !firstSync;
  const view =
    requested === 'seller' || requested === 'buyer' ? requested : known ? defaultBasketView(postedN, appliedN) : null;
  const choose = (v: 'buyer' | 'seller') => setParams({ view: v }, { replace: true });
  useEffect(() => {
    if (view && !reviewSide && params.get('view') !== view) setParams({ view }, { replace: true });
  }, [view, reviewSide, params, setParams]);
  return (
    <main className="page">
      <h1>My Gigs</h1>
      <Tabs
        label="Side"
        tabs={[
          ['buyer', 'Gigs I posted'],
          ['seller', 'Work I applied for'],
        ]}
        selected={view ?? 'buyer'}
        onSelect={choose}
        disabled={!view}
      />
      {view === null || firstSync || (params.get('review') && reviewOf.loading) ? (
        <p role="status">Loading your gigs…</p>
      ) : view === 'buyer' ? (
        <BuyerView focus={work?.id} />
      ) : (
        <SellerView key={work?.id} focus={work} />
      )}
    </main>
  );
}
