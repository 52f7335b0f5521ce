import { z } from 'zod';
import { COUNTRY_CODES, LIMITS, NICHE_IDS } from '../constants';
import { idSchema, timestampSchema, toRxSchema, userText } from './common';
import { reputationSchema } from './reputation';

/** The public profile: what any user linked by an application may see of another (no email, no payout ids). */
export const publicProfileSchema = z.object({
  id: idSchema,
  name: userText(LIMITS.nameMax),
  username: userText(64).optional(),
  location: z.enum(COUNTRY_CODES).optional(),
  creativeNiche: z.enum(NICHE_IDS).optional(),
  subcategory: userText(64).optional(),
  portfolioLink: userText(LIMITS.urlMax).optional(),
  bio: userText(LIMITS.bioMax).optional(),
  /** Written by the server only (decision 032); a device's copy of it is ignored on push. */
  reputation: reputationSchema.optional(),
  updatedAt: timestampSchema,
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

export const PAYOUT_STATUSES = ['none', 'pending', 'active'] as const;

/** The full user record (docs/product.md §3 User), replicated only to its owner. */
export const userSchema = publicProfileSchema.extend({
  email: z.string().max(LIMITS.emailMax).optional(),
  termsAccepted: z.boolean().optional(),
  termsAcceptedAt: timestampSchema.optional(),
  createdAt: timestampSchema.optional(),
  stripeAccountId: z.string().max(255).optional(),
  payoutStatus: z.enum(PAYOUT_STATUSES).optional(),
});
export type User = z.infer<typeof userSchema>;

/**
 * One collection on the client holds the own record in full and others' public profiles.
 * Version 1 added the reputation (optional: version 0 documents migrate unchanged).
 */
export const userRxSchema = toRxSchema(userSchema, { version: 1 });

/** portfolios/{uid} (docs/product.md §3 Portfolio). */
export const portfolioSchema = z.object({
  id: idSchema,
  portfolioLink: z.string().max(LIMITS.urlMax),
});
export type Portfolio = z.infer<typeof portfolioSchema>;
