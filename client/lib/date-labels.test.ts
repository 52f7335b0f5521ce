import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateLabel, dayAndTimeLabel, FORMATTER_KEPT_MS } from './date-labels';

const AT = Date.UTC(2026, 11, 8, 2, 41, 7);

describe('date labels', () => {
  const Original = Intl.DateTimeFormat;
  let made = 0;
  /** Counts the formatters built from now on. */
  const counting = () => {
    made = 0;
    Intl.DateTimeFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made += 1;
      }
    } as typeof Original;
  };
  afterEach(() => {
    Intl.DateTimeFormat = Original;
    vi.useRealTimers();
  });

  it('reads as toLocaleString does with the same locale and options', () => {
    expect(dayAndTimeLabel(AT)).toBe(
      new Date(AT).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
    );
    const long = { day: 'numeric', month: 'long', year: 'numeric' } as const;
    expect(dateLabel(long, 'en-GB')(AT)).toBe(new Date(AT).toLocaleDateString('en-GB', long));
    expect(dateLabel(long, 'en-GB')(new Date(AT))).toBe('8 December 2026');
  });

  it('builds its formatter once, on first use, however many dates it labels', () => {
    counting();
    const label = dateLabel({ hour: '2-digit', minute: '2-digit' });
    expect(made).toBe(0);
    const texts = Array.from({ length: 500 }, (_, i) => label(AT + i * 60_000));
    expect(made).toBe(1);
    expect(new Set(texts).size).toBeGreaterThan(1);
  });

  it('builds its formatter again once it is a minute old, so a new time zone shows within a minute', () => {
    vi.useFakeTimers({ now: AT });
    counting();
    const label = dateLabel({ hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    label(AT);
    vi.advanceTimersByTime(FORMATTER_KEPT_MS - 1);
    label(AT);
    expect(made).toBe(1);
    vi.advanceTimersByTime(1);
    label(AT);
    expect(made).toBe(2);
  });
});
