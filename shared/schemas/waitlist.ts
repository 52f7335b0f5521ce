import { z } from 'zod';
import { COUNTRY_CODES, LIMITS } from '../constants';
import { timestampSchema } from './common';

/** SPEC.md §3 Waitlist entry. Never replicated: a plain public POST. */
export const waitlistEntrySchema = z.object({
  name: z.string().max(LIMITS.nameMax),
  email: z.string().max(LIMITS.emailMax),
  location: z.enum(COUNTRY_CODES),
  city: z.string().max(LIMITS.cityMax),
  submittedAt: timestampSchema,
  status: z.literal('pending'),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
