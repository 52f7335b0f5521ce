import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../../shared/chat-doc';
import type { Store } from '../store/store';
import { CHAT_LIMITS } from './limits';
import { compactLogTail, cutAfter, smallTail, type TailCut } from './log';

/**
 * A room's log as the store holds it (copies of each entry, as both stores keep them), the
 * room's document fed entry by entry, and the cut taken before the tail's first entry.
 */
function room() {
  const log: Uint8Array[] = [];
  const doc = new Y.Doc();
  let cut: TailCut | undefined;
  // Three members' devices and the server's stamps (client 99).
  const writers = [1, 2, 3, 99].map((clientID) => {
    const d = new Y.Doc();
    d.clientID = clientID;
    return d;
  });
  const append = (entry: Uint8Array) => {
    if (smallTail(log).count === 0) cut = { first: entry, before: Y.encodeStateVector(doc) };
    Y.applyUpdate(doc, entry);
    log.push(new Uint8Array(entry));
  };
  /** What `change` makes on `writer`, brought up to date first: the update a device sends (its own changes only). */
  const made = (writer: Y.Doc, change: () => void) => {
    Y.applyUpdate(writer, Y.encodeStateAsUpdate(doc, Y.encodeStateVector(writer)));
    let update: Uint8Array | undefined;
    writer.once('update', (u: Uint8Array) => (update = u));
    change();
    return update!;
  };
  /** A message from writer `w` and the server's stamp of it: two entries. */
  const message = (w: number, id: string, content = `text of ${id}`) => {
    const d = writers[w]!;
    append(made(d, () => d.getArray(CHAT_MESSAGES_ARRAY).push([{ id, content }])));
    const stamp = writers[3]!;
    append(made(stamp, () => stamp.getMap(CHAT_STAMPS_MAP).set(id, log.length)));
  };
  const store = {
    chatUpdates: () => [...log],
    compactChat: (_room: string, merged: Uint8Array, range?: { from: number; to: number }) => {
      log.splice(range!.from, range!.to - range!.from, new Uint8Array(merged));
      return Promise.resolve();
    },
  } as unknown as Store;
  return { log, doc, store, append, message, cut: () => cut };
}

/** What a log holds, read as a new device would: every message and stamp. */
function read(log: readonly Uint8Array[]) {
  const doc = new Y.Doc();
  for (const entry of log) Y.applyUpdate(doc, entry);
  return {
    messages: doc.getArray<{ id: string }>(CHAT_MESSAGES_ARRAY).map((m) => m.id),
    stamps: doc.getMap<number>(CHAT_STAMPS_MAP).toJSON(),
    pending: doc.store.pendingStructs !== null,
  };
}

const due = { compactAfter: 10, force: false };

