import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../../shared/chat-doc';
import { judgeUpdate, type JudgeRules } from './judge';

const ALICE = 'alice-0001';
const BOB = 'bob-000002';

const msg = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  content: `text of ${id}`,
  senderId: ALICE,
  receiverId: BOB,
  clientTime: 1,
  ...overrides,
});

/** A room (server copy) and a client synced with it. */
function scene() {
  const room = new Y.Doc();
  const client = new Y.Doc();
  const rules: JudgeRules = { userId: ALICE, otherId: BOB, knownIds: new Set(), ownerOf: () => undefined };
  /** What the client has that the room has not, as the client would send it. */
  const diff = (from: Y.Doc = client) => Y.encodeStateAsUpdate(from, Y.encodeStateVector(room));
  /** Judges against the room itself, and checks the judging left the room as it was. */
  const judge = (update: Uint8Array, r: Partial<JudgeRules> = {}) => {
    const before = Y.encodeStateAsUpdate(room);
    const verdict = judgeUpdate(room, update, { ...rules, ...r });
    expect(Y.encodeStateAsUpdate(room)).toEqual(before);
    expect(room.store.pendingStructs).toBeNull();
    return verdict;
  };
  /** The room accepts what the client sent. */
  const accept = (update: Uint8Array) => Y.applyUpdate(room, update);
  return { room, client, diff, judge, accept, messages: client.getArray(CHAT_MESSAGES_ARRAY) };
}

