import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { defaultBasketView } from '../../../shared/display';
import { useApplication, useBasketRoles } from '../../data/queries';
import { useData, useFirstSyncUnderWay } from '../../data/data-provider';
import { collectionsForScreen } from '../../data/first-screen';
import { PATHS } from '../../../shared/routes';
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
  const [postedN, appliedN] = [Number(roles.posted), Number(roles.applied)];
  // A gig would read "0 applicants" while its applications are on the way: the lists wait for
  // every collection the page reads (first-screen.ts), pulled first on a new device.
  const firstSync = useFirstSyncUnderWay(collectionsForScreen(PATHS.basket));
  const known = !roles.loading && !firstSync;
  const view =
    requested === 'seller' || requested === 'buyer' ? requested : known ? defaultBasketView(postedN, appliedN) : null;
  const choose = (v: 'buyer' | 'seller') => setParams({ view: v }, { replace: true });
  useEffect(() => {
    // Not while a review's work is still unknown here: that would drop `?review=` before the
    // work arrives (a new device's first sync) and leave the user on the wrong side and tab.
    if (view && !reviewSide && !params.get('review') && params.get('view') !== view)
      setParams({ view }, { replace: true });
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
