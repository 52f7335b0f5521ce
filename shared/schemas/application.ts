import { z } from 'zod';
import { APPLICATION_STATUSES, COUNTRY_CODES, CURRENCY_CODES, LIMITS } from '../constants';
import { idSchema, minorUnitsSchema, timestampSchema, toRxSchema, userText } from './common';

const workNote = userText(LIMITS.workNoteMax);

/**
 * One submission of work (issue 15): the freelancer's note and optional link, and the buyer's
 * change request when they asked for changes on it. Times are the server's.
 */
export const submissionSchema = z.object({
  note: workNote,
  link: userText(LIMITS.urlMax).optional(),
  submittedAt: timestampSchema,
  changesRequested: z.object({ note: workNote, at: timestampSchema }).optional(),
});
export type Submission = z.infer<typeof submissionSchema>;

/** Who ended up with the buyer's money, as decided (docs/decisions/031-money-nobody-strands.md). */
export const SETTLEMENT_KINDS = ['release', 'refund', 'split'] as const;
export type SettlementKind = (typeof SETTLEMENT_KINDS)[number];
/** Who decided it: a party, an operator, the automatic release, or the server (a payment after cancellation). */
export const SETTLEMENT_DECIDERS = ['buyer', 'freelancer', 'operator', 'automatic', 'server'] as const;

export const settlementSchema = z.object({
  kind: z.enum(SETTLEMENT_KINDS),
  by: z.enum(SETTLEMENT_DECIDERS),
  /** The status before the settlement started (a release the buyer asked for returns to it when refused). */
  from: z.enum(APPLICATION_STATUSES),
  /** The part of the final budget paid to the freelancer, before the platform's 10%. */
  freelancerBase: minorUnitsSchema,
  /** What the freelancer receives (freelancerBase less the platform fee). */
  toFreelancer: minorUnitsSchema,
  /** What the buyer gets back, their service fee's share included. */
  refund: minorUnitsSchema,
  decidedAt: timestampSchema,
  settledAt: timestampSchema.nullable(),
  /** Set while the provider's refusal stands (SETTLEMENT_FAILED). */
  failure: userText(500).nullable(),
  /**
   * When the buyer's refund went out, if the settlement was refused after it (a split refunds
   * first, then pays the freelancer): what the texts of a refused payout say moved.
   */
  refundedAt: timestampSchema.nullable().optional(),
});
export type Settlement = z.infer<typeof settlementSchema>;

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
  // Issue 15 (decision 031). All optional: documents written before stay valid.
  /** Every submission of work, oldest first. */
  submissions: z.array(submissionSchema).max(LIMITS.submissionsMax).optional(),
  /** When the latest submission arrived, and when it is released automatically unless the buyer answers. */
  deliveredAt: timestampSchema.nullable().optional(),
  autoReleaseAt: timestampSchema.nullable().optional(),
  /** The buyer's request to cancel paid work, and the freelancer's refusal of it. */
  cancellation: z
    .object({
      note: workNote.optional(),
      requestedAt: timestampSchema,
      refusedAt: timestampSchema.nullable().optional(),
    })
    .optional(),
  dispute: z.object({ by: z.enum(['buyer', 'freelancer']), reason: workNote, openedAt: timestampSchema }).optional(),
  /** Server only: how the buyer's money is being (or was) settled. */
  settlement: settlementSchema.optional(),
  updatedAt: timestampSchema,
});
export type Application = z.infer<typeof applicationSchema>;

export const applicationRxSchema = toRxSchema(applicationSchema, {
  // Version 1 added the CLOSED status, version 2 delivery, cancellation, dispute and settlement
  // (optional fields and new statuses), version 3 the settlement's refundedAt (optional): older
  // documents migrate unchanged.
  version: 3,
  indexes: ['gigId', 'applicantId', 'creatorId'],
  maxLengths: { gigId: 64, applicantId: 64, creatorId: 64 },
});
