import { describe, expect, it } from 'vitest';
import {
  averageRating,
  byBuyerRating,
  completedLabel,
  meetsMinRating,
  minRatingLabel,
  ratingSpoken,
  ratingSummary,
  reputationFields,
  type RatingTally,
} from './reputation';

describe('averages', () => {
  it.each([
    [{ count: 0, sum: 0 }, null],
    [{ count: 1, sum: 5 }, 5],
    [{ count: 2, sum: 9 }, 4.5],
    [{ count: 4, sum: 17 }, 4.3], // 4.25 rounds half up to one decimal
    [{ count: 3, sum: 13 }, 4.3], // 4.333…
    [{ count: 3, sum: 11 }, 3.7],
    [{ count: 25, sum: 99 }, 4],
  ])('[A1] %j averages %s', (tally, average) => {
    expect(averageRating(tally)).toBe(average);
  });

  it('[A2] are shown with one decimal and a count, and read out in words', () => {
    expect(ratingSummary({ count: 0, sum: 0 })).toBe('No reviews yet');
    expect(ratingSummary({ count: 1, sum: 4 })).toBe('4.0 (1 review)');
    expect(ratingSummary({ count: 12, sum: 54 })).toBe('4.5 (12 reviews)');
    expect(ratingSpoken({ count: 12, sum: 54 })).toBe('Rated 4.5 out of 5 from 12 reviews');
    expect(completedLabel(1)).toBe('1 completed gig');
    expect(completedLabel(0)).toBe('0 completed gigs');
  });

  it('[A3] count completed gigs per side once each, and only published reviews, by the side they rate', () => {
    const done = (gigId: string) => ({ status: 'COMPLETED' as const, completedAt: 1, gigId });
    const fields = reputationFields({
      asApplicant: [done('g1'), done('g2'), { status: 'IN_PROGRESS', completedAt: null, gigId: 'g3' }],
      asCreator: [done('g4'), done('g4'), done('g5')],
      about: [
        { authorRole: 'buyer', rating: 5, publishedAt: 10 },
        { authorRole: 'buyer', rating: 4, publishedAt: 11 },
        { authorRole: 'buyer', rating: 1, publishedAt: null },
        { authorRole: 'freelancer', rating: 3, publishedAt: 12 },
      ],
    });
    expect(fields).toEqual({
      freelancerReviews: 2,
      freelancerRatingSum: 9,
      buyerReviews: 1,
      buyerRatingSum: 3,
      completedAsFreelancer: 2,
      completedAsBuyer: 2,
    });
  });
});

describe('the board by buyer rating', () => {
  const tallies = new Map<string, RatingTally>([
    ['top', { count: 2, sum: 10 }], // 5.0 from 2
    ['many', { count: 40, sum: 200 }], // 5.0 from 40
    ['good', { count: 4, sum: 17 }], // 4.3
    ['fair', { count: 3, sum: 11 }], // 3.7
  ]);
  const ratingOf = (id: string) => tallies.get(id);
  const gig = (id: string, createdBy: string, createdAt: number) => ({ id, createdBy, createdAt });

  it('[S1] best rated buyers first, more reviews first on a tie, then newest; unrated buyers last, newest first', () => {
    const gigs = [
      gig('g1', 'fair', 5),
      gig('g2', 'nobody', 9),
      gig('g3', 'top', 1),
      gig('g4', 'many', 2),
      gig('g5', 'good', 3),
      gig('g6', 'nobody', 8),
      gig('g7', 'many', 7),
    ];
    expect(byBuyerRating(gigs, ratingOf).map((g) => g.id)).toEqual(['g7', 'g4', 'g3', 'g5', 'g1', 'g2', 'g6']);
  });

  it.each([
    [null, ['top', 'many', 'good', 'fair', 'nobody']],
    [3, ['top', 'many', 'good', 'fair']],
    [4, ['top', 'many', 'good']],
    [4.5, ['top', 'many']],
  ] as const)('[S2] minimum %s keeps %j', (min, kept) => {
    const all = ['top', 'many', 'good', 'fair', 'nobody'];
    expect(all.filter((id) => meetsMinRating(ratingOf(id), min))).toEqual(kept);
  });

  it('[S3] filters on the shown value: a buyer shown as 4.0 passes "4.0 and up"', () => {
    expect(averageRating({ count: 25, sum: 99 })).toBe(4); // 3.96
    expect(meetsMinRating({ count: 25, sum: 99 }, 4)).toBe(true);
    expect(minRatingLabel(4)).toBe('4.0 and up');
    expect(minRatingLabel(null)).toBe('Any rating');
  });
});
