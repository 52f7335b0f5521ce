import { quoted } from '../../../shared/text';

/** The collections as the sync panel names them. */
export const COLLECTION_LABELS: Record<string, string> = {
  users: 'Profile',
  gigs: 'Gigs',
  applications: 'Applications',
  notifications: 'Notifications',
  conversations: 'Conversations',
  syncproblems: 'Refused changes kept',
};

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/**
 * What a change is, in a few words a user recognises ("Application to “Album cover”"), from the
 * document as this device holds it (or the content kept of a refused one). Names and titles are
 * quoted, as everywhere the app puts user text in its own sentences (decision 013).
 */
export function describeChange(collection: string, doc: Record<string, unknown> | undefined, deleted = false): string {
  const title = text(doc?.title) ?? text(doc?.gigTitle);
  const gig = title ? quoted(title) : 'a gig';
  switch (collection) {
    case 'gigs':
      return deleted ? `Deleting the gig ${gig}` : title ? `Gig ${gig}` : 'A gig';
    case 'applications': {
      if (deleted) return `Withdrawing the application to ${gig}`;
      const applicant = text(doc?.applicantName);
      switch (doc?.status) {
        case 'PENDING_ACCEPTANCE':
        case 'SELECTED':
          return applicant ? `Offer to ${quoted(applicant)} for ${gig}` : `Offer for ${gig}`;
        case 'PENDING_PAYMENT':
        case 'IN_PROGRESS':
          return `Starting work on ${gig}`;
        case 'REJECTED':
          return `Declining the offer for ${gig}`;
        case 'COMPLETED':
        case 'SETTLING':
          return `Completing ${gig}`;
        case 'DELIVERED':
          return `Submitting work for ${gig}`;
        case 'CANCELLATION_REQUESTED':
          return `Asking to cancel ${gig}`;
        case 'DISPUTED':
          return `Opening a dispute on ${gig}`;
        case 'WITHDRAWN':
          return `Withdrawing the application to ${gig}`;
        case 'CANCELLED':
          return `Cancelling the offer for ${gig}`;
        default:
          return `Application to ${gig}`;
      }
    }
    case 'users':
      return 'Profile change';
    case 'notifications':
      return 'Notification marked as read';
    case 'conversations':
      return 'Conversation started';
    default:
      return 'Change';
  }
}
