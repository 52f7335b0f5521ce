import { z } from 'zod';
import { LIMITS } from '../constants';
import { idSchema, timestampSchema, toRxSchema, userText } from './common';

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * What the board, the basket and the links need of a member's reputation, one small document per
 * user with a completed profile, computed by the server (sync-server/reviews/reputation.ts) from
 * their completed work and published reviews. Its id is the user's. Ratings are kept as a count
 * and a sum per side, so an average is exact whatever order reviews arrive in (shared/reputation.ts).
 */
export const reputationSchema = z.object({
  id: idSchema,
  username: userText(64),
  name: userText(LIMITS.nameMax),
  /** Published reviews by buyers, rating this member's work as a freelancer. */
  freelancerReviews: count,
  freelancerRatingSum: count,
  /** Published reviews by freelancers, rating this member as a buyer. */
  buyerReviews: count,
  buyerRatingSum: count,
  /** Distinct gigs completed, on each side. */
  completedAsFreelancer: count,
  completedAsBuyer: count,
  updatedAt: timestampSchema,
});
export type Reputation = z.infer<typeof reputationSchema>;

export const reputationRxSchema = toRxSchema(reputationSchema);
