import { isId } from '../../shared/ids';
import {
  checkNewReview,
  isPublished,
  partiesOf,
  replyError,
  REVIEW_MESSAGES,
  reviewPublished,
  reviewReceived,
  subjectOf,
  validateReview,
  type ReviewedWork,
} from '../../shared/reviews';
import type { Review } from '../../shared/schemas/review';
import { firstError } from '../../shared/validation/types';
import { stamp } from '../domain/documents';
import { notificationWrites } from '../domain/notifications';
import { reputationWrites } from '../reviews/reputation';
import type { DecisionReader, DocWrite, Stored } from '../store/store';
import { refuse, type Policy, type PolicyInput, type PolicyResult } from './types';

/**
 * Reviews (shared/reviews.ts, docs/decisions/032-reviews-and-profiles.md). The author sends the
 * id, the application, the rating and the text; the server sets everything else from the
 * application and the clock, and enforces the window, one review per side, and the blind rule:
 * the second review of a piece of work publishes both in its own commit, with both reputations.
 * Before publication the author may change the rating and text; afterwards nobody may, and the
 * reviewed person may add one reply. Nobody deletes a review.
 */
export const reviewPolicy: Policy<'reviews'> = (input): PolicyResult => {
  const { actor, current, deleting } = input;
  if (deleting) return refuse(REVIEW_MESSAGES.notDeletable);
  if (!current) return create(input);
  if (current.authorId === actor.id) return edit(input, current);
  if (current.subjectId === actor.id) return reply(input, current);
  return refuse(REVIEW_MESSAGES.onlyAuthorEdits);
};

/** The work as the texts name it: the two sides' names as they are now. */
function withCurrentNames(read: DecisionReader, work: Stored<'applications'>): ReviewedWork {
  const name = (id: string, fallback: string) => {
    const user = read.get('users', id);
    return user && !user._deleted && user.name ? user.name : fallback;
  };
  return {
    ...work,
    creatorName: name(work.creatorId, work.creatorName),
    applicantName: name(work.applicantId, work.applicantName),
  };
}

function create({ read, actor, incoming, now }: PolicyInput<'reviews'>): PolicyResult {
  if (!isId(incoming.id)) return refuse('Invalid review id');
  const app = read.get('applications', incoming.applicationId ?? '');
  const stored = app && !app._deleted ? app : undefined;
  const existing = stored ? read.byIndex('reviews', 'applicationId', stored.id).filter((r) => !r._deleted) : [];
  const check = checkNewReview({ work: stored, actorId: actor.id, existing, now });
  if (!check.ok) return refuse(check.error);
  const message = firstError(validateReview({ rating: incoming.rating, text: incoming.text }));
  if (message) return refuse(message);

  const work = withCurrentNames(read, stored!);
  const parties = partiesOf(work);
  const author = parties[check.role];
  const subject = subjectOf(work, check.role);
  const theirs = existing.find((r) => r.authorId === subject.id && !isPublished(r));
  const review: Review = {
    id: incoming.id!,
    applicationId: work.id,
    gigId: work.gigId,
    gigTitle: work.gigTitle,
    authorId: actor.id,
    authorName: author.name,
    authorRole: check.role,
    subjectId: subject.id,
    subjectName: subject.name,
    rating: incoming.rating!,
    text: incoming.text!.trim(),
    createdAt: now,
    windowClosesAt: check.closesAt,
    // The blind rule: the second side's review publishes both, at once.
    publishedAt: theirs ? now : null,
    reply: null,
    repliedAt: null,
    updatedAt: now,
  };
  const writes: DocWrite[] = [{ collection: 'reviews', doc: { ...review, _deleted: false } }];
  if (!theirs) {
    writes.push(...notificationWrites([reviewReceived({ work, to: subject, other: author })], now));
    return { ok: true, writes };
  }
  const published = { ...theirs, publishedAt: now, updatedAt: stamp(now, theirs) };
  writes.push(
    { collection: 'reviews', doc: published },
    ...notificationWrites(
      [reviewPublished({ work, to: subject, other: author }), reviewPublished({ work, to: author, other: subject })],
      now,
    ),
    ...reputationWrites(read, [subject.id, author.id], now, [review, published]),
  );
  return { ok: true, writes };
}

/** The fields a pushed version changes against the stored one (RxDB's and the server's stamps aside). */
function changedFields(current: Stored<'reviews'>, incoming: Partial<Review>): string[] {
  return Object.entries(incoming)
    .filter(([k, v]) => k !== 'updatedAt' && k !== '_seq' && v !== undefined)
    .filter(([k, v]) => JSON.stringify(v) !== JSON.stringify((current as Record<string, unknown>)[k]))
    .map(([k]) => k);
}

function edit({ incoming, now }: PolicyInput<'reviews'>, current: Stored<'reviews'>): PolicyResult {
  const changed = changedFields(current, incoming);
  if (changed.length === 0) return { ok: true, writes: [] };
  if (isPublished(current)) return refuse(REVIEW_MESSAGES.published);
  const fixed = changed.find((k) => k !== 'rating' && k !== 'text');
  if (fixed) return refuse(`The field ${fixed} cannot be changed.`);
  if (now >= current.windowClosesAt) return refuse(REVIEW_MESSAGES.windowClosed);
  const rating = incoming.rating ?? current.rating;
  const text = (incoming.text ?? current.text).trim();
  const message = firstError(validateReview({ rating, text }));
  if (message) return refuse(message);
  return {
    ok: true,
    writes: [{ collection: 'reviews', doc: { ...current, rating, text, updatedAt: stamp(now, current) } }],
  };
}

function reply({ incoming, now }: PolicyInput<'reviews'>, current: Stored<'reviews'>): PolicyResult {
  // (The subject sees a review only once it is published: push.ts refuses anything else unseen.)
  const changed = changedFields(current, incoming).filter((k) => k !== 'repliedAt');
  if (changed.length === 0) return { ok: true, writes: [] };
  if (changed.some((k) => k !== 'reply')) return refuse(REVIEW_MESSAGES.onlyReply);
  if (current.reply !== null) return refuse(REVIEW_MESSAGES.alreadyReplied);
  const message = replyError(incoming.reply);
  if (message) return refuse(message);
  return {
    ok: true,
    writes: [
      {
        collection: 'reviews',
        doc: { ...current, reply: incoming.reply!.trim(), repliedAt: now, updatedAt: stamp(now, current) },
      },
    ],
  };
}
