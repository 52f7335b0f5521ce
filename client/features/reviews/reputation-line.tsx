import {
  asBuyer,
  asFreelancer,
  completedLabel,
  ratingSpoken,
  ratingSummary,
  type RatingTally,
} from '../../../shared/reputation';
import { useUser } from '../../data/queries';

/** "★ 4.5 (3 reviews)", read out as "Rated 4.5 out of 5 from 3 reviews"; "No reviews yet" without any. */
export function RatingSummary({ tally }: { tally: RatingTally }) {
  return (
    <span className="rating-summary">
      {tally.count > 0 && (
        <span className="star star--on" aria-hidden="true">
          ★{' '}
        </span>
      )}
      <span aria-hidden="true">{ratingSummary(tally)}</span>
      <span className="visually-hidden">{ratingSpoken(tally)}</span>
    </span>
  );
}

/**
 * A member's rating on one side and their completed gigs there, from the reputation this device
 * holds: what the basket shows next to each applicant (as a freelancer) and the gig shows of its
 * creator (as a buyer).
 */
export function ReputationLine({ userId, side }: { userId: string; side: 'buyer' | 'freelancer' }) {
  const data = useUser(userId).data?.reputation;
  const tally = side === 'buyer' ? asBuyer(data) : asFreelancer(data);
  const completed = data ? (side === 'buyer' ? data.completedAsBuyer : data.completedAsFreelancer) : 0;
  return (
    <span className="reputation-line">
      <RatingSummary tally={tally} /> · {completedLabel(completed)}
    </span>
  );
}
