import { useSearchParams } from 'react-router-dom';
import { BuyerView } from './buyer-view';
import { SellerView } from './seller-view';
import { Tabs } from '../../ui/tabs';

/**
 * `/basket` ("My Gigs"): the buyer view (gigs the user posted) and the seller view (work the user
 * applied for), switched by `?view=buyer|seller` so notifications can open the right side.
 */
export default function BasketPage() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'seller' ? 'seller' : 'buyer';
  const choose = (v: 'buyer' | 'seller') => setParams({ view: v }, { replace: true });
  return (
    <main className="page">
      <h1>My Gigs</h1>
      <Tabs
        label="Side"
        tabs={[
          ['buyer', 'Gigs I posted'],
          ['seller', 'Work I applied for'],
        ]}
        selected={view}
        onSelect={choose}
      />
      {view === 'buyer' ? <BuyerView /> : <SellerView />}
    </main>
  );
}
