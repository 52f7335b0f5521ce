import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../shared/chat-doc';
import { CHAT_LIMITS } from '../sync-server/chat/limits';
import { compactLogTail, smallTail, type RoomDocument } from '../sync-server/chat/log';
import type { Store } from '../sync-server/store/store';
import { median, type Report } from './report';
import { runStandalone } from './support/cli';

/**
 * A busy room's compaction (sync-server/chat/log.ts): its log's tail of small entries, each
 * message and its stamp, merged into one once there are more than CHAT_LIMITS.compactAfterEntries.
 * The merge runs on the server's main thread, so every room of the instance waits while it runs.
 * In process: the same tail merged from the room's document past the tail's cut (what a room
 * does) and by decoding and merging its entries (what it does when the cut is unknown).
 */
const ROUNDS = 7;

/** A room whose log ends with a tail of `entries` small entries (two members and the server's stamps). */
function busyRoom(entries: number) {
  const log: Uint8Array[] = [];
  const doc = new Y.Doc();
  const [a, b, server] = [1, 2, 99].map((clientID) => Object.assign(new Y.Doc(), { clientID }));
  const append = (writer: Y.Doc, change: () => void) => {
    Y.applyUpdate(writer, Y.encodeStateAsUpdate(doc, Y.encodeStateVector(writer)));
    const before = Y.encodeStateVector(writer);
    writer.transact(change);
    const entry = Y.encodeStateAsUpdate(writer, before);
    Y.applyUpdate(doc, entry);
    log.push(entry);
  };
  // A history longer than a segment, merged into one entry before the tail.
  const long = 'an earlier message, long enough to fill a segment quickly. '.repeat(16);
  for (let i = 0; log.reduce((n, u) => n + u.byteLength, 0) < 1.2 * CHAT_LIMITS.segmentBytes; i++) {
    const writer = i % 2 ? a! : b!;
    append(writer, () => writer.getArray(CHAT_MESSAGES_ARRAY).push([{ id: `h${i}`, content: long }]));
  }
  log.splice(0, log.length, Y.mergeUpdates(log));
  if (log[0]!.byteLength < CHAT_LIMITS.segmentBytes) throw new Error('the history is not a segment');
  const before = Y.encodeStateVector(doc);
  for (let i = 0; i < entries / 2; i++) {
    const writer = i % 2 ? a! : b!;
    const id = `m${i}`;
    append(writer, () =>
      writer.getArray(CHAT_MESSAGES_ARRAY).push([{ id, content: `message ${i} about the gig and its delivery` }]),
    );
    append(server!, () => server!.getMap(CHAT_STAMPS_MAP).set(id, 1_000 + i));
  }
  const store = { chatUpdates: () => [...log], compactChat: () => Promise.resolve() } as unknown as Store;
  const document: RoomDocument = { doc, cut: { first: log[1]!, before }, tail: smallTail(log) };
  if (document.tail.count !== entries) throw new Error(`the tail has ${document.tail.count} entries`);
  return { store, document };
}

/** CPU ms of one compaction of the room's tail, from its document or from its entries. */
function compactionMs(room: ReturnType<typeof busyRoom>, fromDocument: boolean): number {
  const due = { compactAfter: CHAT_LIMITS.compactAfterEntries - 1, force: false };
  const started = process.cpuUsage();
  const compaction = compactLogTail(room.store, 'room', due, fromDocument ? room.document : undefined);
  const used = process.cpuUsage(started);
  if (!compaction?.merged) throw new Error('the tail was not due, or could not be merged');
  return (used.user + used.system) / 1000;
}

export async function benchChatCompaction(report: Report): Promise<void> {
  const entries = CHAT_LIMITS.compactAfterEntries;
  const room = busyRoom(entries);
  const fromDocument: number[] = [];
  const fromEntries: number[] = [];
  compactionMs(room, true); // warm-up
  compactionMs(room, false);
  for (let round = 0; round < ROUNDS; round++) {
    fromDocument.push(compactionMs(room, true));
    fromEntries.push(compactionMs(room, false));
  }
  const figure = `chat compaction, a tail of ${entries.toLocaleString('en-US')} entries after a segment`;
  report.info(`${figure}, from the room's document`, `CPU, median of ${ROUNDS}`, median(fromDocument), 'ms');
  report.info(`${figure}, entries merged`, `CPU, median of ${ROUNDS}`, median(fromEntries), 'ms');
  await Promise.resolve();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Chat compaction benchmark', benchChatCompaction);
}
