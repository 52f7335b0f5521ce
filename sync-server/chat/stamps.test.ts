import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../../shared/chat-doc';
import { stampUpdate } from './stamps';

const SERVER = 4242;

describe('stamp updates written beside the room', () => {
  it('add stamps to a room in turn, each keeping those before it, numbered on from the last clock', () => {
    const room = new Y.Doc();
    room.getArray(CHAT_MESSAGES_ARRAY).push([{ id: 'm1' }, { id: 'm2' }, { id: 'm3' }]);
    const first = stampUpdate(SERVER, Y.getState(room.store, SERVER), [
      ['m1', 10],
      ['m2', 11],
    ]);
    // Making an update changes nothing in the room until it is applied.
    expect(room.getMap(CHAT_STAMPS_MAP).size).toBe(0);
    Y.applyUpdate(room, first);
    const second = stampUpdate(SERVER, Y.getState(room.store, SERVER), [['m3', 12]]);
    Y.applyUpdate(room, second);
    expect(room.store.pendingStructs).toBeNull();
    expect(Object.fromEntries(room.getMap(CHAT_STAMPS_MAP).entries())).toEqual({ m1: 10, m2: 11, m3: 12 });
    expect(Y.getState(room.store, SERVER)).toBe(3);
    // No deletions ride along, and a reader of the log (the updates merged) sees the same.
    expect(Y.decodeUpdate(second).ds.clients.size).toBe(0);
    const reader = new Y.Doc();
    Y.applyUpdate(reader, Y.mergeUpdates([Y.encodeStateAsUpdate(room)]));
    expect(Object.fromEntries(reader.getMap(CHAT_STAMPS_MAP).entries())).toEqual({ m1: 10, m2: 11, m3: 12 });
  });

  it('are what Yjs itself writes for the same stamps', () => {
    const doc = new Y.Doc();
    doc.clientID = SERVER;
    doc.transact(() => {
      doc.getMap(CHAT_STAMPS_MAP).set('m1', 10);
      doc.getMap(CHAT_STAMPS_MAP).set('m2', 1_700_000_000_123);
    });
    expect(
      stampUpdate(SERVER, 0, [
        ['m1', 10],
        ['m2', 1_700_000_000_123],
      ]),
    ).toEqual(Y.encodeStateAsUpdate(doc));
  });

  it('carry only the new items: an update made at a later clock waits for the earlier ones', () => {
    const later = stampUpdate(SERVER, 2, [['m9', 5]]);
    const decoded = Y.decodeUpdate(later);
    expect(decoded.structs.map((s) => [s.id.client, s.id.clock, s.length])).toEqual([[SERVER, 2, 1]]);
    const room = new Y.Doc();
    Y.applyUpdate(room, later);
    expect(room.getMap(CHAT_STAMPS_MAP).size).toBe(0);
    expect(room.store.pendingStructs).not.toBeNull();
  });
});
