import { z } from 'zod';
import { COUNTRY_CODES, CURRENCY_CODES, LIMITS, LOCATION_TYPES } from '../constants';
import { idSchema, isoDaySchema, timestampSchema, toRxSchema, userText } from './common';

/** docs/product.md §3 Gig. creatorEmail stays on the server: a gig is public, an email is not (decision 003). */
export const gigSchema = z.object({
  id: idSchema,
  title: userText(LIMITS.titleMax),
  description: userText(LIMITS.descriptionMax),
  /** The niche display name. */
  category: z.string().max(64),
  locationType: z.enum(LOCATION_TYPES),
  country: z.enum(COUNTRY_CODES).optional(),
  city: userText(LIMITS.cityMax).optional(),
  /** Text: a range such as 500-1000, or a single amount; empty for passion-driven gigs. */
  budget: userText(LIMITS.budgetTextMax),
  isPassionDriven: z.boolean(),
  currency: z.enum(CURRENCY_CODES),
  /** Comma-separated, normalised to ", " between skills. */
  skills: userText(LIMITS.skillsMax),
  projectDeadline: isoDaySchema.optional(),
  projectDate: isoDaySchema.optional(),
  createdAt: timestampSchema,
  createdBy: idSchema,
  creatorName: userText(LIMITS.nameMax),
  status: z.string().max(32),
  /** How many people the gig hires, 1 to 50; absent on gigs written before openings existed (read as 1). */
  openings: z.number().int().min(1).max(50).optional(),
  /** Server-set when accepted offers reach the openings; null once openings are added again. */
  filledAt: timestampSchema.nullable().optional(),
  updatedAt: timestampSchema,
});
export type Gig = z.infer<typeof gigSchema>;

export const gigRxSchema = toRxSchema(gigSchema, {
  // Version 1 added openings and filledAt (both optional: version 0 documents migrate unchanged).
  version: 1,
  indexes: ['createdAt', 'createdBy'],
  maxLengths: { createdBy: 64 },
});
