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
  updatedAt: timestampSchema,
});
export type Gig = z.infer<typeof gigSchema>;

export const gigRxSchema = toRxSchema(gigSchema, {
  indexes: ['createdAt', 'createdBy'],
  maxLengths: { createdBy: 64 },
});
