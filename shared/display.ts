import { countryByCode, isAcceptedOffer, NEW_APPLICATION_WINDOW_MS } from './constants';
import type { Application } from './schemas/application';
import type { Conversation } from './schemas/conversation';
import type { Gig } from './schemas/gig';
import type { Notification } from './schemas/notification';
import { currencySymbol, formatMoney } from './money';
import { applicationIdParts } from './ids';
import { exchangePath, gigPath, PATHS, reviewPath } from './routes';
import { parseBudgetText } from './validation/budget-text';

/** Small display rules the screens share (docs/product.md §2 "Screen behaviour"). */

export const PASSION_DRIVEN = 'Passion Driven';

/**
 * 'Passion Driven' instead of a budget; otherwise the budget in the app's one money format
 * ('C$250.00', 'C$500.00 - C$1,000.00'). Text that does not read as a budget (written before the
 * budget rule) is shown as typed after the symbol.
 */
export function budgetLabel(gig: Pick<Gig, 'isPassionDriven' | 'budget' | 'currency'>): string {
  if (gig.isPassionDriven) return PASSION_DRIVEN;
  const range = parseBudgetText(gig.budget);
  if (!range) return `${currencySymbol(gig.currency)}${gig.budget.trim()}`;
  const min = formatMoney(range.min, gig.currency);
  return range.min === range.max ? min : `${min} - ${formatMoney(range.max, gig.currency)}`;
}

/** An applicant's offer: an offer of nothing is work for the love of it (docs/decisions/016-first-steps.md). */
export function offerLabel(minor: number, currency: string): string {
  return minor === 0 ? PASSION_DRIVEN : formatMoney(minor, currency);
}

/** Gig cards show the first two skills and '+N more'. */
export function skillPreview(skills: string): { shown: string[]; moreLabel: string | null } {
  const all = skills
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const more = all.length - 2;
  return { shown: all.slice(0, 2), moreLabel: more > 0 ? `+${more} more` : null };
}

/** The shown status of a gig: from the first of its applications in PENDING_PAYMENT, IN_PROGRESS or COMPLETED; otherwise the gig's own. */
export function shownGigStatus(gig: Pick<Gig, 'status'>, applications: Pick<Application, 'status'>[]): string {
  return applications.find((a) => isAcceptedOffer(a.status))?.status ?? gig.status;
}

