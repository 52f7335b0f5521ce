import { reviewWindowOf } from '../shared/reviews';
import type { IndexDefinitions, StoredDoc } from './store/store';

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const WORK_STATES = new Set(['DELIVERED', 'DISPUTED', 'SETTLING', 'SETTLEMENT_FAILED']);

/** A time's UTC calendar day, YYYY-MM-DD. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The key of a receiver's unread message notice of one conversation (the `unreadMessage` index):
 * JSON, so no id can make two pairs meet, and free of the NUL characters PostgreSQL's text refuses.
 */
export function unreadMessageKey(userId: string, conversationId: string): string {
  return JSON.stringify([userId, conversationId]);
}

/**
 * The key of the applications a user (`applicantId`) made to another's gigs (`creatorId`): the
 * `pair` index, read to know what links two users (domain/links.ts). JSON, as above.
 */
export function applicationPairKey(applicantId: string, creatorId: string): string {
  return JSON.stringify([applicantId, creatorId]);
}

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
    // What links two users (a chat's access and every message's record, the read filter of a
    // profile): the pair's own applications, not every application either of them ever made.
    pair: (d) => {
      const applicantId = str(d.applicantId);
      const creatorId = str(d.creatorId);
      return applicantId && creatorId ? applicationPairKey(applicantId, creatorId) : undefined;
    },
    // Work the server looks after (decision 031): delivered work waiting for its automatic release,
    // money being settled, open disputes and refused payments (the operators' page).
    workState: (d) => (typeof d.status === 'string' && WORK_STATES.has(d.status) ? d.status : undefined),
    // Completed work by the UTC day its review window closes: the review timers look only at the
    // days of open windows (sync-server/reviews/timers.ts), not at every application ever made.
    reviewWindowCloses: (d) => {
      const window = reviewWindowOf({ status: d.status, completedAt: d.completedAt });
      return window ? utcDay(window.closesAt) : undefined;
    },
  },
  reviews: {
    applicationId: (d) => str(d.applicationId),
    subjectId: (d) => str(d.subjectId),
    // Reviews waiting for the other side or for their window to close (bounded by open windows).
    unpublished: (d) => (d.publishedAt === null && !d._deleted ? 'waiting' : undefined),
  },
  // Nothing reads a user's notifications or conversations by user: the pulls filter the feed, and
  // the chat record finds its notice by this one key.
  notifications: {
    // The receiver's unread new_message notice of a conversation, which each new message updates
    // (chat/record.ts): one lookup, however many notifications the receiver ever had.
    unreadMessage: (d) => {
      const userId = str(d.userId);
      const conversationId = str(d.conversationId);
      return d.type === 'new_message' && d.read !== true && !d._deleted && userId && conversationId
        ? unreadMessageKey(userId, conversationId)
        : undefined;
    },
  },
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
