import { z } from 'zod';
import { COUNTRY_CODES, LIMITS, NICHE_IDS } from './constants';
import { isId } from './ids';
import { REVIEW_ROLES, REVIEW_RULES } from './reviews';
import { idSchema, timestampSchema } from './schemas/common';
import { reputationSchema } from './schemas/reputation';
import { USERNAME_MAX } from './validation/portfolio';

/**
 * Public profile pages, `/u/{username}` (docs/decisions/032-reviews-and-profiles.md): what
 * `GET /api/profiles/:username` answers to any signed-in user, and how a username names a member.
 */

/**
 * The key a username is known by: trimmed and lower-cased, so "Ada" and "ada " are one name (one
 * member may hold it). No other folding: the key must be exactly what the server compares.
 */
export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

/** Whether a path segment can be a username at all (before any lookup). */
export function isUsernameShaped(username: string): boolean {
  const trimmed = username.trim();
  return trimmed.length > 0 && trimmed.length <= USERNAME_MAX && trimmed === username;
}

export const PROFILE_MESSAGES = {
  notFound: 'No member has this username.',
  usernameTaken: 'This username is taken. Please choose another.',
  loadFailed: 'This profile could not be loaded. Please check your connection and try again.',
  tooMany: 'Too many profile requests. Please wait a moment and try again.',
} as const;

/** Published reviews per page of a profile, newest first. */
export const PROFILE_REVIEWS_PAGE = 20;

/** A published review as a profile page shows it. */
export const profileReviewSchema = z.object({
  id: idSchema,
  authorId: idSchema,
  authorName: z.string().max(LIMITS.nameMax),
  /** The author's username now, for the link to their profile (absent when they have none). */
  authorUsername: z.string().max(USERNAME_MAX).optional(),
  authorRole: z.enum(REVIEW_ROLES),
  gigTitle: z.string().max(LIMITS.titleMax),
  rating: z.number().int().min(REVIEW_RULES.ratingMin).max(REVIEW_RULES.ratingMax),
  text: z.string().max(REVIEW_RULES.textMax),
  publishedAt: timestampSchema,
  reply: z.string().max(REVIEW_RULES.replyMax).nullable(),
  repliedAt: timestampSchema.nullable(),
});
export type ProfileReview = z.infer<typeof profileReviewSchema>;

/** The answer of `GET /api/profiles/:username`: never an email or a payout detail. */
export const profilePageSchema = z.object({
  profile: z.object({
    id: idSchema,
    name: z.string().max(LIMITS.nameMax),
    username: z.string().max(USERNAME_MAX),
    location: z.enum(COUNTRY_CODES).optional(),
    creativeNiche: z.enum(NICHE_IDS).optional(),
    subcategory: z.string().max(64).optional(),
    bio: z.string().max(LIMITS.bioMax).optional(),
    portfolioLink: z.string().max(LIMITS.urlMax).optional(),
    memberSince: timestampSchema.optional(),
    /** The profile's version: a newer copy on the device (a linked member's) is shown instead. */
    updatedAt: timestampSchema,
  }),
  reputation: reputationSchema,
  reviews: z.array(profileReviewSchema).max(PROFILE_REVIEWS_PAGE),
  /** The cursor of the next page (`?before=`), or null on the last one. */
  nextBefore: z.string().max(100).nullable(),
});
export type ProfilePage = z.infer<typeof profilePageSchema>;

/** A page cursor: the last shown review's publication time and id (ids hold no underscore). */
export function reviewCursor(review: { publishedAt: number; id: string }): string {
  return `${review.publishedAt}_${review.id}`;
}

export function parseReviewCursor(cursor: unknown): { publishedAt: number; id: string } | undefined {
  if (typeof cursor !== 'string') return undefined;
  const match = /^(\d{1,16})_(.+)$/.exec(cursor);
  if (!match || !isId(match[2])) return undefined;
  return { publishedAt: Number(match[1]), id: match[2] };
}

/** Newest first: by publication, then by id, so a page boundary never splits or repeats. */
export function newestFirst(a: { publishedAt: number; id: string }, b: { publishedAt: number; id: string }): number {
  return b.publishedAt - a.publishedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** "March 2026": when a member joined. */
export function memberSinceLabel(at: number): string {
  return new Date(at).toLocaleDateString('en-GB', { month: 'long', year: 'numeric' });
}
