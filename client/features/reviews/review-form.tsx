import { useState, type FormEvent } from 'react';
import { REVIEW_RULES, validateReview, type ReviewField } from '../../../shared/reviews';
import type { FieldErrors } from '../../../shared/validation/types';
import type { ReviewValues } from './review-writes';
import { StarRatingInput } from './stars';

/**
 * A review's rating and text (shared/reviews.ts): the same rules the server applies, checked
 * before anything is written; the first field in error gets focus. `onSubmit` throws a message
 * to show when the write is refused on this device.
 */
export function ReviewForm({
  idPrefix,
  subjectName,
  initial = { rating: null, text: '' },
  submitLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  subjectName: string;
  initial?: ReviewValues;
  submitLabel: string;
  onSubmit: (values: ReviewValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<ReviewValues>(initial);
  const [errors, setErrors] = useState<FieldErrors<ReviewField>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = (k: string) => `${idPrefix}-${k}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const found = validateReview(values);
    setErrors(found);
    if (found.rating) {
      document.querySelector<HTMLInputElement>(`#${id('rating')} input`)?.focus();
      return;
    }
    if (found.text) {
      document.getElementById(id('text'))?.focus();
      return;
    }
    setBusy(true);
    try {
      await onSubmit(values);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : 'Your review could not be saved. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const length = values.text.trim().length;
  return (
    <form className="form review-form" onSubmit={(e) => void submit(e)} noValidate>
      <div id={id('rating')}>
        <StarRatingInput
          name={id('stars')}
          value={values.rating}
          onChange={(rating) => setValues((v) => ({ ...v, rating }))}
          invalid={Boolean(errors.rating)}
          errorId={errors.rating ? id('rating-error') : undefined}
        />
        {errors.rating && (
          <p className="field-error" id={id('rating-error')} role="alert">
            {errors.rating}
          </p>
        )}
      </div>
      <label htmlFor={id('text')}>
        <span>
          Your review of {subjectName}{' '}
          <span className="counter">
            {length}/{REVIEW_RULES.textMax}
          </span>
        </span>
      </label>
      <textarea
        id={id('text')}
        rows={4}
        value={values.text}
        maxLength={REVIEW_RULES.textMax + 50}
        onChange={(e) => setValues((v) => ({ ...v, text: e.target.value }))}
        aria-invalid={Boolean(errors.text)}
        aria-describedby={`${id('text-hint')}${errors.text ? ` ${id('text-error')}` : ''}`}
      />
      <p className="field-state" id={id('text-hint')}>
        {REVIEW_RULES.textMin} to {REVIEW_RULES.textMax} characters. Once both reviews are published they cannot be
        changed.
      </p>
      {errors.text && (
        <p className="field-error" id={id('text-error')} role="alert">
          {errors.text}
        </p>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button--quiet" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
