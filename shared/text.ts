/**
 * User text as the server stores it (decision 013). Names, titles, descriptions and messages are
 * shown to other users, inside notifications and next to the platform's own words, so characters
 * that change how the surrounding text is displayed are removed on every write:
 *
 * - the bidirectional controls: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069,
 *   the marks U+200E, U+200F and U+061C (a name with U+202E can show "Support" reversed into
 *   anything, or flip the rest of the sentence it sits in);
 * - NUL and the other C0 controls but tab, line feed and carriage return, and DEL;
 * - lone surrogates (half of a UTF-16 pair), which are not text and break encoders downstream.
 *
 * Everything else is kept: right-to-left scripts themselves display correctly without controls.
 */
const STRIPPED =
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function sanitizeText(text: string): string {
  return text.replace(STRIPPED, '');
}

/** True when `text` is already what sanitizeText makes of it. */
export function isSanitized(text: string): boolean {
  return sanitizeText(text) === text;
}

/**
 * A user-chosen name or title inside one of the platform's sentences, set off in quotation marks
 * after the platform's own words, so a user named "Support" reads as a name, never as the start of
 * a sentence the platform wrote (decision 013).
 */
export function quoted(text: string): string {
  return `“${sanitizeText(text)}”`;
}
