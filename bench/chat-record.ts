import { messageRecordWrites, type StampedMessage } from '../sync-server/chat/record';
import { INDEXES } from '../sync-server/indexes';
import { MemoryState } from '../sync-server/store/memory';
import type { DecisionReader, StoredDoc } from '../sync-server/store/store';
import { median, type Report } from './report';
import { runStandalone } from './support/cli';

/**
 * The record of a chat message (sync-server/chat/record.ts: the conversation and the receiver's
 * unread notice) against the receiver's history. Every time a receiver reads a message notice, the
 * next message brings a new one, so an active user's notifications grow without end; the record
 * finds the conversation's unread notice by an index of its own, so a message to a user with a
 * long history costs what one to a new user costs. In process, on the store's memory (the
 * embedded store's reads; on PostgreSQL the same lookup is also the set of keys checked at commit).
 */
const MESSAGES = 20_000;
const HISTORY = 10_000;
const ROUNDS = 3;

/** CPU µs a message for a receiver holding `history` read message notices over 50 conversations. */
function perMessage(history: number): number {
  const memory = new MemoryState(INDEXES);
  let seq = 0;
  const stored = (doc: Record<string, unknown>) => ({ ...doc, _seq: ++seq, _deleted: false }) as StoredDoc;
  memory.applyWrites([
    { collection: 'users', doc: stored({ id: 'sender', name: 'Sam Sender' }) },
    { collection: 'users', doc: stored({ id: 'receiver', name: 'Rae Receiver' }) },
  ]);
  memory.applyWrites(
    Array.from({ length: history }, (_, i) => ({
      collection: 'notifications' as const,
      doc: stored({
        id: `read-${i}`,
        userId: 'receiver',
        type: 'new_message',
        conversationId: `room-${i % 50}`,
        read: true,
        message: 'Sam Sender: an older message',
      }),
    })),
  );
  const reader = memory as unknown as DecisionReader;
  const started = process.cpuUsage();
  for (let i = 0; i < MESSAGES; i++) {
    const message = { id: `m${i}`, senderId: 'sender', receiverId: 'receiver', content: 'Hello', timestamp: i + 1 };
    const writes = messageRecordWrites(reader, 'room-7', [message as StampedMessage], i + 1);
    memory.applyWrites(writes.map((w) => ({ collection: w.collection, doc: stored(w.doc) })));
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / MESSAGES;
}

export async function benchChatRecord(report: Report): Promise<void> {
  perMessage(HISTORY); // warm-up
  const fresh: number[] = [];
  const long: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    fresh.push(perMessage(0));
    long.push(perMessage(HISTORY));
  }
  const base = median(fresh);
  report.info('chat: a message recorded, receiver with no notifications', `median of ${ROUNDS}`, base, 'µs');
  report.atMost(
    `chat: a message recorded, receiver with ${HISTORY.toLocaleString('en-US')} read notices`,
    `median of ${ROUNDS}`,
    median(long),
    'µs',
    2 * base,
    '≤ 2× no notifications',
  );
  await Promise.resolve();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Chat record benchmark', benchChatRecord);
}
