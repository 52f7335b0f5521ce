import { fdatasyncSync, writeSync } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * The append-only journal: one line per commit, appended and fdatasync'ed before the commit is
 * acknowledged. Lines queued while a sync is running are written together and share the next
 * sync (group commit), so the cost of durability does not grow with the number of writers.
 *
 * The journal is a series of files `journal-<first line number>.jsonl`. A snapshot rotates to a
 * new file, so the files before it hold only lines the snapshot covers and can be deleted.
 *
 * The lines the event loop read in one turn (the drain starts after its reads) are written and
 * synced on the main thread when they are few (about one request's: `INLINE`): handing a lone
 * write to libuv's pool and back cost more than the sync itself (two thread wake-ups on cores the
 * client shares). A larger batch (many writers at once) goes to the pool, where the next lines
 * queue behind the sync in flight and share the next one; and a disk whose last sync was slow is
 * never waited on inline.
 *
 * Lines are written into space the file already has: the writer keeps zeros written and synced
 * ahead of its last line (`PREALLOCATE`, extended in the background), so a line's sync commits
 * only its data, not also the file's new size (decision 008: 28 µs less CPU and 70 µs less time
 * per sync on this machine's disk). A journal file therefore ends with zeros after its last line;
 * the reader (replay.ts) takes them as the end of its lines, and a clean close cuts them off.
 */

const FILE_PATTERN = /^journal-(\d+)\.jsonl$/;

export function journalFileName(firstLsn: number): string {
  return `journal-${firstLsn}.jsonl`;
}

/** Journal files of a folder, oldest first. */
export async function listJournalFiles(dir: string): Promise<{ file: string; firstLsn: number }[]> {
  const names = await fs.readdir(dir);
  return names
    .flatMap((name) => {
      const m = FILE_PATTERN.exec(name);
      return m ? [{ file: path.join(dir, name), firstLsn: Number(m[1]) }] : [];
    })
    .sort((a, b) => a.firstLsn - b.firstLsn);
}

/** Makes a file's creation, rename or removal in `dir` survive a power cut. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The part of a file handle the writer uses (the descriptor for inline syncs); tests stand in a failing one. */
export type JournalFile = Pick<FileHandle, 'write' | 'datasync' | 'close'> &
  Partial<Pick<FileHandle, 'truncate'>> & { readonly fd?: number };

/**
 * Zeros written ahead of the lines, in steps of this many bytes; the next step starts in the
 * background once less than half a step is left. A step costs ~4 ms here per 4 MiB, once per
 * ~1,400 lines of a 1 MiB step: under a microsecond a line.
 */
export const PREALLOCATE = 1024 * 1024;

/** When the lines read in one turn of the event loop are written and synced on the main thread. */
const INLINE = {
  /**
   * At most about one request's writes: a push of a gig or two, a chat message's decision and its
   * record (three lines, ~2 KB), two rooms' decisions in one turn. 16 KiB held a dozen writers'
   * pushes, whose sync inline stopped the event loop while the next requests waited: 50 writers
   * 7,000 → 8,200 writes/s with 4 KiB, chat unchanged (decision 008).
   */
  maxBytes: 4 * 1024,
  /** The disk's last sync took at most this long. */
  maxSyncMs: 2,
};

type Line<P> = { kind: 'line'; text: string; payload: P; resolve(): void; reject(err: Error): void };
type Rotate = { kind: 'rotate'; firstLsn: number; resolve(): void; reject(err: Error): void };
type Barrier = { kind: 'barrier'; resolve(): void; reject(err: Error): void };
type Item<P> = Line<P> | Rotate | Barrier;

export type JournalWriterOptions<P> = {
  dir: string;
  file: JournalFile;
  firstLsn: number;
  /** Called once per sync, before the waiting commits resolve, with the payloads now durable. */
  onDurable(payloads: P[]): void;
  /** Where the next line goes in `file`: the end of its lines (0 for a new file). */
  position?: number;
  /** The file's size, when zeros follow its lines (default: `position`). */
  allocated?: number;
  /** Bytes of zeros kept written ahead of the lines (default PREALLOCATE; 0 writes none). */
  preallocate?: number;
  /** Opens a new, empty journal file; replaceable in tests. */
  openFile?(file: string): Promise<JournalFile>;
  /** Lines are written inline up to this many bytes (default INLINE.maxBytes)… */
  inlineMaxBytes?: number;
  /** …while the last sync took at most this long (default INLINE.maxSyncMs). */
  inlineMaxSyncMs?: number;
};

export class JournalWriter<P> {
  /** Number of fdatasync calls, for tests and benchmarks of group commit. */
  syncs = 0;
  private queue: Item<P>[] = [];
  private running = false;
  private failure: Error | undefined;
  private file: JournalFile;
  private fileLsn: number;
  /** How long the last sync took, in milliseconds (unknown before the first). */
  private lastSyncMs = Number.POSITIVE_INFINITY;
  /** Where the next line goes in the current file. */
  private position: number;
  /** Bytes of the current file written (lines, then zeros) and synced: lines go below this. */
  private allocated: number;
  /** The zeros being written past `allocated`, in the background. */
  private extending: Promise<void> | undefined;
  private readonly step: number;

  constructor(private readonly options: JournalWriterOptions<P>) {
    this.file = options.file;
    this.fileLsn = options.firstLsn;
    this.position = options.position ?? 0;
    this.allocated = Math.max(options.allocated ?? 0, this.position);
    this.step = options.preallocate ?? PREALLOCATE;
    this.extendAhead();
  }

