import type { NotificationDraft } from '../../shared/application-machine';
import {
  dueForPublication,
  isWindowOpen,
  partiesOf,
  REVIEW_ROLES,
  REVIEW_WINDOW_MS,
  reviewPublished,
  reviewReminder,
  reviewRequested,
  reviewWindowOf,
  type ReviewedWork,
  type ReviewNotice,
} from '../../shared/reviews';
import { stamp } from '../domain/documents';
import { notificationIdFor, notificationWrite } from '../domain/notifications';
import { utcDay } from '../indexes';
import type { DecisionReader, DocWrite, Store, Stored } from '../store/store';
import type { TimerJob } from '../timers/scheduler';
import { reputationWrites } from './reputation';

/**
 * What the review window's dates make due (shared/reviews.ts, docs/decisions/032-reviews-and-profiles.md):
 *
 * - `review-requests`: at completion, REVIEW_REQUESTED to each side that has not reviewed yet, and
 *   both reputations recomputed (one more completed gig each). The server also looks at once when
 *   completed work is written (server.ts), so the request arrives with the completion.
 * - `review-reminders`: 3 days before the window closes, REVIEW_REMINDER to each side still silent.
 * - `review-publication`: when the window closes, reviews still waiting are published, their
 *   subjects told, their reputations recomputed.
 *
 * Completed work is found through the `reviewWindowCloses` index (the UTC day its window closes),
 * so each look reads the work of open windows only. Notifications carry ids derived from the work
 * and the recipient, so a key fired twice (a retry, another instance) writes each once.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Completed work whose review window is open at `now`. */
function* openWindows(store: Store, now: number): Generator<Stored<'applications'>> {
  for (let at = now; at <= now + REVIEW_WINDOW_MS + DAY_MS; at += DAY_MS) {
    for (const app of store.byIndex('applications', 'reviewWindowCloses', utcDay(at)))
      if (!app._deleted && isWindowOpen(app, now)) yield app;
  }
}

type Kind = 'rvq' | 'rvr';

/** The id of the request (`rvq`) or reminder (`rvr`) of one work to one side. */
const noticeId = (kind: Kind, applicationId: string, userId: string) => notificationIdFor(kind, applicationId, userId);

/** The sides of the work that have not reviewed it and have not had this notice yet. */
function sidesToTell(read: DecisionReader, app: Stored<'applications'>, kind: Kind) {
  const wrote = new Set(
    read
      .byIndex('reviews', 'applicationId', app.id)
      .filter((r) => !r._deleted)
      .map((r) => r.authorId),
  );
  return REVIEW_ROLES.filter((role) => {
    const userId = role === 'buyer' ? app.creatorId : app.applicantId;
    return !wrote.has(userId) && !read.get('notifications', noticeId(kind, app.id, userId));
  });
}

/** The work as the notices name it: both names as they are now. */
function currentWork(read: DecisionReader, app: Stored<'applications'>): ReviewedWork {
  const name = (id: string, fallback: string) => read.get('users', id)?.name || fallback;
  return {
    ...app,
    creatorName: name(app.creatorId, app.creatorName),
    applicantName: name(app.applicantId, app.applicantName),
  };
}

function noticeJob(
  store: Store,
  name: string,
  kind: Kind,
  isDue: (app: Stored<'applications'>, now: number) => boolean,
  notice: (n: ReviewNotice) => NotificationDraft,
  alsoReputations: boolean,
): TimerJob {
  return {
    name,
    *due(s, now) {
      for (const app of openWindows(s, now)) if (isDue(app, now) && sidesToTell(s, app, kind).length > 0) yield app.id;
    },
    async fire(applicationId, now) {
      await store.transaction((read) => {
        const app = read.get('applications', applicationId);
        if (!app || app._deleted || !isWindowOpen(app, now) || !isDue(app, now)) return { writes: [], value: 0 };
        const work = currentWork(read, app);
        const parties = partiesOf(work);
        const writes: DocWrite[] = sidesToTell(read, app, kind).map((role) => {
          const to = parties[role];
          const other = parties[role === 'buyer' ? 'freelancer' : 'buyer'];
          return notificationWrite(notice({ work, to, other }), now, noticeId(kind, app.id, to.id));
        });
        if (writes.length > 0 && alsoReputations)
          writes.push(...reputationWrites(read, [app.creatorId, app.applicantId], now));
        return { writes, value: writes.length };
      });
    },
  };
}

function publicationJob(store: Store): TimerJob {
  return {
    name: 'review-publication',
    *due(s, now) {
      const seen = new Set<string>();
      for (const review of s.byIndex('reviews', 'unpublished', 'waiting')) {
        if (review._deleted || !dueForPublication(review, now) || seen.has(review.applicationId)) continue;
        seen.add(review.applicationId);
        yield review.applicationId;
      }
    },
    async fire(applicationId, now) {
      await store.transaction((read) => {
        const due = read
          .byIndex('reviews', 'applicationId', applicationId)
          .filter((r) => !r._deleted && dueForPublication(r, now));
        if (due.length === 0) return { writes: [], value: 0 };
        const published = due.map((r) => ({ ...r, publishedAt: now, updatedAt: stamp(now, r) }));
        const app = read.get('applications', applicationId);
        const writes: DocWrite[] = published.map((doc) => ({ collection: 'reviews', doc }));
        for (const r of published) {
          const work = app ? currentWork(read, app) : undefined;
          const author = { id: r.authorId, name: read.get('users', r.authorId)?.name || r.authorName };
          const subject = { id: r.subjectId, name: read.get('users', r.subjectId)?.name || r.subjectName };
          const notice = reviewPublished({
            work: work ?? { id: applicationId, gigId: r.gigId, gigTitle: r.gigTitle },
            to: subject,
            other: author,
          });
          writes.push(notificationWrite(notice, now, notificationIdFor('rvp', r.id)));
        }
        writes.push(
          ...reputationWrites(
            read,
            published.map((r) => r.subjectId),
            now,
            published,
          ),
        );
        return { writes, value: published.length };
      });
    },
  };
}

/** The review window's timers (registered in server.ts). */
export function reviewTimerJobs(store: Store): TimerJob[] {
  return [
    noticeJob(store, 'review-requests', 'rvq', () => true, reviewRequested, true),
    noticeJob(
      store,
      'review-reminders',
      'rvr',
      (app, now) => now >= reviewWindowOf(app)!.remindAt,
      reviewReminder,
      false,
    ),
    publicationJob(store),
  ];
}
