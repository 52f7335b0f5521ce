import { useEffect, useRef, useState } from 'react';
import { reviewDayLabel, reviewRoleOf, reviewStage, subjectOf, waitingLabel } from '../../../shared/reviews';
import type { Application } from '../../../shared/schemas/application';
import { useData } from '../../data/data-provider';
import { useReviewsOf, useReviewWaiting } from '../../data/queries';
import { useNow, useOutbox } from '../../ui/hooks';
import { ReviewCard } from './review-card';
import { ReviewForm } from './review-form';
import { editReview, replyToReview, writeReview } from './review-writes';

/**
 * The reviews of one piece of completed work, for one of its two sides (docs/product.md §2.20):
 * the form while the window is open; their own review waiting for the other side or the window's
 * end (and still editable); both reviews once published, with the reply to the one about them; or
 * that the window closed. `focus` brings it into view (a review notification opened it).
 */
export function ReviewPanel({ application, focus = false }: { application: Application; focus?: boolean }) {
  const data = useData();
  const { userId } = data;
  const isWaiting = useOutbox(data.outbox);
  const now = useNow();
  const reviews = useReviewsOf(application.id);
  const notice = useReviewWaiting(application.id);
  const [editing, setEditing] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const role = reviewRoleOf(application, userId);
  const all = reviews.data ?? [];
  const mine = all.find((r) => r.authorId === userId);
  const theirs = all.find((r) => r.authorId !== userId);
  const stage = reviewStage({
    work: application,
    userId,
    mine,
    theirs,
    otherWrote: (notice.data?.length ?? 0) > 0,
    now,
  });
  const shown = !reviews.loading && stage.kind !== 'not-open';

  useEffect(() => {
    if (!focus || !shown) return;
    heading.current?.scrollIntoView({ block: 'center' });
    heading.current?.focus();
  }, [focus, shown]);

  if (!role || !shown) return null;
  const other = subjectOf(application, role);
  const me = role === 'buyer' ? application.creatorName : application.applicantName;
  const prefix = `review-${application.id.replace(/\W/g, '-')}`;
  const synced = (id: string) => (isWaiting('reviews', id) ? ' · Waiting to sync' : '');

  return (
    <section className="review-panel" aria-labelledby={`${prefix}-title`}>
      <h4 id={`${prefix}-title`} ref={heading} tabIndex={-1}>
        {stage.kind === 'write' ? `Review ${other.name}` : `Reviews of “${application.gigTitle}”`}
      </h4>
      {stage.kind === 'write' && (
        <>
          <p className="notice">
            {stage.otherWrote
              ? `${other.name} has reviewed you. Write your review to read theirs: both appear together, or on ${reviewDayLabel(stage.closesAt)}.`
              : `Both reviews appear together once you have both written yours, or on ${reviewDayLabel(stage.closesAt)} if only one of you does.`}
          </p>
          <ReviewForm
            idPrefix={prefix}
            subjectName={other.name}
            submitLabel="Post review"
            onSubmit={async (values) => {
              await writeReview(data, application, values);
            }}
          />
        </>
      )}
      {stage.kind === 'waiting' &&
        mine &&
        (editing && stage.editable ? (
          <ReviewForm
            idPrefix={`${prefix}-edit`}
            subjectName={other.name}
            initial={{ rating: mine.rating, text: mine.text }}
            submitLabel="Save review"
            onCancel={() => setEditing(false)}
            onSubmit={async (values) => {
              await editReview(data, mine.id, values);
              setEditing(false);
            }}
          />
        ) : (
          <>
            <ReviewCard
              review={mine}
              subjectName={other.name}
              status={`${waitingLabel(stage.closesAt)}${synced(mine.id)}`}
            />
            {stage.editable && (
              <button type="button" className="button button--quiet button--small" onClick={() => setEditing(true)}>
                Edit your review
              </button>
            )}
          </>
        ))}
      {stage.kind === 'published' && (
        <>
          {mine && <ReviewCard review={mine} subjectName={other.name} />}
          {theirs ? (
            <ReviewCard
              review={theirs}
              subjectName={me}
              status={isWaiting('reviews', theirs.id) ? 'Waiting to sync' : undefined}
              onReply={(reply) => replyToReview(data, theirs.id, reply)}
            />
          ) : (
            <p className="field-state">{other.name} did not review this work.</p>
          )}
        </>
      )}
      {stage.kind === 'closed' && (
        <p className="field-state">
          The time to review {other.name} ended on {reviewDayLabel(stage.closesAt)}.
        </p>
      )}
    </section>
  );
}
