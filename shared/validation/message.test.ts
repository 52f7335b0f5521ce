import { describe, expect, it } from 'vitest';
import { LIMITS } from '../constants';
import { checkMessage, isSendableMessage, MESSAGE_TOO_LONG } from './message';

describe("docs/product.md §5 Messages: 'An empty or whitespace-only message is not sent.'", () => {
  it.each<[string, string, ReturnType<typeof checkMessage>]>([
    ['empty', '', { ok: false }],
    ['spaces', '   ', { ok: false }],
    ['newlines and tabs', '\n\t \n', { ok: false }],
    ['non-breaking space only', '\u00a0', { ok: false }],
    ['text', 'Hello', { ok: true, content: 'Hello' }],
    ['text with surrounding whitespace is sent trimmed', '  Hello there \n', { ok: true, content: 'Hello there' }],
    ['inner line breaks are kept', 'line 1\nline 2', { ok: true, content: 'line 1\nline 2' }],
    [
      '[decision] exactly the limit',
      'm'.repeat(LIMITS.messageMax),
      { ok: true, content: 'm'.repeat(LIMITS.messageMax) },
    ],
    ['[decision] one over the limit', 'm'.repeat(LIMITS.messageMax + 1), { ok: false, error: MESSAGE_TOO_LONG }],
    [
      '[decision] the limit counts the trimmed text',
      ` ${'m'.repeat(LIMITS.messageMax)} `,
      { ok: true, content: 'm'.repeat(LIMITS.messageMax) },
    ],
  ])('%s', (_case, text, result) => {
    expect(checkMessage(text)).toEqual(result);
    expect(isSendableMessage(text)).toBe(result.ok);
  });

  it('the empty case carries no error text (it is simply not sent); too long says why', () => {
    expect(MESSAGE_TOO_LONG).toBe('Message must be at most 5000 characters');
  });
});

describe('[decision 013] the sent text is sanitised', () => {
  it('drops direction overrides and NUL before trimming and sending', () => {
    expect(checkMessage(' \u202EHello\u0000 ')).toEqual({ ok: true, content: 'Hello' });
  });

  it('a message of controls only is not sent', () => {
    expect(checkMessage('\u202E\u0000').ok).toBe(false);
  });
});
