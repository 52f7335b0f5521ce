import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, type ChatDocMessage } from '../../shared/chat-doc';
import { decideBatch, type Arrival, type RoomState } from './decide';
import { CHAT_LIMITS } from './limits';

const ALICE = 'alice-0001';
const BOB = 'bob-000002';
const SERVER = 99;

type Peer = { userId: string; otherId: string; name: string };
const alice: Peer = { userId: ALICE, otherId: BOB, name: 'alice' };
const bob: Peer = { userId: BOB, otherId: ALICE, name: 'bob' };

const msg = (id: string, senderId: string, clientTime = 1): ChatDocMessage => ({
  id,
  content: `text of ${id}`,
  senderId,
  receiverId: senderId === ALICE ? BOB : ALICE,
  clientTime,
});

/** A room with its decision's view, and clients that write into it. */
function scene(overrides: Partial<RoomState> = {}) {
  const doc = new Y.Doc();
  const owners = new Map<number, string>();
  const state = (): RoomState => ({
    doc,
    knownIds: new Set(doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY).map((m) => m.id)),
    ownerOf: (client) => owners.get(client),
    logBytes: 0,
    lastStamp: Math.max(0, ...doc.getMap<number>(CHAT_STAMPS_MAP).values()),
    serverClient: SERVER,
    now: 1_000,
    ...overrides,
  });
  /** A client synced with the room; `push` returns the update its push makes, as it would send it. */
  const client = (clientID: number) => {
    const c = new Y.Doc();
    c.clientID = clientID;
    Y.applyUpdate(c, Y.encodeStateAsUpdate(doc));
    return {
      doc: c,
      push(...messages: ChatDocMessage[]): Uint8Array {
        const before = Y.encodeStateVector(c);
        c.getArray(CHAT_MESSAGES_ARRAY).push(messages);
        return Y.encodeStateAsUpdate(c, before);
      },
    };
  };
  /** Applies a decision's entry, as the room does once it is logged. */
  const log = (entries: readonly Uint8Array[] = [], claimed: { peer: Peer; clients: number[] }[] = []) => {
    for (const entry of entries) Y.applyUpdate(doc, entry);
    for (const { peer, clients } of claimed) for (const c of clients) owners.set(c, peer.userId);
  };
  const stamps = () => Object.fromEntries(doc.getMap<number>(CHAT_STAMPS_MAP).entries());
  const ids = () => doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY).map((m) => m.id);
  return { doc, state, client, log, stamps, ids };
}

const arrive = (peer: Peer, update: Uint8Array): Arrival<Peer> => ({ peer, update });

