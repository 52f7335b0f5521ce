import type { Application } from './schemas/application';
import type { Reputation } from './schemas/reputation';
import { isPublished, opensReviews, type ReviewRole } from './reviews';

/**
 * A member's reputation from their completed work and published reviews
 * (docs/decisions/032-reviews-and-profiles.md): averages per side, shown and filtered with one
 * decimal, and the board's order by buyer rating.
 */

/** How many published reviews rate one side of a member, and the sum of their stars. */
export type RatingTally = { count: number; sum: number };

export const NO_RATINGS: RatingTally = { count: 0, sum: 0 };

/**
 * The average with one decimal (4.25 → 4.3), or null without reviews. Shown and filtered by the
 * same value, so a buyer shown as 4.0 is never left out of "4 and up".
 */
export function averageRating(t: RatingTally): number | null {
  if (t.count <= 0) return null;
  return Math.round((t.sum * 10) / t.count) / 10;
}

/** "4.5 (12 reviews)", "5.0 (1 review)" or "No reviews yet". */
export function ratingSummary(t: RatingTally): string {
  const avg = averageRating(t);
  if (avg === null) return 'No reviews yet';
  return `${avg.toFixed(1)} (${t.count} review${t.count === 1 ? '' : 's'})`;
}

/** The same for screen readers: "Rated 4.5 out of 5 from 12 reviews". */
export function ratingSpoken(t: RatingTally): string {
  const avg = averageRating(t);
  if (avg === null) return 'No reviews yet';
  return `Rated ${avg.toFixed(1)} out of 5 from ${t.count} review${t.count === 1 ? '' : 's'}`;
}

export function completedLabel(n: number): string {
  return `${n} completed gig${n === 1 ? '' : 's'}`;
}

export const asBuyer = (r: Pick<Reputation, 'buyerReviews' | 'buyerRatingSum'> | null | undefined): RatingTally =>
  r ? { count: r.buyerReviews, sum: r.buyerRatingSum } : NO_RATINGS;

export const asFreelancer = (
  r: Pick<Reputation, 'freelancerReviews' | 'freelancerRatingSum'> | null | undefined,
): RatingTally => (r ? { count: r.freelancerReviews, sum: r.freelancerRatingSum } : NO_RATINGS);

/** A review as the reputation counts it. */
export type CountedReview = { authorRole: ReviewRole; rating: number; publishedAt: number | null };

/** A reputation nothing was counted for yet. */
export const NO_REPUTATION: Reputation = {
  freelancerReviews: 0,
  freelancerRatingSum: 0,
  buyerReviews: 0,
  buyerRatingSum: 0,
  completedAsFreelancer: 0,
  completedAsBuyer: 0,
};

/**
 * The reputation fields of a member: `asApplicant` and `asCreator` are their applications on each
 * side, `about` the reviews of them. Only work that opens reviews counts as completed (one per
 * gig), only published reviews count for the averages. Reviews by buyers rate the member as a
 * freelancer; reviews by freelancers rate them as a buyer.
 */
export function reputationFields(input: {
  asApplicant: readonly Pick<Application, 'status' | 'completedAt' | 'gigId'>[];
  asCreator: readonly Pick<Application, 'status' | 'completedAt' | 'gigId'>[];
  about: readonly CountedReview[];
}): Reputation {
  const gigs = (apps: readonly Pick<Application, 'status' | 'completedAt' | 'gigId'>[]) =>
    new Set(apps.filter(opensReviews).map((a) => a.gigId)).size;
  const tally = (role: ReviewRole): RatingTally => {
    const rated = input.about.filter((r) => r.authorRole === role && isPublished(r));
    return { count: rated.length, sum: rated.reduce((s, r) => s + r.rating, 0) };
  };
  const byBuyers = tally('buyer');
  const byFreelancers = tally('freelancer');
  return {
    freelancerReviews: byBuyers.count,
    freelancerRatingSum: byBuyers.sum,
    buyerReviews: byFreelancers.count,
    buyerRatingSum: byFreelancers.sum,
    completedAsFreelancer: gigs(input.asApplicant),
    completedAsBuyer: gigs(input.asCreator),
  };
}

/** Whether two reputations say the same (the server writes one only when it changed). */
export function sameReputation(a: Reputation, b: Reputation): boolean {
  return (
    a.freelancerReviews === b.freelancerReviews &&
    a.freelancerRatingSum === b.freelancerRatingSum &&
    a.buyerReviews === b.buyerReviews &&
    a.buyerRatingSum === b.buyerRatingSum &&
    a.completedAsFreelancer === b.completedAsFreelancer &&
    a.completedAsBuyer === b.completedAsBuyer
  );
}

// --- The board ---------------------------------------------------------------------------------

export const BOARD_SORTS = [
  ['newest', 'Newest'],
  ['best-rated', 'Best rated buyers'],
] as const;
export type BoardSort = (typeof BOARD_SORTS)[number][0];

/** The board's minimum buyer rating choices; null is "Any rating". */
export const MIN_RATINGS = [null, 3, 4, 4.5] as const;
export type MinRating = (typeof MIN_RATINGS)[number];

export function minRatingLabel(min: MinRating): string {
  return min === null ? 'Any rating' : `${min.toFixed(1)} and up`;
}

/** A buyer rated at least `min` (shown value, one decimal); a buyer without reviews passes only "Any rating". */
export function meetsMinRating(t: RatingTally | undefined, min: MinRating): boolean {
  if (min === null) return true;
  const avg = t ? averageRating(t) : null;
  return avg !== null && avg >= min;
}

/**
 * "Best rated buyers": rated buyers first, by their shown average, then by how many reviews it
 * rests on, then newest first (the board's own order); buyers without reviews after them, newest
 * first. `ratingOf` gives a creator's tally (a Map lookup: creator ids come from users).
 */
export function byBuyerRating<G extends { createdBy: string; createdAt: number; id: string }>(
  gigs: readonly G[],
  ratingOf: (creatorId: string) => RatingTally | undefined,
): G[] {
  const keyed = gigs.map((gig) => {
    const t = ratingOf(gig.createdBy);
    return { gig, avg: t ? (averageRating(t) ?? -1) : -1, count: t?.count ?? 0 };
  });
  keyed.sort(
    (a, b) =>
      b.avg - a.avg ||
      b.count - a.count ||
      b.gig.createdAt - a.gig.createdAt ||
      (a.gig.id < b.gig.id ? -1 : a.gig.id > b.gig.id ? 1 : 0),
  );
  return keyed.map((k) => k.gig);
}
