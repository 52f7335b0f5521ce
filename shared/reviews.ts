import type { NotificationDraft } from './application-machine';
import { isWorkFinished } from './constants';
import type { Application } from './schemas/application';
import { quoted } from './text';
import { collectErrors, type FieldErrors } from './validation/types';

/**
 * Two-way reviews after completed work (docs/decisions/032-reviews-and-profiles.md). Pure rules,
 * used by the server's policy, read filter and timers and by the app's review panel alike:
 *
 * - Once work is completed, each side may review the other once, within 14 days of completion:
 *   a rating of 1 to 5 and a text of 20 to 1,000 characters.
 * - Blind: a review is published (visible to its subject and on profiles) only when both sides
 *   have written theirs, or when the window closes. Until then only its author sees it, and may
 *   still change it; once published it cannot be edited or deleted.
 * - The reviewed person may post one public reply of up to 500 characters.
 */

export const REVIEW_RULES = {
  ratingMin: 1,
  ratingMax: 5,
  textMin: 20,
  textMax: 1000,
  replyMax: 500,
  windowDays: 14,
  reminderDaysBefore: 3,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
export const REVIEW_WINDOW_MS = REVIEW_RULES.windowDays * DAY_MS;
export const REVIEW_REMINDER_BEFORE_MS = REVIEW_RULES.reminderDaysBefore * DAY_MS;

/** The side a review's author was on. A buyer's review rates the freelancer; a freelancer's, the buyer. */
export const REVIEW_ROLES = ['buyer', 'freelancer'] as const;
export type ReviewRole = (typeof REVIEW_ROLES)[number];

export const REVIEW_MESSAGES = {
  ratingRequired: 'Please choose a rating from 1 to 5 stars',
  textRequired: 'Please write a few words about how the work went',
  textTooShort: `Reviews must be at least ${REVIEW_RULES.textMin} characters`,
  textTooLong: `Reviews must be at most ${REVIEW_RULES.textMax} characters`,
  replyRequired: 'Please write your reply',
  replyTooLong: `Replies must be at most ${REVIEW_RULES.replyMax} characters`,
  notParty: 'Only the buyer and the freelancer of this work can review it.',
  notCompleted: 'You can review this work once it is completed.',
  windowClosed: 'The time to review this work has ended.',
  alreadyReviewed: 'You have already reviewed this work.',
  published: 'Published reviews cannot be edited.',
  notDeletable: 'Reviews cannot be deleted.',
  onlyAuthorEdits: 'Only the author of a review can change it.',
  onlyReply: 'Only a reply can be added to a review about you.',
  alreadyReplied: 'You have already replied to this review.',
} as const;

/** What says whether work is finished: its status and completion date (any stored document's fields). */
export type Completion = { status?: unknown; completedAt?: unknown };

/** What a review needs to know of the application it is about. */
export type ReviewedWork = Pick<
  Application,
  'id' | 'status' | 'completedAt' | 'creatorId' | 'creatorName' | 'applicantId' | 'applicantName' | 'gigId' | 'gigTitle'
>;

/**
 * Whether this work opens reviews: finished with money paid to the freelancer, with its completion
 * date: COMPLETED (approved, released automatically, or a dispute resolved by a release) or SPLIT
 * (a dispute resolved by a split, decision 031). Work refunded in full was not done: no reviews.
 * The one place that says so: policy, timers and screens follow it.
 */
export function opensReviews(work: Completion): boolean {
  return isWorkFinished(work.status) && typeof work.completedAt === 'number';
}

/** When the review window of completed work opens and closes; undefined while it does not open reviews. */
export function reviewWindowOf(work: Completion): { opensAt: number; closesAt: number; remindAt: number } | undefined {
  if (!opensReviews(work)) return undefined;
  const opensAt = work.completedAt as number;
  const closesAt = opensAt + REVIEW_WINDOW_MS;
  return { opensAt, closesAt, remindAt: closesAt - REVIEW_REMINDER_BEFORE_MS };
}

/** The window is open from completion up to and including its last millisecond. */
export function isWindowOpen(work: Completion, now: number): boolean {
  const window = reviewWindowOf(work);
  return window !== undefined && now >= window.opensAt && now < window.closesAt;
}

/** The side `userId` was on in this work, if any. */
export function reviewRoleOf(
  work: Pick<Application, 'creatorId' | 'applicantId'>,
  userId: string,
): ReviewRole | undefined {
  if (work.creatorId === userId) return 'buyer';
  if (work.applicantId === userId) return 'freelancer';
  return undefined;
}

/** The person a review by `role` is about. */
export function subjectOf(work: ReviewedWork, role: ReviewRole): { id: string; name: string } {
  return role === 'buyer'
    ? { id: work.applicantId, name: work.applicantName }
    : { id: work.creatorId, name: work.creatorName };
}

/** The fields of a review the rules below read. */
export type ReviewFacts = {
  authorId: string;
  subjectId: string;
  publishedAt: number | null;
  windowClosesAt: number;
};

export function isPublished(review: Pick<ReviewFacts, 'publishedAt'>): boolean {
  return typeof review.publishedAt === 'number';
}

/**
 * The blind rule, as the read filter applies it (sync-server/replication/visibility.ts): a review
 * is replicated to its author always, to its subject once it is published, and to nobody else
 * (everyone else reads published reviews on the subject's profile page).
 */
export function replicatesReviewTo(
  review: Pick<ReviewFacts, 'authorId' | 'subjectId' | 'publishedAt'>,
  userId: string,
): boolean {
  return review.authorId === userId || (review.subjectId === userId && isPublished(review));
}

/** A review still waiting whose window has closed: the server publishes it (a timer). */
export function dueForPublication(review: Pick<ReviewFacts, 'publishedAt' | 'windowClosesAt'>, now: number): boolean {
  return !isPublished(review) && now >= review.windowClosesAt;
}

export type ReviewInput = { rating: unknown; text: unknown };
export type ReviewField = 'rating' | 'text';

/** The rating (a whole number of stars, 1 to 5) and the text (20 to 1,000 characters, trimmed). */
export function validateReview(input: ReviewInput): FieldErrors<ReviewField> {
  const { rating } = input;
  const text = typeof input.text === 'string' ? input.text.trim() : '';
  // Counted as the form's counter, the field's maximum and the schema count: in UTF-16 units.
  const length = text.length;
  return collectErrors<ReviewField>([
    [
      'rating',
      (typeof rating !== 'number' ||
        !Number.isInteger(rating) ||
        rating < REVIEW_RULES.ratingMin ||
        rating > REVIEW_RULES.ratingMax) &&
        REVIEW_MESSAGES.ratingRequired,
    ],
    ['text', length === 0 && REVIEW_MESSAGES.textRequired],
    ['text', length < REVIEW_RULES.textMin && REVIEW_MESSAGES.textTooShort],
    ['text', length > REVIEW_RULES.textMax && REVIEW_MESSAGES.textTooLong],
  ]);
}

/** A reply: trimmed, 1 to 500 characters. */
export function replyError(reply: unknown): string | undefined {
  const text = typeof reply === 'string' ? reply.trim() : '';
  if (!text) return REVIEW_MESSAGES.replyRequired;
  if (text.length > REVIEW_RULES.replyMax) return REVIEW_MESSAGES.replyTooLong;
  return undefined;
}

/**
 * Whether `actorId` may write a new review of this work now, given the reviews of it that exist:
 * a side of it, completed, within the window, and not reviewed by them already.
 */
export function checkNewReview(input: {
  work: ReviewedWork | undefined;
  actorId: string;
  existing: readonly Pick<ReviewFacts, 'authorId'>[];
  now: number;
}): { ok: true; role: ReviewRole; closesAt: number } | { ok: false; error: string } {
  const { work, actorId, existing, now } = input;
  const role = work ? reviewRoleOf(work, actorId) : undefined;
  if (!work || !role) return { ok: false, error: REVIEW_MESSAGES.notParty };
  const window = reviewWindowOf(work);
  if (!window) return { ok: false, error: REVIEW_MESSAGES.notCompleted };
  if (now >= window.closesAt) return { ok: false, error: REVIEW_MESSAGES.windowClosed };
  if (existing.some((r) => r.authorId === actorId)) return { ok: false, error: REVIEW_MESSAGES.alreadyReviewed };
  return { ok: true, role, closesAt: window.closesAt };
}

/**
 * What a review panel shows one side of completed work: nothing to do before completion; the
 * form while the window is open and they have not written (with whether the other side already
 * has); their own review waiting for the other side or the window; the published reviews; or
 * that the window closed without theirs.
 */
export type ReviewStage =
  | { kind: 'not-open' }
  | { kind: 'write'; closesAt: number; otherWrote: boolean }
  /** `editable` while the window is open: after it, the server is about to publish what was written. */
  | { kind: 'waiting'; closesAt: number; editable: boolean }
  | { kind: 'published' }
  | { kind: 'closed'; closesAt: number };

export function reviewStage(input: {
  work: ReviewedWork;
  userId: string;
  mine: Pick<ReviewFacts, 'publishedAt'> | undefined;
  /** The other side's review, as this device has it (only once published, or a notice that it exists). */
  theirs: Pick<ReviewFacts, 'publishedAt'> | undefined;
  otherWrote: boolean;
  now: number;
}): ReviewStage {
  const window = reviewWindowOf(input.work);
  if (!window || !reviewRoleOf(input.work, input.userId)) return { kind: 'not-open' };
  if (input.mine)
    return isPublished(input.mine)
      ? { kind: 'published' }
      : { kind: 'waiting', closesAt: window.closesAt, editable: input.now < window.closesAt };
  if (input.now < window.closesAt) return { kind: 'write', closesAt: window.closesAt, otherWrote: input.otherWrote };
  return input.theirs && isPublished(input.theirs)
    ? { kind: 'published' }
    : { kind: 'closed', closesAt: window.closesAt };
}

/** A day as the review texts name it: "9 December" (the device's time zone). */
export function reviewDayLabel(at: number): string {
  return new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long' });
}

/** The author's own review before publication (issue 16's words). */
export function waitingLabel(closesAt: number): string {
  return `Waiting for the other side or for ${reviewDayLabel(closesAt)}`;
}

// --- Notifications ----------------------------------------------------------------------------

type Party = { id: string; name: string };

/** A review notification: the work it is about, who receives it, and the other side. */
export type ReviewNotice = { work: Pick<ReviewedWork, 'id' | 'gigId' | 'gigTitle'>; to: Party; other: Party };

/** The two sides of the work, by role. */
export function partiesOf(work: ReviewedWork): Record<ReviewRole, Party> {
  return {
    buyer: { id: work.creatorId, name: work.creatorName },
    freelancer: { id: work.applicantId, name: work.applicantName },
  };
}

function draft(type: NotificationDraft['type'], message: string, { work, to, other }: ReviewNotice): NotificationDraft {
  return {
    userId: to.id,
    type,
    message,
    senderId: other.id,
    senderName: other.name,
    recipientName: to.name,
    gigId: work.gigId,
    gigTitle: work.gigTitle,
    applicationId: work.id,
  };
}

/** At completion, to each side: review the other within the window. */
export function reviewRequested(n: ReviewNotice): NotificationDraft {
  return draft(
    'REVIEW_REQUESTED',
    `How did ${quoted(n.work.gigTitle)} go? Review ${quoted(n.other.name)} within ${REVIEW_RULES.windowDays} days: both reviews appear together once you have both written yours.`,
    n,
  );
}

/** Three days before the window closes, to a side that has not written yet. */
export function reviewReminder(n: ReviewNotice): NotificationDraft {
  return draft(
    'REVIEW_REMINDER',
    `${REVIEW_RULES.reminderDaysBefore} days left to review ${quoted(n.other.name)} for ${quoted(n.work.gigTitle)}.`,
    n,
  );
}

/** To the subject of a first review (`other` is its author): one is waiting for them, its content hidden. */
export function reviewReceived(n: ReviewNotice): NotificationDraft {
  return draft(
    'REVIEW_RECEIVED',
    `${quoted(n.other.name)} reviewed your work on ${quoted(n.work.gigTitle)}. Write your review to read theirs: both appear together.`,
    n,
  );
}

/** To the subject of a review just published (`other` is its author). */
export function reviewPublished(n: ReviewNotice): NotificationDraft {
  return draft(
    'REVIEW_PUBLISHED',
    `The review ${quoted(n.other.name)} wrote about you for ${quoted(n.work.gigTitle)} is now on your profile.`,
    n,
  );
}
