import { REVIEW_RULES } from '../../../shared/reviews';

const SCALE = Array.from({ length: REVIEW_RULES.ratingMax }, (_, i) => i + 1);
const starsWord = (n: number) => `${n} star${n === 1 ? '' : 's'}`;

/** A rating shown as five stars, read out as "Rated 4 out of 5". */
export function Stars({ rating }: { rating: number }) {
  return (
    <span className="stars" role="img" aria-label={`Rated ${rating} out of ${REVIEW_RULES.ratingMax}`}>
      {SCALE.map((n) => (
        <span key={n} className={n <= Math.round(rating) ? 'star star--on' : 'star'} aria-hidden="true">
          ★
        </span>
      ))}
    </span>
  );
}

/**
 * The rating input: five radio buttons in a labelled group, so the keyboard works as for any radio
 * group (Tab into it, arrow keys to change, Space to choose) and each is read out as "3 stars".
 * The stars up to the chosen one are filled.
 */
export function StarRatingInput({
  name,
  value,
  onChange,
  errorId,
  invalid,
}: {
  name: string;
  value: number | null;
  onChange: (rating: number) => void;
  errorId?: string;
  invalid?: boolean;
}) {
  return (
    <fieldset className="stars-input" aria-describedby={errorId} aria-invalid={invalid || undefined}>
      <legend>Rating</legend>
      <div className="stars-input__options">
        {SCALE.map((n) => (
          <label key={n} className={value !== null && n <= value ? 'star star--on' : 'star'}>
            <input
              type="radio"
              className="visually-hidden"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
            />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">{starsWord(n)}</span>
          </label>
        ))}
        <span className="field-state" aria-hidden="true">
          {value === null ? 'Choose 1 to 5 stars' : `${value} out of ${REVIEW_RULES.ratingMax}`}
        </span>
      </div>
    </fieldset>
  );
}
