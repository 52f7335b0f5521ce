import { z } from 'zod';

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * A member's reputation, part of their public profile (shared/schemas/user.ts): computed by the
 * server (sync-server/reviews/reputation.ts) from their completed work and published reviews, and
 * written by it alone. Ratings are a count and a sum per side, so an average is exact whatever
 * order reviews arrive in (shared/reputation.ts). Absent on a profile nothing was counted for yet:
 * read as all zeros.
 */
export const reputationSchema = z.object({
  /** Published reviews by buyers, rating this member's work as a freelancer. */
  freelancerReviews: count,
  freelancerRatingSum: count,
  /** Published reviews by freelancers, rating this member as a buyer. */
  buyerReviews: count,
  buyerRatingSum: count,
  /** Distinct gigs completed, on each side. */
  completedAsFreelancer: count,
  completedAsBuyer: count,
});
export type Reputation = z.infer<typeof reputationSchema>;
