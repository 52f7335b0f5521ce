import { describe, expect, it } from 'vitest';
import { applicationIdFor, conversationIdFor, ID_PATTERN, newId, participantsOf } from './ids';

describe('ids', () => {
  it('a conversation id is the two user ids sorted and joined by an underscore (SPEC.md §3)', () => {
    expect(conversationIdFor('zed123', 'abc456')).toBe('abc456_zed123');
    expect(conversationIdFor('abc456', 'zed123')).toBe('abc456_zed123');
    expect(participantsOf('abc456_zed123')).toEqual(['abc456', 'zed123']);
  });
  it.each([['abc456'], ['zed123_abc456'], ['abc456_abc456'], ['a_b'], ['abc456_zed123_x'], ['../x_abc456']])('%s is not a valid conversation id', (id) => {
    expect(participantsOf(id)).toBeUndefined();
  });
  it('one application per applicant and gig', () => {
    expect(applicationIdFor('gig123', 'user456')).toBe('gig123.user456');
  });
  it('new ids match the id pattern', () => {
    let i = 0;
    const id = newId((n) => Uint8Array.from({ length: n }, () => (i++ * 37) % 256));
    expect(id).toMatch(ID_PATTERN);
    expect(id).toHaveLength(20);
  });
});
