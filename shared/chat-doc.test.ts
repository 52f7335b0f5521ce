import { describe, expect, it } from 'vitest';
import { checkChatDocMessage, newMessageNotice, orderChatMessages, type ChatDocMessage } from './chat-doc';
import { LIMITS } from './constants';

const ALICE = 'alice-0001';
const BOB = 'bob-000002';
const asAlice = { senderId: ALICE, receiverId: BOB };

const message = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'm-1',
  content: 'Hello Bob',
  senderId: ALICE,
  receiverId: BOB,
  clientTime: 1_700_000_000_000,
  ...overrides,
});

describe('a message object pushed into the chat document', () => {
  it('is accepted when well formed, and comes back with exactly its five fields', () => {
    expect(checkChatDocMessage(message(), asAlice)).toEqual({ ok: true, message: message() });
  });

  it.each<[string, unknown]>([
    ["docs/product.md §5 Messages 'An empty ... message is not sent': empty", message({ content: '' })],
    ["docs/product.md §5 Messages '... or whitespace-only message is not sent'", message({ content: ' \n\t ' })],
    ['[decision] over LIMITS.messageMax characters', message({ content: 'm'.repeat(LIMITS.messageMax + 1) })],
    [
      '[decision] over the limit counting surrounding whitespace too',
      message({ content: `${'m'.repeat(LIMITS.messageMax)} ` }),
    ],
    ['content that is not text', message({ content: 42 })],
    ['[decision 013] a right-to-left override in the text', message({ content: 'Pay \u202Eereh' })],
    ['[decision 013] a NUL in the text', message({ content: 'Hello\u0000' })],
    ['sent in the name of the other participant', message({ senderId: BOB, receiverId: ALICE })],
    ['addressed to a third user', message({ receiverId: 'carol-0003' })],
    ['addressed to the sender', message({ receiverId: ALICE })],
    ['an id longer than 64', message({ id: 'a'.repeat(65) })],
    ['an empty id', message({ id: '' })],
    ['an id with other characters', message({ id: 'm 1' })],
    ['an id that is a prototype key', message({ id: '__proto__' })],
    ['an id that is not text', message({ id: 7 })],
    ['a missing field', (({ clientTime: _t, ...rest }) => rest)(message())],
    ['an extra field', message({ read: true })],
    ['a client time that is not a number', message({ clientTime: '2024' })],
    ['a negative client time', message({ clientTime: -1 })],
    ['null', null],
    ['an array', [message()]],
    ['a string', 'Hello'],
    ['an object with another prototype', Object.assign(Object.create({ inherited: true }), message())],
    ['a gig id that is not an id', message({ gigId: 'not an id!' })],
    ['a gig id that is too short', message({ gigId: 'abc' })],
    ['a gig id that is not text', message({ gigId: 12345678 })],
    ['a gig id that is null', message({ gigId: null })],
    ['a gig id with an underscore (it would read as a conversation id)', message({ gigId: 'gig_000001' })],
  ])('is refused: %s', (_case, value) => {
    const result = checkChatDocMessage(value, asAlice);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toBeTruthy();
  });

  it.each<[string, Record<string, unknown>]>([
    ['exactly LIMITS.messageMax characters', message({ content: 'm'.repeat(LIMITS.messageMax) })],
    ['text with surrounding whitespace (the rule is on the trimmed text)', message({ content: ' Hi \n' })],
    ['a UUID id', message({ id: '0b9f3c0e-5d3b-4a7e-9a0e-6d1c2b3a4f5e' })],
    ['a 64-character id', message({ id: 'x'.repeat(64) })],
  ])('is accepted: %s', (_case, value) => {
    expect(checkChatDocMessage(value, asAlice).ok).toBe(true);
  });

  it('may carry the gig it was written from, and comes back with it', () => {
    expect(checkChatDocMessage(message({ gigId: 'gig-000001' }), asAlice)).toEqual({
      ok: true,
      message: message({ gigId: 'gig-000001' }),
    });
  });
});

describe("docs/product.md Chat 'Shows messages in ascending time order'", () => {
  const m = (id: string, clientTime: number): ChatDocMessage => ({
    id,
    content: id,
    senderId: ALICE,
    receiverId: BOB,
    clientTime,
  });

  it('orders by server stamp, not by the order in the array or the client clock', () => {
    const shown = orderChatMessages(
      [m('a', 3), m('b', 1), m('c', 2)],
      new Map([
        ['a', 20],
        ['b', 30],
        ['c', 10],
      ]),
    );
    expect(shown.map((x) => [x.id, x.timestamp, x.pending])).toEqual([
      ['c', 10, false],
      ['a', 20, false],
      ['b', 30, false],
    ]);
  });

  it('puts pending messages (no stamp yet) last, in their client order; equal stamps tie by id', () => {
    const shown = orderChatMessages(
      [m('p2', 9), m('z', 1), m('p1', 5), m('y', 1)],
      new Map([
        ['z', 10],
        ['y', 10],
      ]),
    );
    expect(shown.map((x) => [x.id, x.pending])).toEqual([
      ['y', false],
      ['z', false],
      ['p1', true],
      ['p2', true],
    ]);
  });
});

describe('[decision] the new_message notification text', () => {
  it('names the sender and previews the latest message on one line', () => {
    expect(newMessageNotice('Sam Seller', '  See you\n tomorrow ')).toBe(
      'New message from “Sam Seller”: See you tomorrow',
    );
  });

  it('cuts a long message to 100 characters', () => {
    const notice = newMessageNotice('Sam', 'x'.repeat(300));
    expect(notice).toBe(`New message from “Sam”: ${'x'.repeat(99)}…`);
  });
});

describe('[decision 013] names in notification texts', () => {
  it('sets the sender name off in quotation marks, without direction overrides', () => {
    expect(newMessageNotice('\u202ESupport', 'Your account is locked')).toBe(
      'New message from “Support”: Your account is locked',
    );
  });
  it('names the gig the message was written from, when it has one', () => {
    expect(newMessageNotice('Sam Seller', 'Sketch attached', 'Album cover illustration')).toBe(
      'New message from “Sam Seller” about “Album cover illustration”: Sketch attached',
    );
  });
});
