import { z } from 'zod';
import { COUNTRY_CODES, CURRENCY_CODES, LIMITS, LOCATION_TYPES } from '../constants';
import { idSchema, isoDaySchema, timestampSchema, toRxSchema } from './common';

/** SPEC.md §3 Gig. creatorEmail stays on the server (ARCHITECTURE.md: emails only between linked users). */
export const gigSchema = z.object({
  id: idSchema,
  title: z.string().max(LIMITS.titleMax),
  description: z.string().max(LIMITS.descriptionMax),
  /** The niche display name. */
  category: z.string().max(64),
  locationType: z.enum(LOCATION_TYPES),
  country: z.enum(COUNTRY_CODES).optional(),
  city: z.string().max(LIMITS.cityMax).optional(),
  /** Text: a range such as 500-1000, or a single amount; empty for passion-driven gigs. */
  budget: z.string().max(LIMITS.budgetTextMax),
  isPassionDriven: z.boolean(),
  currency: z.enum(CURRENCY_CODES),
  /** Comma-separated, normalised to ", " between skills. */
  skills: z.string().max(LIMITS.skillsMax),
  projectDeadline: isoDaySchema.optional(),
  projectDate: isoDaySchema.optional(),
  createdAt: timestampSchema,
  createdBy: idSchema,
  creatorName: z.string().max(LIMITS.nameMax),
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
