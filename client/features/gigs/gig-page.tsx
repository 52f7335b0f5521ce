import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Gig } from '../../../shared/schemas/gig';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';
import { GigDetails } from './gig-details';

/** `/gig/{gigId}`: the gig on a page of its own, with the same actions as the modal. */
export default function GigPage() {
  const { gigId = '' } = useParams();
  const { db } = useData();
  const navigate = useNavigate();
  const { data, loading } = useLive(() => db.gigs.findOne(gigId).$, [db, gigId]);
  if (loading) return <p role="status">Loading gig…</p>;
  const gig = data?.toJSON() as Gig | undefined;
  return (
    <main className="page narrow">
      {gig ? (
        <>
          <h1>{gig.title}</h1>
          <GigDetails gig={gig} onDeleted={() => navigate('/basket')} />
        </>
      ) : (
        <>
          <h1>Gig not found.</h1>
          <p>This gig may have been deleted by its creator.</p>
          <Link className="button" to="/landing">
            Back to the gig board
          </Link>
        </>
      )}
    </main>
  );
}