describe('the chat server judges each update before the room sees it', () => {
  it('accepts messages pushed by the signed-in user to the other participant, and names them', () => {
    const { client, diff, judge, messages } = scene();
    messages.push([msg('m1'), msg('m2')]);
    const verdict = judge(diff());
    expect(verdict).toEqual({ ok: true, messages: [msg('m1'), msg('m2')], clients: [client.clientID], repeats: false });
  });

  it('accepts a second push after the first was accepted (Yjs merges the two items; only the new one counts)', () => {
    const { diff, judge, accept, messages } = scene();
    messages.push([msg('m1')]);
    accept(diff());
    messages.push([msg('m2')]);
    expect(judge(diff())).toMatchObject({ ok: true, messages: [msg('m2')] });
  });

  it('accepts a concurrent push that lands before an earlier accepted one (order comes from stamps)', () => {
    const { room, diff, judge, accept } = scene();
    const other = new Y.Doc();
    other.clientID = 1; // lower than any random id: its concurrent insert sorts first
    const mine = new Y.Doc();
    mine.clientID = 2 ** 30;
    mine.getArray(CHAT_MESSAGES_ARRAY).push([msg('late')]);
    accept(diff(mine));
    other.getArray(CHAT_MESSAGES_ARRAY).push([msg('b1', { senderId: BOB, receiverId: ALICE })]);
    const verdict = judge(diff(other), { userId: BOB, otherId: ALICE });
    expect(verdict).toMatchObject({ ok: true, messages: [{ id: 'b1' }] });
    accept(diff(other));
    expect((room.getArray(CHAT_MESSAGES_ARRAY).toArray() as { id: string }[]).map((m) => m.id)).toEqual(['b1', 'late']);
  });

  it('accepts an update that brings nothing new, with no messages and no clients', () => {
    const { diff, judge, accept, messages } = scene();
    messages.push([msg('m1')]);
    const update = diff();
    accept(update);
    expect(judge(update)).toEqual({ ok: true, messages: [], clients: [], repeats: true });
  });

  it.each<[string, (s: ReturnType<typeof scene>) => Uint8Array, string]>([
    [
      'a message in the name of the other user',
      (s) => (s.messages.push([msg('x', { senderId: BOB, receiverId: ALICE })]), s.diff()),
      'signed-in user',
    ],
    ['an empty message', (s) => (s.messages.push([msg('x', { content: '' })]), s.diff()), 'empty'],
    ['a whitespace-only message', (s) => (s.messages.push([msg('x', { content: ' \n ' })]), s.diff()), 'empty'],
    [
      'a message over 5000 characters',
      (s) => (s.messages.push([msg('x', { content: 'a'.repeat(5001) })]), s.diff()),
      '5000',
    ],
    [
      'a valid message next to an invalid one',
      (s) => (s.messages.push([msg('ok'), msg('x', { receiverId: 'carol-0003' })]), s.diff()),
      'other participant',
    ],
    ['a write to stamps', (s) => (s.client.getMap(CHAT_STAMPS_MAP).set('m1', 1), s.diff()), 'server writes stamps'],
    ['a write to another shared type', (s) => (s.client.getText('notes').insert(0, 'hi'), s.diff()), 'Only messages'],
    ['a nested Y.Map as a message', (s) => (s.messages.push([new Y.Map()]), s.diff()), 'plain object'],
    ['a string pushed as text content', (s) => (s.messages.push(['hello']), s.diff()), 'object'],
    ['a message id used twice in one update', (s) => (s.messages.push([msg('same'), msg('same')]), s.diff()), 'own id'],
  ])('refuses %s', (_case, make, reason) => {
    const s = scene();
    const update = make(s);
    const verdict = s.judge(update);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(reason);
  });

  it('refuses a message set under a key of the messages array (a client that took it for a Y.Map)', () => {
    const { diff, judge } = scene();
    const mapView = new Y.Doc();
    mapView.getMap(CHAT_MESSAGES_ARRAY).set('m1', msg('m1'));
    expect(judge(diff(mapView))).toEqual({ ok: false, reason: 'Only messages can be added' });
  });

  it('refuses the deletion of a message, even by its sender', () => {
    const { diff, judge, accept, messages, room } = scene();
    messages.push([msg('m1'), msg('m2')]);
    accept(diff());
    messages.delete(0, 1);
    const deletion = Y.encodeStateAsUpdate(messages.doc!, Y.encodeStateVector(room));
    expect(judge(deletion)).toEqual({ ok: false, reason: 'Messages cannot be deleted or changed' });
  });

  it('refuses a message inserted and deleted in the same update', () => {
    const { diff, judge, messages } = scene();
    messages.doc!.transact(() => {
      messages.push([msg('m1'), msg('m2')]);
      messages.delete(1, 1);
    });
    expect(judge(diff()).ok).toBe(false);
  });

  it('refuses an id the room already has', () => {
    const { diff, judge, messages } = scene();
    messages.push([msg('m1')]);
    expect(judge(diff(), { knownIds: new Set(['m1']) })).toMatchObject({
      ok: false,
      reason: 'Each message needs its own id',
    });
  });

  it('refuses writing under a Yjs client id another user (or the server) writes with', () => {
    const { client, diff, judge, messages } = scene();
    messages.push([msg('m1')]);
    expect(judge(diff(), { ownerOf: (c) => (c === client.clientID ? BOB : undefined) }).ok).toBe(false);
    expect(judge(diff(), { ownerOf: (c) => (c === client.clientID ? '' : undefined) }).ok).toBe(false);
    expect(judge(diff(), { ownerOf: (c) => (c === client.clientID ? ALICE : undefined) }).ok).toBe(true);
  });

  it('refuses an update that depends on changes the room does not have, instead of holding it as pending', () => {
    const { client, judge, messages } = scene();
    messages.push([msg('m1')]);
    const before = Y.encodeStateVector(client);
    messages.push([msg('m2')]);
    const onlySecond = Y.encodeStateAsUpdate(client, before);
    expect(judge(onlySecond)).toEqual({ ok: false, reason: 'The update depends on changes the server does not have' });
  });

  it('refuses bytes that are not a Yjs update', () => {
    const { judge } = scene();
    expect(judge(new Uint8Array([200, 1, 2, 3, 4, 5])).ok).toBe(false);
  });

  it('accepts an offline queue written under two client ids, the later leaning on the earlier (whatever order the update lists them in)', () => {
    const { room, judge, accept } = scene();
    const first = new Y.Doc();
    first.clientID = 5;
    first.getArray(CHAT_MESSAGES_ARRAY).push([msg('q1')]);
    const second = new Y.Doc();
    second.clientID = 2 ** 30; // listed first in a merged update, yet it leans on client 5's item
    Y.applyUpdate(second, Y.encodeStateAsUpdate(first));
    second.getArray(CHAT_MESSAGES_ARRAY).push([msg('q2')]);
    const update = Y.encodeStateAsUpdate(second, Y.encodeStateVector(room));
    expect(judge(update)).toMatchObject({ ok: true, messages: [{ id: 'q2' }, { id: 'q1' }] });
    accept(update);
    expect(room.store.pendingStructs).toBeNull();
    expect(room.getArray(CHAT_MESSAGES_ARRAY).length).toBe(2);
    // Without client 5's part, client 2**30's item leans on something the room lacks.
    const room2 = scene();
    const onlySecond = Y.encodeStateAsUpdate(second, Y.encodeStateVector(first));
    expect(room2.judge(onlySecond)).toEqual({
      ok: false,
      reason: 'The update depends on changes the server does not have',
    });
  });

  it('judges only the part of an item the room lacks when an update starts inside what it has', () => {
    const { client, room, judge, accept, messages } = scene();
    messages.push([msg('m1')]);
    accept(Y.encodeStateAsUpdate(client));
    const roomHad = Y.encodeStateVector(room);
    messages.push([msg('m2')]);
    // The client's whole state (m1 and m2 merged into one item), as a client re-sending everything would.
    const everything = Y.encodeStateAsUpdate(client);
    expect(judge(everything, { knownIds: new Set(['m1']) })).toEqual({
      ok: true,
      messages: [msg('m2')],
      clients: [client.clientID],
      repeats: true,
    });
    expect(Y.encodeStateVector(room)).toEqual(roomHad);
  });

  it('refuses an update that lists a client twice (Yjs would apply only its last run, unjudged)', () => {
    const { client, judge, messages } = scene();
    messages.push([msg('m1')]);
    const valid = Y.encodeStateAsUpdate(client);
    const forged = new Y.Doc();
    forged.clientID = client.clientID;
    forged.getMap(CHAT_STAMPS_MAP).set('m1', 1);
    // Both runs in one update: the valid one first, the forged one after it.
    const both = concatRuns(valid, Y.encodeStateAsUpdate(forged));
    expect(judge(both).ok).toBe(false);
  });
});

/** Two updates' struct runs in one update (two runs each of one client), as a hostile client could encode it. */
function concatRuns(a: Uint8Array, b: Uint8Array): Uint8Array {
  // Both are `[1 client run][runs…][empty delete set 0]`: count 2, then each one's runs without its count and delete set.
  expect(a[0]).toBe(1);
  expect(b[0]).toBe(1);
  expect(a.at(-1)).toBe(0);
  expect(b.at(-1)).toBe(0);
  return new Uint8Array([2, ...a.subarray(1, -1), ...b.subarray(1, -1), 0]);
}