const STATUS_LABELS: Record<string, string> = {
  active: 'Open',
  PENDING: 'New applicant',
  PENDING_ACCEPTANCE: 'Waiting for freelancer to accept',
  SELECTED: 'Waiting for freelancer to accept',
  PENDING_PAYMENT: 'Waiting for payment',
  IN_PROGRESS: 'In progress',
  COMPLETED: 'Completed',
  REJECTED: 'Declined',
  CLOSED: 'Closed: position filled',
  // Decision 031.
  DELIVERED: 'Work delivered',
  CANCELLATION_REQUESTED: 'Cancellation requested',
  DISPUTED: 'In dispute',
  SETTLING: 'Payment being settled',
  SETTLEMENT_FAILED: 'Payment refused: can be tried again',
  REFUNDED: 'Refunded',
  SPLIT: 'Split by an operator',
  WITHDRAWN: 'Withdrawn',
  CANCELLED: 'Cancelled',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

/** A new-application badge for applications made within the last 24 hours. */
export function isNewApplication(appliedAt: number, now: number): boolean {
  return now - appliedAt >= 0 && now - appliedAt < NEW_APPLICATION_WINDOW_MS;
}

/**
 * The icon of each notification type, by name: the client draws each name as an SVG icon (no
 * emoji, which draw as empty boxes where no emoji font is installed).
 */
export const NOTIFICATION_ICON_NAMES = [
  'application',
  'conversation',
  'message',
  'offer',
  'payment',
  'paid',
  'started',
  'completed',
  'declined',
  'status',
  'delivered',
  'changes',
  'released',
  'withdrawn',
  'cancelled',
  'refund',
  'dispute',
  'resolved',
  'problem',
  'review',
  'default',
] as const;
export type NotificationIconName = (typeof NOTIFICATION_ICON_NAMES)[number];

const ICONS: Record<string, NotificationIconName> = {
  new_application: 'application',
  new_conversation: 'conversation',
  new_message: 'message',
  message: 'message',
  new_offer: 'offer',
  FINAL_BUDGET_OFFER: 'offer',
  payment_needed: 'payment',
  PAYMENT_CONFIRMED: 'paid',
  gig_in_progress: 'started',
  GIG_STARTED: 'started',
  gig_completed: 'completed',
  GIG_COMPLETED: 'completed',
  OFFER_REJECTED: 'declined',
  application_status: 'status',
  WORK_DELIVERED: 'delivered',
  CHANGES_REQUESTED: 'changes',
  PAYMENT_RELEASED: 'released',
  APPLICATION_WITHDRAWN: 'withdrawn',
  OFFER_WITHDRAWN: 'withdrawn',
  WORK_CANCELLED: 'cancelled',
  CANCELLATION_REQUESTED: 'cancelled',
  CANCELLATION_REFUSED: 'declined',
  REFUND_ISSUED: 'refund',
  DISPUTE_OPENED: 'dispute',
  DISPUTE_RESOLVED: 'resolved',
  PAYMENT_PROBLEM: 'problem',
  REVIEW_REQUESTED: 'review',
  REVIEW_REMINDER: 'review',
  REVIEW_RECEIVED: 'review',
  REVIEW_PUBLISHED: 'review',
};
export const DEFAULT_NOTIFICATION_ICON: NotificationIconName = 'default';

/** Each notification type has an icon, and a default icon covers the rest. */
export function notificationIcon(type: string): NotificationIconName {
  return ICONS[type] ?? DEFAULT_NOTIFICATION_ICON;
}

const MESSAGE_TYPES = new Set(['new_message', 'message', 'new_conversation']);
export function isMessageNotification(type: string): boolean {
  return MESSAGE_TYPES.has(type);
}

/**
 * Where a notification click goes (docs/product.md §10): application types → /applications;
 * offer, payment and work-status types → /basket, opened on the side the notification is about; message and conversation types → the chat with
 * the sender; application_status → /gig/{gigId}; review types → the work's review in /basket;
 * anything else → /notifications.
 */
export function notificationTarget(
  n: Pick<Notification, 'type' | 'senderId' | 'gigId'> & Partial<Pick<Notification, 'userId' | 'applicationId'>>,
): string {
  switch (n.type) {
    case 'APPLICATION_WITHDRAWN':
      return PATHS.applications;
    case 'WORK_DELIVERED':
    case 'CHANGES_REQUESTED':
    case 'PAYMENT_RELEASED':
    case 'OFFER_WITHDRAWN':
    case 'WORK_CANCELLED':
    case 'CANCELLATION_REQUESTED':
    case 'CANCELLATION_REFUSED':
    case 'REFUND_ISSUED':
    case 'DISPUTE_OPENED':
    case 'DISPUTE_RESOLVED':
    case 'PAYMENT_PROBLEM':
      return `${PATHS.basket}?view=${recipientSide(n)}`;
    case 'REVIEW_REQUESTED':
    case 'REVIEW_REMINDER':
    case 'REVIEW_RECEIVED':
    case 'REVIEW_PUBLISHED':
      return n.applicationId ? reviewPath(n.applicationId) : PATHS.notifications;
    case 'new_application':
      return PATHS.applications;
    case 'new_offer':
    case 'FINAL_BUDGET_OFFER':
    case 'payment_needed':
    case 'PAYMENT_CONFIRMED':
    case 'gig_in_progress':
    case 'GIG_STARTED':
    case 'gig_completed':
    case 'GIG_COMPLETED':
    case 'OFFER_REJECTED':
      return `${PATHS.basket}?view=${basketViewFor(n.type)}`;
    case 'new_message':
    case 'message':
    case 'new_conversation':
      return n.senderId ? exchangePath(n.senderId) : PATHS.notifications;
    case 'application_status':
      return n.gigId ? gigPath(n.gigId) : PATHS.notifications;
    default:
      return PATHS.notifications;
  }
}

/** Unread when there is a last message, its sender is not the current user, and it is not marked read (docs/product.md §4). */
export function isUnreadConversation(
  c: Pick<Conversation, 'lastSenderId' | 'lastMessageRead'>,
  userId: string,
): boolean {
  return c.lastSenderId !== null && c.lastSenderId !== userId && !c.lastMessageRead;
}

/**
 * The nav badge: unread notifications plus unread conversations. A conversation whose unread
 * new_message notification is already counted is not counted twice.
 */
export function unreadBadgeCount(
  notifications: Pick<Notification, 'read' | 'type' | 'conversationId'>[],
  conversations: Pick<Conversation, 'id' | 'lastSenderId' | 'lastMessageRead'>[],
  userId: string,
): number {
  const unread = notifications.filter((n) => !n.read);
  const counted = new Set(
    unread.filter((n) => isMessageNotification(n.type) && n.conversationId).map((n) => n.conversationId),
  );
  return unread.length + conversations.filter((c) => isUnreadConversation(c, userId) && !counted.has(c.id)).length;
}

export const BUYER_TABS = ['All Gigs', 'In Progress', 'Completed'] as const;
export const SELLER_TABS = ['Pending', 'In Progress', 'Completed', 'Declined', 'Closed', 'Cancelled'] as const;

/** Work under way for both sides: paid for or started, delivered, questioned, disputed or being paid out (decision 031). */
const UNDER_WAY = new Set([
  'PENDING_PAYMENT',
  'IN_PROGRESS',
  'DELIVERED',
  'CANCELLATION_REQUESTED',
  'DISPUTED',
  'SETTLING',
  'SETTLEMENT_FAILED',
]);
/** Work that ended with the freelancer paid, in full or in part. */
const FINISHED = new Set(['COMPLETED', 'SPLIT']);
/** Ended before it was finished: withdrawn, cancelled, refunded. */
const CANCELLED = new Set(['WITHDRAWN', 'CANCELLED', 'REFUNDED']);

/** A buyer's gig is In Progress while any of its work is paid for or under way, Completed once work on it is completed. */
export function buyerTabsOf(
  gig: Pick<Gig, 'status'>,
  applications: Pick<Application, 'status'>[],
): (typeof BUYER_TABS)[number][] {
  const shown = shownGigStatus(gig, applications);
  if (FINISHED.has(shown)) return ['All Gigs', 'Completed'];
  if (UNDER_WAY.has(shown)) return ['All Gigs', 'In Progress'];
  return ['All Gigs'];
}

/**
 * A seller's application: Pending while it or an offer waits for them or for payment; In Progress
 * while work is under way (delivered, questioned, disputed or being paid out included); Completed
 * once paid in full or split; Declined once they declined the offer (until the buyer sends a new
 * one); Closed when the gig was filled by others; Cancelled when withdrawn, cancelled or refunded.
 */
export function sellerTabOf(a: Pick<Application, 'status'>): (typeof SELLER_TABS)[number] {
  if (a.status === 'PENDING_PAYMENT') return 'Pending';
  if (UNDER_WAY.has(a.status)) return 'In Progress';
  if (FINISHED.has(a.status)) return 'Completed';
  if (a.status === 'REJECTED') return 'Declined';
  if (a.status === 'CLOSED') return 'Closed';
  if (CANCELLED.has(a.status)) return 'Cancelled';
  return 'Pending';
}

/** Applications the buyer's gig card lists as work: accepted offers, and work refunded after payment. */
export function isBuyerWorkItem(status: string): boolean {
  return isAcceptedOffer(status) || status === 'REFUNDED';
}

/**
 * "Releases automatically on 9 December" (issue 15): the day delivered work is paid out unless the
 * buyer answers, in the viewer's time zone, with the year when it is not this year's.
 */
export function autoReleaseLabel(autoReleaseAt: number, now: number, timeZone?: string): string {
  const year = (t: number) => new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone }).format(t);
  const day = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    ...(year(autoReleaseAt) === year(now) ? {} : { year: 'numeric' }),
    timeZone,
  }).format(autoReleaseAt);
  return `Releases automatically on ${day}`;
}

