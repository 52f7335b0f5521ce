/**
 * How long a label keeps its formatter. A formatter keeps the time zone and language the device had
 * when it was built; built again each minute, a label follows a device that crossed a time zone
 * (or changed its language) while the app stayed open.
 */
export const FORMATTER_KEPT_MS = 60_000;

/**
 * Dates and times shown in the user's locale, each kind through one formatter. A
 * `toLocaleString` call with options builds a new formatter every time (0.2–0.4 ms each on a
 * desktop here, four times that on a phone), and a screen listing hundreds of them (a long
 * conversation's times) paid that on every render. A label built here makes its formatter on first
 * use, not at import (the first formatter of a page loads the browser's date data, ~40 ms cold, a
 * cost no screen that shows no date should pay), and again once it is FORMATTER_KEPT_MS old. The
 * text is the same as `toLocaleString`'s with the same locale and options (options naming at
 * least one date or time field).
 */
export function dateLabel(options: Intl.DateTimeFormatOptions, locales?: string): (at: number | Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  let builtAt = 0;
  return (at) => {
    const now = Date.now();
    if (!format || now - builtAt >= FORMATTER_KEPT_MS) {
      format = new Intl.DateTimeFormat(locales, options);
      builtAt = now;
    }
    return format.format(at);
  };
}

/** "Dec 8, 02:41": a chat message's time, a sync problem's older moments. */
export const dayAndTimeLabel = dateLabel({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
