import { z } from 'zod';
import { APPLICATION_STATUSES, COUNTRY_CODES, CURRENCY_CODES, LIMITS } from '../constants';
import { idSchema, minorUnitsSchema, timestampSchema, toRxSchema, userText } from './common';

/** docs/product.md §3 Application. Money fields are integer minor units. */
export const applicationSchema = z.object({
  /** `${gigId}.${applicantId}`: one application per applicant and gig. */
  id: z.string().max(140),
  gigId: idSchema,
  gigTitle: userText(LIMITS.titleMax),
  gigCategory: z.string().max(64),
  creatorId: idSchema,
  creatorName: userText(LIMITS.nameMax),
  /** Each side sees the other's email only once an offer is accepted (decision 003); always their own. */
  creatorEmail: z.string().max(LIMITS.emailMax).optional(),
  applicantId: idSchema,
  applicantName: userText(LIMITS.nameMax),
  applicantEmail: z.string().max(LIMITS.emailMax).optional(),
  applicantPortfolioLink: userText(LIMITS.urlMax),
  applicantCountry: z.enum(COUNTRY_CODES).optional(),
  /** The applicant's offer. */
  budget: minorUnitsSchema,
  currency: z.enum(CURRENCY_CODES),
  status: z.enum(APPLICATION_STATUSES),
  appliedAt: timestampSchema,
  finalBudget: minorUnitsSchema.nullable(),
  startedAt: timestampSchema.nullable(),
  completedAt: timestampSchema.nullable(),
  paymentConfirmedAt: timestampSchema.nullable(),
  /** Set when the gig is deleted: the application stays readable to both parties. */
  gigDeleted: z.boolean().optional(),
  updatedAt: timestampSchema,
});
export type Application = z.infer<typeof applicationSchema>;

export const applicationRxSchema = toRxSchema(applicationSchema, {
  // Version 1 added the CLOSED status (version 0 documents migrate unchanged).
  version: 1,
  indexes: ['gigId', 'applicantId', 'creatorId'],
  maxLengths: { gigId: 64, applicantId: 64, creatorId: 64 },
});