export type GigFilters = {
  niches: string[];
  locationTypes: ('remote' | 'in-person')[];
  countries: string[];
  search: string;
};
export const NO_FILTERS: GigFilters = { niches: [], locationTypes: [], countries: [], search: '' };

/**
 * Board filters: niches (category names), location types, countries (only applied when in-person
 * is selected, as the filter is only shown then), and a search of every word in title,
 * description, skills and category.
 */
export function filterGigs<
  G extends Pick<Gig, 'category' | 'locationType' | 'country' | 'title' | 'description' | 'skills'>,
>(gigs: G[], f: GigFilters): G[] {
  const words = f.search.toLowerCase().split(/\s+/).filter(Boolean);
  const countries = f.locationTypes.includes('in-person') ? f.countries : [];
  return gigs.filter((g) => {
    if (f.niches.length && !f.niches.includes(g.category)) return false;
    if (f.locationTypes.length && !f.locationTypes.includes(g.locationType as 'remote' | 'in-person')) return false;
    if (countries.length && !(g.locationType === 'in-person' && g.country && countries.includes(g.country)))
      return false;
    if (words.length) {
      const text = `${g.title} ${g.description} ${g.skills} ${g.category}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) return false;
    }
    return true;
  });
}

/** The countries filter lists the countries present in the loaded gigs. */
export function countriesInGigs(gigs: Pick<Gig, 'country'>[]): { code: string; name: string }[] {
  const codes = [...new Set(gigs.map((g) => g.country).filter((c): c is NonNullable<typeof c> => Boolean(c)))];
  return codes
    .map((code) => ({ code, name: countryByCode(code)?.name ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const EMPTY_STATES = {
  allGigs: 'No gigs found matching your filters. More to come soon!',
  appliedTo: "You haven't applied to any gigs yet.",
} as const;

const SELLER_SIDE_TYPES = new Set([
  'new_offer',
  'FINAL_BUDGET_OFFER',
  'PAYMENT_CONFIRMED',
  'gig_completed',
  'GIG_COMPLETED',
]);

/** Which side /basket opens on when no notification chose one: the buyer's, unless only the seller's has something. */
export function defaultBasketView(posted: number, applied: number): 'buyer' | 'seller' {
  return posted === 0 && applied > 0 ? 'seller' : 'buyer';
}

/**
 * Which side of the basket a notification is about: offers, payment confirmations and completions
 * reach the freelancer (seller view); payment requests, started work and declined offers reach the
 * buyer (buyer view).
 */
export function basketViewFor(type: string): 'buyer' | 'seller' {
  return SELLER_SIDE_TYPES.has(type) ? 'seller' : 'buyer';
}

/**
 * The side of the basket a notification about delivered, cancelled or disputed work opens: the
 * recipient's. Some of these reach both parties; the application's id names its freelancer
 * (`<gigId>.<applicantId>`), so the recipient is the seller exactly when it names them.
 */
export function recipientSide(n: Partial<Pick<Notification, 'userId' | 'applicationId'>>): 'buyer' | 'seller' {
  const parts = n.applicationId ? applicationIdParts(n.applicationId) : undefined;
  return parts && n.userId && parts.applicantId === n.userId ? 'seller' : 'buyer';
}
