import { z } from 'zod';
import { LIMITS } from '../constants';
import { REVIEW_ROLES, REVIEW_RULES } from '../reviews';
import { idSchema, timestampSchema, toRxSchema, userText } from './common';

/**
 * A review one side of completed work wrote about the other (docs/decisions/032-reviews-and-profiles.md).
 * The author writes the id (a random one), the application, the rating and the text; the server
 * sets everything else, and `publishedAt` once both sides have written or the window closed. Until
 * then the review is replicated to its author only (the blind rule, shared/reviews.ts).
 */
export const reviewSchema = z.object({
  id: idSchema,
  applicationId: z.string().max(140),
  gigId: idSchema,
  gigTitle: userText(LIMITS.titleMax),
  authorId: idSchema,
  authorName: userText(LIMITS.nameMax),
  /** The side the author was on: a buyer's review rates the freelancer, and the other way round. */
  authorRole: z.enum(REVIEW_ROLES),
  subjectId: idSchema,
  subjectName: userText(LIMITS.nameMax),
  rating: z.number().int().min(REVIEW_RULES.ratingMin).max(REVIEW_RULES.ratingMax),
  text: userText(REVIEW_RULES.textMax),
  createdAt: timestampSchema,
  /** The application's completion plus the 14-day window. */
  windowClosesAt: timestampSchema,
  publishedAt: timestampSchema.nullable(),
  /** The reviewed person's one public reply. */
  reply: userText(REVIEW_RULES.replyMax).nullable(),
  repliedAt: timestampSchema.nullable(),
  updatedAt: timestampSchema,
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewRxSchema = toRxSchema(reviewSchema, {
  indexes: ['applicationId', 'subjectId'],
  maxLengths: { applicationId: 140, subjectId: 64 },
});