describe('a room decides its waiting updates together, as one entry with their stamps', () => {
  it('takes two users’ updates and stamps their messages after the newest stamp, each sender’s by its clock', () => {
    const room = scene();
    const a = room.client(1001);
    const b = room.client(1002);
    const batch = [
      arrive(alice, a.push(msg('a2', ALICE, 20), msg('a1', ALICE, 10))),
      arrive(bob, b.push(msg('b1', BOB, 5))),
    ];
    const { append, value } = decideBatch(room.state(), batch, []);
    // Deciding changes nothing: the entry is applied once logged.
    expect(room.ids()).toEqual([]);
    expect(value.refused).toEqual([]);
    expect(value.accepted.map((x) => x.peer.name)).toEqual(['alice', 'bob']);
    expect(value.stamped.map((m) => [m.id, m.timestamp])).toEqual([
      ['a1', 1_000],
      ['a2', 1_001],
      ['b1', 1_002],
    ]);
    room.log(append, value.accepted);
    expect(room.ids().sort()).toEqual(['a1', 'a2', 'b1']);
    expect(room.stamps()).toEqual({ a1: 1_000, a2: 1_001, b1: 1_002 });
    expect(room.doc.store.pendingStructs).toBeNull();
  });

  it('stamps come after the newest one even when this clock is behind (another instance’s)', () => {
    const room = scene();
    const a = room.client(1001);
    const first = decideBatch({ ...room.state(), now: 5_000 }, [arrive(alice, a.push(msg('m1', ALICE)))], []);
    room.log(first.append, first.value.accepted);
    const second = decideBatch({ ...room.state(), now: 10 }, [arrive(alice, a.push(msg('m2', ALICE)))], []);
    room.log(second.append, second.value.accepted);
    expect(room.stamps()).toEqual({ m1: 5_000, m2: 5_001 });
  });

  it('takes a peer’s update that leans on its previous one, both waiting in the same batch', () => {
    const room = scene();
    const a = room.client(1001);
    const batch = [arrive(alice, a.push(msg('m1', ALICE))), arrive(alice, a.push(msg('m2', ALICE)))];
    const { append, value } = decideBatch(room.state(), batch, []);
    expect(value.refused).toEqual([]);
    room.log(append, value.accepted);
    expect(room.ids()).toEqual(['m1', 'm2']);
    expect(Object.keys(room.stamps()).sort()).toEqual(['m1', 'm2']);
  });

  it('keeps a peer’s updates before its forgery, refuses the peer, and takes the other peers’', () => {
    const room = scene();
    const a = room.client(1001);
    const b = room.client(1002);
    const forged = room.client(1003);
    const batch = [
      arrive(alice, a.push(msg('a1', ALICE))),
      arrive(alice, a.push(msg('a2', ALICE))),
      arrive(alice, forged.push(msg('in-bobs-name', BOB))),
      arrive(alice, a.push(msg('a3', ALICE))),
      arrive(bob, b.push(msg('b1', BOB))),
    ];
    const { append, value } = decideBatch(room.state(), batch, []);
    expect(value.refused).toEqual([
      { peer: alice, code: 4403, reason: 'A message must be sent by the signed-in user' },
    ]);
    room.log(append, value.accepted);
    expect(room.ids().sort()).toEqual(['a1', 'a2', 'b1']);
    expect(Object.keys(room.stamps()).sort()).toEqual(['a1', 'a2', 'b1']);
  });

  it('refuses a second user claiming a Yjs client id the batch gave to the first', () => {
    const room = scene();
    const a = room.client(1001);
    const b = room.client(1001); // the same new client id, by another user
    const batch = [arrive(alice, a.push(msg('a1', ALICE))), arrive(bob, b.push(msg('b1', BOB)))];
    const { append, value } = decideBatch(room.state(), batch, []);
    expect(value.refused).toEqual([{ peer: bob, code: 4403, reason: 'That Yjs client id belongs to someone else' }]);
    room.log(append, value.accepted);
    expect(room.ids()).toEqual(['a1']);
  });

  it('refuses a message id the batch already took', () => {
    const room = scene();
    const batch = [
      arrive(alice, room.client(1001).push(msg('same', ALICE))),
      arrive(bob, room.client(1002).push(msg('same', BOB))),
    ];
    const { value } = decideBatch(room.state(), batch, []);
    expect(value.refused).toEqual([{ peer: bob, code: 4403, reason: 'Each message needs its own id' }]);
    expect(value.stamped.map((m) => m.senderId)).toEqual([ALICE]);
  });

  it('appends nothing for an update the room already has', () => {
    const room = scene();
    const a = room.client(1001);
    const update = a.push(msg('m1', ALICE));
    const first = decideBatch(room.state(), [arrive(alice, update)], []);
    room.log(first.append, first.value.accepted);
    const again = decideBatch(room.state(), [arrive(alice, update)], []);
    expect(again.append).toEqual([]);
    expect(again.value).toEqual({ accepted: [], refused: [], stamped: [] });
  });

  it('logs only what is new of an update that repeats what the room has', () => {
    const room = scene();
    const a = room.client(1001);
    const first = a.push({ ...msg('m1', ALICE), content: 'x'.repeat(2_000) });
    const one = decideBatch(room.state(), [arrive(alice, first)], []);
    room.log(one.append, one.value.accepted);
    // The client sends everything it has again, with one new message.
    a.push(msg('m2', ALICE));
    const everything = Y.encodeStateAsUpdate(a.doc);
    const two = decideBatch(room.state(), [arrive(alice, everything)], []);
    expect(two.value.stamped.map((m) => m.id)).toEqual(['m2']);
    expect(two.value.accepted[0]!.update.byteLength).toBeLessThan(first.byteLength);
    room.log(two.append, two.value.accepted);
    expect(room.ids()).toEqual(['m1', 'm2']);
    expect(room.doc.store.pendingStructs).toBeNull();
  });

  it('stamps messages the log holds without a stamp, once', () => {
    const room = scene();
    const left = msg('left', ALICE);
    Y.applyUpdate(room.doc, room.client(1001).push(left));
    const { append, value } = decideBatch(room.state(), [], [left]);
    expect(value.stamped).toEqual([{ ...left, timestamp: 1_000 }]);
    room.log(append);
    expect(room.stamps()).toEqual({ left: 1_000 });
    // Stamped meanwhile (by another instance, say): nothing to do.
    expect(decideBatch(room.state(), [], [left]).append).toEqual([]);
  });

  it('refuses what would grow the room past its size limit (4413), keeping what fits before it', () => {
    const room = scene();
    const a = room.client(1001);
    const small = a.push(msg('fits', ALICE));
    const big = a.push({ ...msg('too-much', ALICE), content: 'x'.repeat(4_000) });
    const state = { ...room.state(), logBytes: CHAT_LIMITS.roomMaxBytes - small.byteLength - 10 };
    const { append, value } = decideBatch(state, [arrive(alice, small), arrive(alice, big)], []);
    expect(value.refused).toEqual([{ peer: alice, code: 4413, reason: 'This conversation is full' }]);
    room.log(append, value.accepted);
    expect(room.ids()).toEqual(['fits']);
  });
});
