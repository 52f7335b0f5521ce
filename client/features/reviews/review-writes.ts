import { newId } from '../../../shared/ids';
import {
  checkNewReview,
  isPublished,
  replyError,
  REVIEW_MESSAGES,
  reviewRoleOf,
  subjectOf,
  validateReview,
} from '../../../shared/reviews';
import type { Application } from '../../../shared/schemas/application';
import { firstError } from '../../../shared/validation/types';
import type { DataContextValue } from '../../data/data-provider';

/**
 * The review writes (shared/reviews.ts). Each goes to this device's database first, so it works
 * offline and shows as waiting to sync; the server judges it again on arrival (window, one review
 * per side, blind rule) and sets what only it may set. A write the rules refuse on this device's
 * knowledge throws the message to show.
 */

export type ReviewValues = { rating: number | null; text: string };

/** The signed-in user's review of completed work. Returns the new review's id. */
export async function writeReview(
  { local, userId }: DataContextValue,
  work: Application,
  values: ReviewValues,
): Promise<string> {
  const now = Date.now();
  const existing = await local.find('reviews', { selector: { applicationId: work.id } });
  const check = checkNewReview({ work, actorId: userId, existing, now });
  if (!check.ok) throw new Error(check.error);
  const message = firstError(validateReview(values));
  if (message) throw new Error(message);
  const me = await local.get('users', userId);
  const author = reviewRoleOf(work, userId)!;
  const subject = subjectOf(work, author);
  const id = newId((n) => crypto.getRandomValues(new Uint8Array(n)));
  await local.insert('reviews', {
    id,
    applicationId: work.id,
    gigId: work.gigId,
    gigTitle: work.gigTitle,
    authorId: userId,
    authorName: me?.name ?? (author === 'buyer' ? work.creatorName : work.applicantName),
    authorRole: author,
    subjectId: subject.id,
    subjectName: subject.name,
    rating: values.rating!,
    text: values.text.trim(),
    createdAt: now,
    windowClosesAt: check.closesAt,
    publishedAt: null,
    reply: null,
    repliedAt: null,
    updatedAt: now,
  });
  return id;
}

/** Changes the signed-in user's own review while it waits for publication. */
export async function editReview({ local, userId }: DataContextValue, reviewId: string, values: ReviewValues) {
  const review = await local.get('reviews', reviewId);
  if (!review || review.authorId !== userId) throw new Error(REVIEW_MESSAGES.onlyAuthorEdits);
  if (isPublished(review)) throw new Error(REVIEW_MESSAGES.published);
  if (Date.now() >= review.windowClosesAt) throw new Error(REVIEW_MESSAGES.windowClosed);
  const message = firstError(validateReview(values));
  if (message) throw new Error(message);
  await local.patch('reviews', reviewId, { rating: values.rating!, text: values.text.trim() });
}

/** The reviewed person's one reply to a published review of them. */
export async function replyToReview({ local, userId }: DataContextValue, reviewId: string, reply: string) {
  const review = await local.get('reviews', reviewId);
  if (!review || review.subjectId !== userId) throw new Error(REVIEW_MESSAGES.onlyReply);
  if (review.reply !== null) throw new Error(REVIEW_MESSAGES.alreadyReplied);
  const message = replyError(reply);
  if (message) throw new Error(message);
  await local.patch('reviews', reviewId, { reply: reply.trim() });
}
