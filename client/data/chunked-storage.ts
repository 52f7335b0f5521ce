import type { BulkWriteRow, RxStorage, RxStorageBulkWriteResponse } from 'rxdb';
import { yieldToEventLoop } from './event-loop';
import { overrideInstances } from './storage-overrides';

/** Rows one task of a large write stores at most (see `chunkedWrites`). */
export const WRITE_CHUNK_ROWS = 50;

export type ChunkOptions = {
  /** Rows per chunk (default WRITE_CHUNK_ROWS). */
  rows?: number;
  /** What runs between two chunks (default: one turn of the event loop). */
  between?: () => Promise<void>;
};

/**
 * A storage whose large writes are stored in chunks with a turn of the event loop between them.
 * IndexedDB's put of a document costs the main thread ~0.1 ms here (four times that on a phone as
 * Lighthouse models one), so a pulled batch of 500 documents stored at once held the page for one
 * long task: nothing drew, no key or tap was answered. In chunks, the page draws the screen and
 * answers its user between them (a new device's board is drawn sooner; a first sync of 10k gigs
 * ends later: decision 008). To RxDB each chunk is a write of its own, with its own change event,
 * exactly as if the caller had written the rows in several calls: a query read between two chunks
 * sees the first and is then told of the second. (Holding the chunks' events until the last one
 * was tried: a query that read the storage between two chunks then counted the first chunk's
 * documents twice.)
 * A chunk is handed to the storage without waiting for the one before it to be committed (the
 * browser commits them in that order, one after the other): the page still has its turn between
 * two, and IndexedDB is not left idle while the page hears of each commit (the first sync of 10k
 * gigs 4.2 → 3.8 s, decision 008). A chunk that fails stops the ones not yet handed over.
 * A write's answer holds the errors of all its chunks; what is lost is the atomicity of one
 * IndexedDB transaction, which RxDB does not promise across documents anyway: a write cut short by
 * a closing tab keeps the chunks already stored, and replication pulls or pushes the rest again,
 * like any interrupted write.
 */
export function chunkedWrites<I, O>(storage: RxStorage<I, O>, options: ChunkOptions = {}): RxStorage<I, O> {
  const rows = options.rows ?? WRITE_CHUNK_ROWS;
  const between = options.between ?? yieldToEventLoop;
  return overrideInstances(storage, (inner) => ({
    async bulkWrite(writes: BulkWriteRow<unknown>[], context: string): Promise<RxStorageBulkWriteResponse<unknown>> {
      if (writes.length <= rows) return inner.bulkWrite(writes, context);
      const answers: Promise<RxStorageBulkWriteResponse<unknown>>[] = [];
      let failed = false;
      for (let at = 0; at < writes.length; at += rows) {
        if (at > 0) await between();
        if (failed) break;
        const answer = inner.bulkWrite(writes.slice(at, at + rows), context);
        answer.catch(() => (failed = true));
        answers.push(answer);
      }
      return { error: (await Promise.all(answers)).flatMap((a) => a.error) };
    },
  }));
}
