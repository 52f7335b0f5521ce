import { z } from 'zod';
import { COUNTRY_CODES, LIMITS } from '../constants';
import { timestampSchema, userText } from './common';

/** docs/product.md §3 Waitlist entry. Never replicated: a plain public POST. */
export const waitlistEntrySchema = z.object({
  name: userText(LIMITS.nameMax),
  email: z.string().max(LIMITS.emailMax),
  location: z.enum(COUNTRY_CODES),
  city: userText(LIMITS.cityMax),
  submittedAt: timestampSchema,
  status: z.literal('pending'),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
