import { useState, type FormEvent } from 'react';
import { REVIEW_RULES, replyError } from '../../../shared/reviews';
import { ProfileLink } from './profile-link';
import { Stars } from './stars';
import { dateLabel } from '../../lib/date-labels';

/** What a review card shows: a replicated review or a profile page's (shared/profiles.ts). */
export type ShownReview = {
  id: string;
  authorId: string;
  authorName: string;
  authorUsername?: string;
  authorRole: 'buyer' | 'freelancer';
  gigTitle: string;
  rating: number;
  text: string;
  publishedAt: number | null;
  reply: string | null;
};

const day = dateLabel({ day: 'numeric', month: 'long', year: 'numeric' }, 'en-GB');

/**
 * One review: its stars, who wrote it and on which side, the gig, the date, the text and the
 * reviewed person's reply. `onReply` offers the reply form (to the reviewed person, once).
 */
export function ReviewCard({
  review,
  subjectName,
  status,
  onReply,
}: {
  review: ShownReview;
  subjectName: string;
  /** A line under the review (e.g. "Waiting for the other side or for 9 December"). */
  status?: string;
  onReply?: (reply: string) => Promise<void>;
}) {
  return (
    <article className="review" aria-label={`Review by ${review.authorName}`}>
      <p className="review__head">
        <Stars rating={review.rating} />{' '}
        <span>
          <ProfileLink userId={review.authorId} name={review.authorName} username={review.authorUsername} /> (
          {review.authorRole === 'buyer' ? 'buyer' : 'freelancer'}) on “{review.gigTitle}”
          {review.publishedAt !== null ? ` · ${day(review.publishedAt)}` : ''}
        </span>
      </p>
      <p className="review__text">{review.text}</p>
      {status && <p className="field-state">{status}</p>}
      {review.reply !== null && (
        <div className="review__reply">
          <p className="review__reply-by">Reply from {subjectName}</p>
          <p className="review__text">{review.reply}</p>
        </div>
      )}
      {review.reply === null && onReply && <ReplyForm reviewId={review.id} onReply={onReply} />}
    </article>
  );
}

function ReplyForm({ reviewId, onReply }: { reviewId: string; onReply: (reply: string) => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `reply-${reviewId}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const message = replyError(text);
    setError(message ?? null);
    if (message) {
      document.getElementById(id)?.focus();
      return;
    }
    setBusy(true);
    try {
      await onReply(text);
      setOpen(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Your reply could not be saved. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  if (!open)
    return (
      <button type="button" className="button button--quiet button--small" onClick={() => setOpen(true)}>
        Reply
      </button>
    );
  return (
    <form className="form review-reply-form" onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={id}>
        <span>
          Your public reply{' '}
          <span className="counter">
            {text.trim().length}/{REVIEW_RULES.replyMax}
          </span>
        </span>
      </label>
      <textarea
        id={id}
        rows={3}
        value={text}
        maxLength={REVIEW_RULES.replyMax + 50}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
      />
      <p className="field-state" id={`${id}-hint`}>
        You can reply once, and the reply cannot be changed.
      </p>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button button--small" disabled={busy}>
          Post reply
        </button>
        <button type="button" className="button button--quiet button--small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
