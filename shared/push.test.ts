import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES } from './constants';
import { groupsOfTypes, PUSH_GROUPS, PUSH_LIMITS, pushSubscriptionBodySchema, typesOfGroups } from './push';
import { isAppPath } from './push-links';
import { parsePushPayload, pushPayload } from './push-payload';

const note = (overrides: Partial<Parameters<typeof pushPayload>[0]> = {}) => ({
  id: 'n1abc2',
  userId: 'u1abc2',
  type: 'FINAL_BUDGET_OFFER' as const,
  message: 'Bea sent you an offer of C$250.00 for “Album cover”',
  createdAt: 1_700_000_000_000,
  ...overrides,
});

describe('push payloads', () => {
  it("carry the notifications page's text and the path its click opens", () => {
    const p = pushPayload(note());
    expect(p).toEqual({
      v: 1,
      userId: 'u1abc2',
      notificationId: 'n1abc2',
      type: 'FINAL_BUDGET_OFFER',
      title: 'Creative Gigs',
      body: 'Bea sent you an offer of C$250.00 for “Album cover”',
      url: '/basket?view=seller',
      tag: 'notification-n1abc2',
      createdAt: 1_700_000_000_000,
    });
    expect(parsePushPayload(JSON.stringify(p))).toEqual(p);
  });

  it("tag a conversation's messages alike, so a newer one replaces the older on the device", () => {
    const p = pushPayload(note({ type: 'new_message', senderId: 's1abc2', conversationId: 'a_b', message: 'Hi' }));
    expect(p).toMatchObject({ url: '/exchange/s1abc2', tag: 'conversation-a_b' });
  });

  it(`shorten long text to ${PUSH_LIMITS.bodyMax} characters and stay under ${PUSH_LIMITS.payloadMaxBytes} bytes, even in four-byte characters`, () => {
    const long = pushPayload(note({ message: 'x'.repeat(1000) }));
    expect([...long.body]).toHaveLength(PUSH_LIMITS.bodyMax);
    expect(long.body.endsWith('…')).toBe(true);
    const emoji = pushPayload(note({ message: '🎨'.repeat(1000) }));
    expect(new TextEncoder().encode(JSON.stringify(emoji)).length).toBeLessThanOrEqual(PUSH_LIMITS.payloadMaxBytes);
    expect(emoji.body.startsWith('🎨🎨')).toBe(true);
  });
});

describe('what the service worker accepts as a push', () => {
  it.each([
    ['nothing', null],
    ['not JSON', 'hello'],
    ['another version', JSON.stringify({ ...pushPayload(note()), v: 2 })],
    ['a URL to another site', JSON.stringify({ ...pushPayload(note()), url: 'https://evil.example/' })],
    ['a protocol-relative URL', JSON.stringify({ ...pushPayload(note()), url: '//evil.example/' })],
    ['a missing user', JSON.stringify({ ...pushPayload(note()), userId: undefined })],
  ])('refuses %s', (_label, text) => {
    expect(parsePushPayload(text)).toBeNull();
  });

  it('takes only paths of this app as click targets', () => {
    expect(isAppPath('/basket?view=seller')).toBe(true);
    for (const bad of ['https://x.example', '//x.example', '/\\x.example', 'javascript:alert(1)', 42])
      expect(isAppPath(bad)).toBe(false);
  });
});

describe('notification types by group', () => {
  it('cover every notification type exactly once', () => {
    const all = PUSH_GROUPS.flatMap((g) => g.types);
    expect([...all].sort()).toEqual([...NOTIFICATION_TYPES].sort());
  });

  it('map checkboxes to types and back', () => {
    expect(typesOfGroups(['messages'])).toEqual(['new_conversation', 'new_message', 'message']);
    expect(groupsOfTypes(typesOfGroups(['offers', 'payments']))).toEqual(['offers', 'payments']);
    expect(groupsOfTypes(['new_message'])).toEqual([]);
  });
});

describe('subscription bodies', () => {
  const valid = {
    endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
    expirationTime: null,
    keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
    types: ['new_message'],
  };
  it('take what PushSubscription.toJSON() gives, plus the types', () => {
    expect(pushSubscriptionBodySchema.safeParse(valid).success).toBe(true);
  });
  it.each([
    ['a relative endpoint', { endpoint: '/push' }],
    ['an endpoint with credentials', { endpoint: 'https://u:p@fcm.googleapis.com/x' }],
    ['a key of the wrong size', { keys: { p256dh: 'B'.repeat(86), auth: 'A'.repeat(22) } }],
    ['an unknown type', { types: ['everything'] }],
    ['a repeated type', { types: ['new_message', 'new_message'] }],
    ['another field', { device: 'mine' }],
  ])('refuse %s', (_label, change) => {
    expect(pushSubscriptionBodySchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });
});
