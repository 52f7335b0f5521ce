import { describe, expect, it } from 'vitest';
import {
  applicationIdFor,
  applicationIdParts,
  conversationIdFor,
  ID_PATTERN,
  isDocumentId,
  isId,
  newId,
  participantsOf,
} from './ids';

describe('ids', () => {
  it('a conversation id is the two user ids sorted and joined by an underscore (docs/product.md §3)', () => {
    expect(conversationIdFor('zed123', 'abc456')).toBe('abc456_zed123');
    expect(conversationIdFor('abc456', 'zed123')).toBe('abc456_zed123');
    expect(participantsOf('abc456_zed123')).toEqual(['abc456', 'zed123']);
  });
  it.each([['abc456'], ['zed123_abc456'], ['abc456_abc456'], ['a_b'], ['abc456_zed123_x'], ['../x_abc456']])(
    '%s is not a valid conversation id',
    (id) => {
      expect(participantsOf(id)).toBeUndefined();
    },
  );
  it('one application per applicant and gig', () => {
    expect(applicationIdFor('gig123', 'user456')).toBe('gig123.user456');
  });
  it('new ids match the id pattern', () => {
    let i = 0;
    const id = newId((n) => Uint8Array.from({ length: n }, () => (i++ * 37) % 256));
    expect(id).toMatch(ID_PATTERN);
    expect(id).toHaveLength(20);
  });

  it('new ids always end with a digit, so no built-in name can be generated', () => {
    for (const fill of [0, 10, 25, 35, 255]) {
      const id = newId((n) => new Uint8Array(n).fill(fill));
      expect(id).toMatch(/^[a-z0-9]{19}[0-9]$/);
      expect(isId(id)).toBe(true);
    }
  });

  // A plain object keyed by document id answers these with its built-in member: RxDB's pull then
  // throws and drops the whole batch (issue 18).
  const builtIns = [...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'toSource', 'watch', 'unwatch'];
  it.each(builtIns)('%s is not an id, nor part of an application or conversation id', (name) => {
    expect(isId(name)).toBe(false);
    expect(ID_PATTERN.test(name)).toBe(false);
    for (const collection of ['users', 'gigs', 'notifications', 'applications', 'conversations'])
      expect(isDocumentId(collection, name)).toBe(false);
    expect(isDocumentId('applications', applicationIdFor(name, 'user456'))).toBe(false);
    expect(isDocumentId('applications', applicationIdFor('gig123', name))).toBe(false);
    expect(isDocumentId('conversations', `${name}_zzz999`)).toBe(false);
    expect(isDocumentId('conversations', `abc123_${name}`)).toBe(false);
  });

  it('every id form in use passes: newId, hex test ids, dashed fixtures, application and conversation ids', () => {
    const generated = newId((n) => Uint8Array.from({ length: n }, (_, i) => i * 11));
    for (const id of [
      generated,
      'a1b2c3d4e5f60718293a',
      'gig-abcdef1',
      'user-abc123',
      'creator-1',
      'forged-notification-1',
      'abcdefghijklmnopqrst',
    ]) {
      expect(isId(id)).toBe(true);
      expect(isDocumentId('gigs', id)).toBe(true);
    }
    expect(isDocumentId('applications', applicationIdFor(generated, 'user456'))).toBe(true);
    expect(applicationIdParts('gig123.user456')).toEqual({ gigId: 'gig123', applicantId: 'user456' });
    expect(isDocumentId('conversations', conversationIdFor(generated, 'user456'))).toBe(true);
    for (const bad of ['gig123', 'gig123.user456.x', 'gig123_user456', '.user456', 42, undefined])
      expect(isDocumentId('applications', bad)).toBe(false);
    expect(isDocumentId('users', 'gig123.user456')).toBe(false);
  });
});
