import { describe, expect, it } from 'vitest';
import { isSanitized, sanitizeText } from './text';

describe('sanitizeText (decision 013)', () => {
  it.each([
    ['U+202E right-to-left override', 'Sup\u202Eport', 'Support'],
    ['U+202A–U+202D embeddings and left-to-right override', '\u202Aa\u202Bb\u202Cc\u202Dd', 'abcd'],
    ['U+2066–U+2069 isolates', '\u2066x\u2067y\u2068z\u2069', 'xyz'],
    ['U+200E, U+200F marks and U+061C Arabic letter mark', '\u200Ea\u200Fb\u061Cc', 'abc'],
    ['NUL', 'Ad\u0000a', 'Ada'],
    ['other C0 controls and DEL', 'a\u0001b\u0008c\u000Bd\u000Ce\u001Ff\u007Fg', 'abcdefg'],
    ['a lone high surrogate', 'a\uD83Db', 'ab'],
    ['a lone low surrogate', 'a\uDE00b', 'ab'],
    ['a trailing high surrogate', 'ab\uD83D', 'ab'],
  ])('strips %s', (_name, input, output) => {
    expect(sanitizeText(input)).toBe(output);
    expect(isSanitized(input)).toBe(false);
    expect(isSanitized(output)).toBe(true);
  });

  it.each([
    ['plain text', 'Poster design for a café'],
    ['tab, line feed and carriage return', 'line one\r\n\tline two'],
    ['a surrogate pair (emoji)', 'Great work 😀🎨'],
    ['right-to-left scripts', 'مرحبا שלום'],
    ['zero-width joiner inside an emoji sequence', '👩\u200D🎨'],
    ['the empty string', ''],
  ])('keeps %s as it is', (_name, text) => {
    expect(sanitizeText(text)).toBe(text);
    expect(isSanitized(text)).toBe(true);
  });

  it('strips every occurrence, not only the first', () => {
    expect(sanitizeText('\u202E\u0000S\u202Eu\u0000pport\u202E')).toBe('Support');
  });
});
