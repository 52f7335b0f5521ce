import type { IndexDefinitions, StoredDoc } from './store/store';

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const WORK_STATES = new Set(['DELIVERED', 'DISPUTED', 'SETTLING', 'SETTLEMENT_FAILED']);

/** The secondary indexes the policies, read filters and auth need. */
export const INDEXES: IndexDefinitions = {
  credentials: { email: (d: StoredDoc) => str(d.email) },
  // Provider webhooks name the payout account, not the user.
  users: { stripeAccountId: (d) => str(d.stripeAccountId) },
  gigs: { createdBy: (d) => str(d.createdBy) },
  applications: {
    gigId: (d) => str(d.gigId),
    applicantId: (d) => str(d.applicantId),
    creatorId: (d) => str(d.creatorId),
    // Work the server looks after (decision 031): delivered work waiting for its automatic release,
    // money being settled, open disputes and refused payments (the operators' page).
    workState: (d) => (typeof d.status === 'string' && WORK_STATES.has(d.status) ? d.status : undefined),
  },
  notifications: { userId: (d) => str(d.userId) },
  conversations: { participant: (d) => (Array.isArray(d.participants) ? (d.participants as string[]) : undefined) },
  sessions: { userId: (d) => str(d.userId) },
  waitlist: { email: (d) => str(d.email) },
  // Web push (push/subscriptions.ts): a user's devices, a session's device, a device's record by endpoint.
  pushsubscriptions: {
    userId: (d) => str(d.userId),
    sessionId: (d) => str(d.sessionId),
    endpointKey: (d) => str(d.endpointKey),
  },
  ledger: {
    applicationId: (d) => str(d.applicationId),
    // Payouts waiting for the freelancer's payout account (payments/ledger.ts).
    heldFor: (d) => (d.kind === 'transfer' && d.status === 'held' ? str(d.freelancerId) : undefined),
  },
};
