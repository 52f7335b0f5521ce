import { z } from 'zod';
import { api } from './api';
import type { SettlementKind } from '../../shared/schemas/application';

/**
 * The operator area's endpoints (decision 031): the open disputes and refused payments, and a
 * dispute's resolution. They answer 404 to anyone OPERATOR_EMAILS does not list.
 */

const party = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() });
const disputeView = z.looseObject({
  applicationId: z.string(),
  status: z.string(),
  gig: z.object({ id: z.string(), title: z.string(), category: z.string(), deleted: z.boolean() }),
  buyer: party,
  freelancer: party,
  payment: z.object({
    base: z.number(),
    fee: z.number(),
    total: z.number(),
    currency: z.string(),
    paidAt: z.number().nullable(),
  }),
  submissions: z.array(
    z.looseObject({
      note: z.string(),
      link: z.string().optional(),
      submittedAt: z.number(),
      changesRequested: z.object({ note: z.string(), at: z.number() }).optional(),
    }),
  ),
  cancellation: z.looseObject({ note: z.string().optional(), requestedAt: z.number() }).nullable(),
  dispute: z.object({ by: z.enum(['buyer', 'freelancer']), reason: z.string(), openedAt: z.number() }).nullable(),
  settlement: z
    .looseObject({
      kind: z.string(),
      toFreelancer: z.number(),
      refund: z.number(),
      failure: z.string().nullable(),
      refundedAt: z.number().nullable().optional(),
    })
    .nullable(),
  conversation: z.array(
    z.object({ from: z.enum(['buyer', 'freelancer']), content: z.string(), at: z.number().nullable() }),
  ),
  conversationTruncated: z.boolean(),
});
export type DisputeView = z.infer<typeof disputeView>;
const queue = z.object({ disputes: z.array(disputeView), failed: z.array(disputeView) });
export type OperatorQueue = z.infer<typeof queue>;

export async function getOperatorQueue(): Promise<OperatorQueue> {
  return queue.parse(await api<unknown>('GET', '/api/operator/disputes'));
}

/** Resolves a dispute: a refund in full, a release in full, or a split giving `freelancerAmount` of the final budget to the freelancer. */
export async function resolveDispute(
  applicationId: string,
  outcome: SettlementKind,
  freelancerAmount?: number,
): Promise<void> {
  await api('POST', '/api/operator/disputes/resolve', {
    applicationId,
    outcome,
    ...(freelancerAmount !== undefined ? { freelancerAmount } : {}),
  });
}
