import { useSearchParams } from 'react-router-dom';
import { BuyerView } from './buyer-view';
import { SellerView } from './seller-view';

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
      <div className="tabs" role="tablist" aria-label="Side">
        <button type="button" role="tab" className="tab" aria-selected={view === 'buyer'} onClick={() => choose('buyer')}>
          Gigs I posted
        </button>
        <button type="button" role="tab" className="tab" aria-selected={view === 'seller'} onClick={() => choose('seller')}>
          Work I applied for
        </button>
      </div>
      {view === 'buyer' ? <BuyerView /> : <SellerView />}
    </main>
  );
}
