import fs from 'node:fs/promises';
import path from 'node:path';
import { journalFileName, syncDir } from './journal';
import { MemoryState } from './memory';
import { replayJournal, type JournalEntry } from './replay';
import { snapshotDb } from './snapshot';
import type { IndexDefinitions } from './store';

export type LoadedState = {
  memory: MemoryState;
  /** Last journal line applied. */
  lastLsn: number;
  /** Journal line db.json covers (0 without one). */
  snapshotLsn: number;
  /**
   * The journal file new lines go to, the number of its first line, where its lines end and its
   * size (zeros may follow the lines).
   */
  tail: { file: string; firstLsn: number; end: number; size: number };
  /** Bytes of the journal's lines, in all its files. */
  journalBytes: number;
};

/** Start-up: db.json through lowdb, then every newer journal line, in order. */
export async function loadDataDir(dir: string, indexes: IndexDefinitions): Promise<LoadedState> {
  const memory = new MemoryState(indexes);
  const db = snapshotDb(dir);
  await db.read();
  const snapshot = db.data;
  if (snapshot && snapshot.format !== 1) {
    throw new Error(`The store's snapshot in ${dir} has an unknown format (${String(snapshot.format)}).`);
  }
  if (snapshot) {
    memory.load(snapshot.collections);
    for (const [room, updates] of Object.entries(snapshot.chat)) memory.chat.set(room, updates.map(fromBase64));
    memory.lastSeq = Math.max(memory.lastSeq, snapshot.seq);
  }
  const snapshotLsn = snapshot?.lsn ?? 0;
  const replay = await replayJournal(dir, snapshotLsn, (entry) => applyEntry(memory, entry));
  let tail = replay.tail;
  if (!tail) {
    const firstLsn = replay.lastLsn + 1;
    tail = { file: path.join(dir, journalFileName(firstLsn)), firstLsn, end: 0, size: 0 };
    await fs.writeFile(tail.file, '', { flag: 'a' });
    await syncDir(dir);
  }
  return { memory, lastLsn: replay.lastLsn, snapshotLsn, tail, journalBytes: replay.lineBytes };
}

function applyEntry(memory: MemoryState, entry: JournalEntry): void {
  if ('writes' in entry) memory.applyWrites(entry.writes);
  else if ('append' in entry) memory.appendChat(entry.chat, fromBase64(entry.append));
  else
    memory.compactChat(
      entry.chat,
      fromBase64(entry.compact),
      entry.from === undefined ? undefined : { from: entry.from, to: entry.to! },
    );
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function fromBase64(text: string): Uint8Array {
  // A copy, so callers never hold a view into Node's shared buffer pool.
  return new Uint8Array(Buffer.from(text, 'base64'));
}