  /** The error that broke the journal, if any: after it nothing more can be made durable. */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** Queues one line (its text ends with a newline); resolves once it is on disk. */
  append(text: string, payload: P): Promise<void> {
    return this.enqueue((resolve, reject) => ({ kind: 'line', text, payload, resolve, reject }));
  }

  /** Switches to a new file for lines from `firstLsn` on, after every line queued so far is synced. */
  rotate(firstLsn: number): Promise<void> {
    return this.enqueue((resolve, reject) => ({ kind: 'rotate', firstLsn, resolve, reject }));
  }

  /** Resolves once everything queued so far is durable. */
  barrier(): Promise<void> {
    return this.enqueue((resolve, reject) => ({ kind: 'barrier', resolve, reject }));
  }

  /** Writes what is queued, then closes the file without the zeros after its lines. */
  async close(): Promise<void> {
    await this.barrier().catch(() => undefined);
    await this.extending;
    if (!this.failure && this.allocated > this.position)
      await this.file.truncate?.(this.position).catch(() => undefined);
    await this.file.close().catch(() => undefined);
  }

  private enqueue(make: (resolve: () => void, reject: (err: Error) => void) => Item<P>): Promise<void> {
    if (this.failure) return Promise.reject(brokenError(this.failure));
    return new Promise<void>((resolve, reject) => {
      this.queue.push(make(resolve, reject));
      if (!this.running) {
        this.running = true;
        // Deferred until the event loop has read what else arrived (the other requests of this
        // turn), so their commits share the first sync too, and a line still alone then is the
        // only one being written (written inline, see above).
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const head = this.queue[0]!;
        if (head.kind === 'line') await this.writeLines();
        else {
          this.queue.shift();
          if (head.kind === 'rotate') await this.switchFile(head.firstLsn);
          head.resolve();
        }
      }
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    } finally {
      this.running = false;
    }
  }

  /** Writes every line at the head of the queue with one write and one sync. */
  private async writeLines(): Promise<void> {
    const end = this.queue.findIndex((item) => item.kind !== 'line');
    const batch = this.queue.splice(0, end === -1 ? this.queue.length : end) as Line<P>[];
    try {
      const buffer = Buffer.from(batch.map((l) => l.text).join(''), 'utf8');
      // Lines never go where zeros are still being written; past the zeros they extend the file.
      if (this.position + buffer.length > this.allocated) await this.extending;
      const started = performance.now();
      const { fd } = this.file;
      const at = this.position;
      if (
        buffer.length <= (this.options.inlineMaxBytes ?? INLINE.maxBytes) &&
        fd !== undefined &&
        this.lastSyncMs <= (this.options.inlineMaxSyncMs ?? INLINE.maxSyncMs)
      ) {
        for (let offset = 0; offset < buffer.length;)
          offset += writeSync(fd, buffer, offset, buffer.length - offset, at + offset);
        fdatasyncSync(fd);
      } else {
        for (let offset = 0; offset < buffer.length;) {
          const { bytesWritten } = await this.file.write(buffer, offset, buffer.length - offset, at + offset);
          offset += bytesWritten;
        }
        await this.file.datasync();
      }
      this.lastSyncMs = performance.now() - started;
      this.syncs++;
      this.position = at + buffer.length;
      this.allocated = Math.max(this.allocated, this.position);
      this.extendAhead();
    } catch (err) {
      // The batch is lost with the rest: put it back so `fail` rejects it too.
      this.queue.unshift(...batch);
      throw err;
    }
    this.options.onDurable(batch.map((l) => l.payload));
    for (const line of batch) line.resolve();
  }

  /**
   * Starts writing the next step of zeros once less than half a step is left after the lines.
   * They are written and synced off the main thread while lines go on below them; a failure
   * (a full disk) only stops the preallocation: lines then extend the file as they did without.
   */
  private extendAhead(): void {
    if (this.extending || this.step === 0 || this.allocated - this.position >= this.step / 2) return;
    const from = this.allocated;
    const file = this.file;
    const zeros = Buffer.alloc(this.step);
    this.extending = (async () => {
      try {
        for (let offset = 0; offset < zeros.length;) {
          const { bytesWritten } = await file.write(zeros, offset, zeros.length - offset, from + offset);
          offset += bytesWritten;
        }
        await file.datasync();
        if (file === this.file) this.allocated = Math.max(this.allocated, from + zeros.length);
      } catch {
        // Lines are written past `allocated` from now on, as into a file without zeros.
      } finally {
        this.extending = undefined;
      }
    })();
  }

  private async switchFile(firstLsn: number): Promise<void> {
    if (firstLsn === this.fileLsn) return;
    await this.extending;
    // The old file without its zeros (not synced: a crash may leave them, which the reader takes).
    await this.file.truncate?.(this.position).catch(() => undefined);
    const open = this.options.openFile ?? ((file: string) => fs.open(file, 'w'));
    const next = await open(path.join(this.options.dir, journalFileName(firstLsn)));
    await syncDir(this.options.dir);
    const previous = this.file;
    this.file = next;
    this.fileLsn = firstLsn;
    this.position = this.allocated = 0;
    this.extendAhead();
    await previous.close().catch(() => undefined);
  }

  private fail(err: Error): void {
    // A failed write or sync leaves the file in an unknown state (a partly written line, or
    // pages the kernel dropped), so no later line may be acknowledged after it.
    this.failure = err;
    const waiting = this.queue;
    this.queue = [];
    for (const item of waiting) item.reject(brokenError(err));
  }
}

function brokenError(cause: Error): Error {
  return new Error(`The store's journal could not be written (${cause.message}); restart the server.`, { cause });
}
