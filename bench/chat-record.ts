import { messageRecordWrites, type StampedMessage } from '../sync-server/chat/record';
import { INDEXES } from '../sync-server/indexes';
import { MemoryState } from '../sync-server/store/memory';
import type { DecisionReader, StoredDoc } from '../sync-server/store/store';
import { median, type Report } from './report';
import { runStandalone } from './support/cli';

/**
 * The record of a chat message (sync-server/chat/record.ts: the gig it was written from, the
 * conversation and the receiver's unread notice) against its users' histories. Every time a
 * receiver reads a message notice, the next message brings a new one, so an active user's
 * notifications grow without end, as a freelancer's applications do. The record finds the
 * conversation's unread notice and the application linking the two users by indexes of their own,
 * so a message between users with long histories costs what one between new users costs. In
 * process, on the store's memory (the embedded store's reads; on PostgreSQL the same lookups are
 * also the keys checked at commit).
 */
const MESSAGES = 20_000;
const HISTORY = 10_000;
const ROUNDS = 3;

/**
 * CPU µs a message naming the gig that links the two users, for a receiver holding `history` read
 * message notices over 50 conversations and a sender who made `history` applications to others.
 */
function perMessage(history: number): number {
  const memory = new MemoryState(INDEXES);
  let seq = 0;
  const stored = (doc: Record<string, unknown>) => ({ ...doc, _seq: ++seq, _deleted: false }) as StoredDoc;
  const application = (id: string, creatorId: string) =>
    stored({ id, gigId: `gig-${id}`, gigTitle: `Gig ${id}`, applicantId: 'sender', creatorId, appliedAt: 1 });
  memory.applyWrites([
    { collection: 'users', doc: stored({ id: 'sender', name: 'Sam Sender' }) },
    { collection: 'users', doc: stored({ id: 'receiver', name: 'Rae Receiver' }) },
    { collection: 'applications', doc: application('linking', 'receiver') },
  ]);
  memory.applyWrites(
    Array.from({ length: history }, (_, i) => ({
      collection: 'applications' as const,
      doc: application(`other-${i}`, `buyer-${i % 500}`),
    })),
  );
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
    const message = {
      id: `m${i}`,
      senderId: 'sender',
      receiverId: 'receiver',
      gigId: 'gig-linking',
      content: 'Hello',
      timestamp: i + 1,
    };
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
  report.info('chat: a message recorded, users with no history', `median of ${ROUNDS}`, base, 'µs');
  report.atMost(
    `chat: a message recorded, ${HISTORY.toLocaleString('en-US')} read notices and applications`,
    `median of ${ROUNDS}`,
    median(long),
    'µs',
    2 * base,
    '≤ 2× no history',
  );
  await Promise.resolve();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Chat record benchmark', benchChatRecord);
}