describe('compactLogTail', () => {
  it("encodes the tail from the room's document past the cut: the log reads the same, in fewer entries", async () => {
    const r = room();
    for (let i = 0; i < 12; i++) r.message(i % 3, `m${i}`);
    const before = read(r.log);
    const tail = smallTail(r.log);
    const compaction = compactLogTail(r.store, 'room', due, { doc: r.doc, cut: r.cut(), tail })!;
    await compaction.done;
    expect(r.log).toHaveLength(1);
    expect(read(r.log)).toEqual(before);
    expect(before.messages).toHaveLength(12);
    // The document's own encoding past the cut: no entry decoded and merged.
    expect(compaction.merged).toEqual(Y.encodeStateAsUpdate(r.doc, r.cut()!.before));
  });

  it('encodes only what the tail holds when a segment comes before it', async () => {
    const r = room();
    // A message as big as a segment: the tail begins after it, with its stamp.
    r.message(0, 'long', 'x'.repeat(CHAT_LIMITS.segmentBytes));
    for (let i = 0; i < 12; i++) r.message(i % 3, `m${i}`);
    const segment = r.log[0]!;
    const whole = read(r.log);
    const compaction = compactLogTail(r.store, 'room', due, { doc: r.doc, cut: r.cut(), tail: smallTail(r.log) })!;
    await compaction.done;
    expect(r.log).toHaveLength(2);
    expect(r.log[0]).toBe(segment);
    expect(read(r.log)).toEqual(whole);
    expect(compaction.merged?.byteLength).toBeLessThan(CHAT_LIMITS.segmentBytes / 10);
  });

  it('merges the entries when the document holds deletions that would make the merged tail larger than it', async () => {
    const r = room();
    // An imported history with deletions (chat itself never deletes), then a short tail.
    const legacy = new Y.Doc();
    const list = legacy.getArray(CHAT_MESSAGES_ARRAY);
    list.push(Array.from({ length: 300 }, (_, i) => ({ id: `old${i}`, content: 'x'.repeat(600) })));
    for (let i = 299; i >= 0; i -= 2) list.delete(i, 1);
    r.append(Y.encodeStateAsUpdate(legacy));
    r.message(0, 'm0');
    r.message(1, 'm1');
    const tail = smallTail(r.log.slice(1));
    const store = { chatUpdates: () => r.log.slice(1), compactChat: () => Promise.resolve() } as unknown as Store;
    const compaction = compactLogTail(
      store,
      'room',
      { compactAfter: 2, force: false },
      {
        doc: r.doc,
        cut: { first: r.log[1]!, before: Y.encodeStateVectorFromUpdate(r.log[0]!) },
        tail,
      },
    )!;
    expect(compaction.merged).toEqual(Y.mergeUpdates(r.log.slice(1)));
    expect(compaction.merged!.byteLength).toBeLessThanOrEqual(tail.bytes);
  });

  it('merges the entries as they are when the cut is not where the tail begins', async () => {
    const r = room();
    for (let i = 0; i < 12; i++) r.message(i % 3, `m${i}`);
    const expected = Y.mergeUpdates(r.log);
    const stale: TailCut = { first: r.log[4]!, before: Y.encodeStateVector(new Y.Doc()) };
    const compaction = compactLogTail(r.store, 'room', due, { doc: r.doc, cut: stale, tail: smallTail(r.log) })!;
    await compaction.done;
    expect(compaction.merged).toEqual(expected);
  });

  it('keeps an entry appended to the log around the room: the log is merged as it is, not from the document', async () => {
    const r = room();
    for (let i = 0; i < 12; i++) r.message(i % 3, `m${i}`);
    const counted = smallTail(r.log);
    // An entry the room's document never took (an import, another writer), appended after the room counted.
    const outsider = new Y.Doc();
    Y.applyUpdate(outsider, Y.encodeStateAsUpdate(r.doc));
    const sv = Y.encodeStateVector(outsider);
    outsider.getArray(CHAT_MESSAGES_ARRAY).push([{ id: 'outsider', content: 'appended around the room' }]);
    r.log.push(Y.encodeStateAsUpdate(outsider, sv));
    await compactLogTail(r.store, 'room', due, { doc: r.doc, cut: r.cut(), tail: counted })!.done;
    expect(read(r.log).messages).toContain('outsider');
    expect(read(r.log).messages).toHaveLength(13);
  });
});

describe('cutAfter', () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  const before = bytes(9);

  it('keeps the cut while the tail still begins with its entry', () => {
    const first = bytes(1);
    const log = [bytes(1), bytes(2)];
    expect(cutAfter(log, { count: 2, bytes: 2 }, { first, before })).toEqual({ first, before });
  });

  it("moves the cut to the merged entry that now begins the tail, when it was merged from the cut's entry", () => {
    const cut = { first: bytes(1), before };
    const merged = { entry: bytes(5, 5), first: bytes(1), stateAfter: bytes(8) };
    const log = [bytes(5, 5), bytes(3)];
    expect(cutAfter(log, { count: 2, bytes: 3 }, cut, merged)).toEqual({ first: log[0], before });
    // Merged from another entry on: where it begins in the document is not known.
    expect(cutAfter(log, { count: 2, bytes: 3 }, cut, { ...merged, first: bytes(2) })).toBeUndefined();
  });

  it('starts the tail after a merged entry that became a segment, at the state the document had then', () => {
    const merged = { entry: bytes(5, 5, 5), first: bytes(1), stateAfter: bytes(8) };
    const log = [bytes(5, 5, 5), bytes(3)];
    expect(cutAfter(log, { count: 1, bytes: 1 }, { first: bytes(1), before }, merged)).toEqual({
      first: log[1],
      before: bytes(8),
    });
  });

  it('forgets the cut when the tail is empty or begins with an entry it cannot place', () => {
    expect(cutAfter([bytes(5)], { count: 0, bytes: 0 }, { first: bytes(1), before })).toBeUndefined();
    expect(cutAfter([bytes(4), bytes(3)], { count: 2, bytes: 2 }, { first: bytes(1), before })).toBeUndefined();
  });
});
