import fs from 'node:fs/promises';
import path from 'node:path';
import { listJournalFiles } from './journal';
import type { StampedWrite } from './memory';

/** One journal line. `lsn` numbers lines 1, 2, 3… across files, with no gaps. */
export type JournalEntry =
  | { lsn: number; writes: StampedWrite[] }
  | { lsn: number; chat: string; append: string }
  /** Older lines have no range: they replace the whole log. */
  | { lsn: number; chat: string; compact: string; from?: number; to?: number };

export type ReplayResult = {
  /** Number of the last line read (the snapshot's when every line is older). */
  lastLsn: number;
  /**
   * The file new lines go to, the number of its first line, where its lines end and its size
   * (larger when zeros follow the lines).
   */
  tail: { file: string; firstLsn: number; end: number; size: number } | undefined;
  /** Bytes of a torn last line that were cut off. */
  truncatedBytes: number;
  /** Bytes of lines in all the files (the zeros after them not counted). */
  lineBytes: number;
};

/**
 * Reads the journal files in order and hands every line newer than the snapshot to `apply`.
 *
 * A file's lines may be followed by zeros (space the writer keeps ahead of them, journal.ts):
 * nothing but zeros from the start of a line to the end of the file is the end of its lines.
 *
 * Only the end of the last file can be torn: a line is acknowledged after its sync, and a file is
 * left behind only once all its lines are synced. So an unreadable line there is a crash in the
 * middle of a write (nobody was told it succeeded) and is cut off, with whatever follows it, so
 * that later lines start on a clean line. Anywhere else it is damage and start-up stops.
 */
export async function replayJournal(
  dir: string,
  snapshotLsn: number,
  apply: (entry: JournalEntry) => void,
): Promise<ReplayResult> {
  const files = await listJournalFiles(dir);
  let lastLsn = snapshotLsn;
  let truncatedBytes = 0;
  let lineBytes = 0;
  let tail: ReplayResult['tail'];
  for (const [i, { file, firstLsn }] of files.entries()) {
    const isLast = i === files.length - 1;
    const bytes = await fs.readFile(file);
    let start = 0;
    let size = bytes.length;
    let lineNo = 0;
    while (start < bytes.length) {
      if (bytes[start] === 0 && zerosFrom(bytes, start)) break;
      lineNo++;
      const newline = bytes.indexOf(0x0a, start);
      const entry = newline === -1 ? undefined : parseLine(bytes.toString('utf8', start, newline));
      if (!entry) {
        if (!isLast) throw damaged(file, lineNo, 'unreadable line');
        truncatedBytes = bytes.length - start;
        await cutTail(file, start);
        size = start;
        break;
      }
      start = newline + 1;
      if (entry.lsn <= lastLsn) {
        // Older than the snapshot: left over from a snapshot whose clean-up was interrupted.
        if (entry.lsn > snapshotLsn) throw damaged(file, lineNo, `line ${entry.lsn} appears twice`);
        continue;
      }
      if (entry.lsn !== lastLsn + 1) {
        throw damaged(file, lineNo, `line ${lastLsn + 1} is missing (found ${entry.lsn})`);
      }
      apply(entry);
      lastLsn = entry.lsn;
    }
    lineBytes += start;
    if (isLast) tail = { file, firstLsn, end: start, size };
  }
  return { lastLsn, tail, truncatedBytes, lineBytes };
}

/** Nothing but zeros from `start` to the end. */
function zerosFrom(bytes: Buffer, start: number): boolean {
  for (let i = start; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

function parseLine(text: string): JournalEntry | undefined {
  try {
    const entry = JSON.parse(text) as Partial<Record<string, unknown>>;
    if (typeof entry !== 'object' || entry === null || !Number.isInteger(entry.lsn)) return undefined;
    if (Array.isArray(entry.writes)) return entry as JournalEntry;
    if (typeof entry.chat === 'string' && typeof entry.append === 'string') return entry as JournalEntry;
    if (typeof entry.chat === 'string' && typeof entry.compact === 'string') {
      const ranged = Number.isInteger(entry.from) && Number.isInteger(entry.to);
      if (ranged || (entry.from === undefined && entry.to === undefined)) return entry as JournalEntry;
    }
  } catch {
    // A torn line: reported by the caller.
  }
  return undefined;
}

async function cutTail(file: string, length: number): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    await handle.truncate(length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function damaged(file: string, lineNo: number, what: string): Error {
  return new Error(
    `The store's journal ${path.basename(file)} is damaged at line ${lineNo} (${what}). ` +
      'Restore the data folder from a backup, or move the file aside to start without its changes.',
  );
}
