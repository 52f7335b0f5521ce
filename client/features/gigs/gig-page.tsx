import { Link, useNavigate, useParams } from 'react-router-dom';
import { PATHS } from '../../../shared/routes';
import { useGig } from '../../data/queries';
import { GigDetails } from './gig-details';

/** `/gig/{gigId}`: the gig on a page of its own, with the same actions as the modal. */
export default function GigPage() {
  const { gigId = '' } = useParams();
  const navigate = useNavigate();
  const { data: gig, loading } = useGig(gigId);
  if (loading) return <p role="status">Loading gig…</p>;
  return (
    <main className="page narrow">
      {gig ? (
        <>
          <h1>{gig.title}</h1>
          <GigDetails gig={gig} onDeleted={() => navigate(PATHS.basket)} />
        </>
      ) : (
        <>
          <h1>Gig not found.</h1>
          <p>This gig may have been deleted by its creator.</p>
          <Link className="button" to={PATHS.landing}>
            Back to the gig board
          </Link>
        </>
      )}
    </main>
  );
}
