import fs from 'node:fs/promises';
import path from 'node:path';
import { JournalWriter, listJournalFiles } from './journal';
import { loadDataDir, toBase64, type LoadedState } from './load';
import { lockDataDir, type DataDirLock } from './lock';
import type { StampedWrite } from './memory';
import type { JournalEntry } from './replay';
import { SNAPSHOT_FILE, snapshotDb, type SnapshotData } from './snapshot';
import { MemoryReads } from './memory-reads';
import type {
  Change,
  ChatDecision,
  ChatRange,
  CollectionName,
  Decision,
  DecisionReader,
  DocWrite,
  IndexDefinitions,
  Store,
  StoredDoc,
} from './store';

/**
 * The embedded store: the data in memory, each commit one fsynced journal line, and a lowdb
 * snapshot (db.json) rewritten in the background after which older journal files are deleted.
 * Files in the data folder: LOCK, db.json, journal-<first line>.jsonl.
 */

export type JournalStoreOptions = {
  dataDir: string;
  indexes: IndexDefinitions;
  /** Milliseconds between background snapshots (taken only if something changed). */
  snapshotIntervalMs: number;
  /** Journal lines after which a snapshot is taken without waiting for the interval. */
  snapshotEveryCommits: number;
  /**
   * Neither trigger takes a snapshot before the journal written since the last one reaches this
   * fraction of that snapshot's size (default 0.5): a snapshot rewrites the whole store, so its
   * cost is paid once per that much journal and stays constant per write however large the store
   * grows, and a restart replays at most that much.
   */
  snapshotJournalRatio?: number;
  /** Clock for the timestamps written in the lock and the snapshot. */
  now?: () => number;
};

export type JournalStoreStats = {
  /** fdatasync calls on the journal: fewer than commits when commits share a sync. */
  journalSyncs: number;
  /** Last journal line written (commits and chat operations). */
  journalLines: number;
  /** Journal line the current db.json covers. */
  snapshotLsn: number;
  snapshots: number;
};

export interface JournalStore extends Store {
  stats(): JournalStoreStats;
}

/** A file's size in bytes, or `missing` when it cannot be read. */
const fileSize = (file: string, missing = 0) =>
  fs.stat(file).then(
    (st) => st.size,
    () => missing,
  );

/** What a journal line carries to the moment it is durable. */
type Durable = { changes: StampedWrite[]; lastSeq: number };

/** A room's chat log in a snapshot being written: its base64 entries, made when the file reaches it. */
type ChatLogJson = { toJSON(): string[] };

export async function openJournalStore(options: JournalStoreOptions): Promise<JournalStore> {
  const now = options.now ?? Date.now;
  await fs.mkdir(options.dataDir, { recursive: true });
  const dir = await fs.realpath(options.dataDir);
  const lock = await lockDataDir(dir, now);
  try {
    const loaded = await loadDataDir(dir, options.indexes);
    const sizes = { snapshot: await fileSize(path.join(dir, SNAPSHOT_FILE)), journal: loaded.journalBytes };
    // Not opened for appending: lines go where the file's lines end, before the zeros after them.
    const file = await fs.open(loaded.tail.file, 'r+');
    return new JournalStoreImpl(dir, options, now, lock, loaded, file, sizes);
  } catch (err) {
    await lock.release();
    throw err;
  }
}

class JournalStoreImpl extends MemoryReads implements JournalStore {
  private readonly journal: JournalWriter<Durable>;
  private lastLsn: number;
  private snapshotLsn: number;
  private readonly listeners = new Set<(changes: Change[]) => void>();
  private readonly timer: NodeJS.Timeout;
  private durable: number;
  private snapshotsTaken = 0;
  private snapshotQueue: Promise<void> = Promise.resolve();
  private snapshotBusy = false;
  /** Journal line from which lines count towards the next snapshot (moved on by a failed one). */
  private countFrom: number;
  /** Journal bytes written since the current snapshot's line, and that snapshot's size. */
  private journalBytes: number;
  private snapshotBytes: number;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: JournalStoreOptions,
    private readonly now: () => number,
    private readonly lock: DataDirLock,
    loaded: LoadedState,
    file: fs.FileHandle,
    sizes: { snapshot: number; journal: number },
  ) {
    super(loaded.memory);
    this.journalBytes = sizes.journal;
    this.snapshotBytes = sizes.snapshot;
    this.lastLsn = loaded.lastLsn;
    this.snapshotLsn = this.countFrom = loaded.snapshotLsn;
    this.durable = this.memory.lastSeq;
    const { firstLsn, end, size } = loaded.tail;
    this.journal = new JournalWriter<Durable>({
      dir,
      file,
      firstLsn,
      position: end,
      allocated: size,
      onDurable: (p) => this.madeDurable(p),
    });
    // Node fires at once for delays past 2^31 - 1 ms, so longer ones are clamped.
    this.timer = setInterval(
      () => this.journalLargeEnough() && this.snapshotInBackground(),
      Math.min(options.snapshotIntervalMs, 2 ** 31 - 1),
    );
    this.timer.unref();
    // Lines replayed at start count towards the next snapshot, so a crash loop cannot grow the journal forever.
    if (this.lastLsn - this.snapshotLsn >= options.snapshotEveryCommits && this.journalLargeEnough())
      this.snapshotInBackground();
  }

  async transaction<T>(decide: (read: DecisionReader) => Decision<T>): Promise<{ value: T; seq: number }> {
    // One process: no await between the reads and the commit, so nothing else interleaves. A
    // decision that writes nothing still waits until what it read is durable (an empty commit):
    // a refusal must not rest on a write a crash could take back.
    const { writes, value } = decide(this);
    return { value, seq: await this.commit(writes) };
  }

  /** Decided one after the other now (each sees the writes before it); the commits share syncs. */
  transactions<T>(decides: ((read: DecisionReader) => Decision<T>)[]): Promise<{ value: T; seq: number }[]> {
    return Promise.all(decides.map((decide) => this.transaction(decide)));
  }

  commit(writes: DocWrite[]): Promise<number> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    if (writes.length === 0) {
      const seq = this.memory.lastSeq;
      return this.journal.barrier().then(() => seq);
    }
    let entry: JournalEntry & { writes: StampedWrite[] };
    let line: string;
    try {
      let seq = this.memory.lastSeq;
      const stamped = writes.map(({ collection, doc }) => {
        if (typeof doc?.id !== 'string' || doc.id === '') throw new Error(`A document for ${collection} has no id.`);
        return { collection, doc: { ...doc, _deleted: doc._deleted === true, _seq: ++seq } };
      });
      line = JSON.stringify({ lsn: this.lastLsn + 1, writes: stamped }) + '\n';
      this.journalBytes += Buffer.byteLength(line);
      // Memory holds what a restart would read back, and nothing the caller still references.
      entry = JSON.parse(line) as typeof entry;
      this.memory.applyWrites(entry.writes);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    this.lastLsn = entry.lsn;
    const lastSeq = this.memory.lastSeq;
    return this.journal.append(line, { changes: entry.writes, lastSeq }).then(() => lastSeq);
  }

  durableSeq(): number {
    return this.durable;
  }

  changesSince(afterSeq: number, limit: number, collection?: CollectionName): Change[] {
    return this.memory.changesSince(afterSeq, limit, this.durable, collection);
  }

  onDurable(listener: (changes: Change[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Alone with its data: every commit is in memory already. */
  catchUp(): Promise<void> {
    return Promise.resolve();
  }

  /** Every write is in memory from the moment it is decided. */
  settled(): Promise<void> {
    return Promise.resolve();
  }

  /** The data is in this process: always reachable. */
  ping(): Promise<void> {
    return Promise.resolve();
  }

  /** Every log is in memory already. */
  openChat(): Promise<void> {
    return Promise.resolve();
  }

  closeChat(): void {}

  publishPresence(): void {}

  onRemotePresence(): () => void {
    return () => {};
  }

  /** Alone with its data folder (the lock): no other instance appends. */
  onRemoteChat(): () => void {
    return () => {};
  }

  /**
   * Alone with its data, the log in memory is the room's true tail: decided at once, in memory
   * at once (logged), durable once its journal line is synced.
   */
  chatTransaction<T>(
    room: string,
    decide: () => ChatDecision<T>,
    logged?: (decision: ChatDecision<T>) => void,
  ): Promise<T> {
    let decision: ChatDecision<T>;
    try {
      decision = decide();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const { append = [], value } = decision;
    // Nothing to append: the answer waits for what it saw to be durable (an empty commit).
    if (append.length === 0) return this.commit([]).then(() => value);
    // One journal line each, written in this turn: they share a sync. Lines become durable in
    // order, so the last one's sync covers them all.
    let inLog = 0;
    let durable: Promise<void> = Promise.resolve();
    for (const update of append) {
      durable = this.chatLine(room, update, 'append', () => {
        this.memory.appendChat(room, new Uint8Array(update));
        inLog++;
      });
    }
    if (inLog < append.length) return durable.then(() => value);
    try {
      logged?.(decision);
    } catch (err) {
      return durable.then(() => Promise.reject(err instanceof Error ? err : new Error(String(err))));
    }
    return durable.then(() => value);
  }

  appendChatUpdate(room: string, update: Uint8Array): Promise<void> {
    return this.chatLine(room, update, 'append', () => this.memory.appendChat(room, new Uint8Array(update)));
  }

  chatUpdates(room: string): Uint8Array[] {
    return [...(this.memory.chat.get(room) ?? [])];
  }

  compactChat(room: string, merged: Uint8Array, range?: ChatRange): Promise<void> {
    return this.chatLine(
      room,
      merged,
      'compact',
      () => this.memory.compactChat(room, new Uint8Array(merged), range),
      range,
    );
  }

  snapshot(): Promise<void> {
    const run = this.snapshotQueue.catch(() => undefined).then(() => this.snapshotOnce());
    this.snapshotQueue = run;
    return run;
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  stats(): JournalStoreStats {
    return {
      journalSyncs: this.journal.syncs,
      journalLines: this.lastLsn,
      snapshotLsn: this.snapshotLsn,
      snapshots: this.snapshotsTaken,
    };
  }

  private refusal(): Error | undefined {
    if (this.closing) return new Error('The store is closed.');
    const failed = this.journal.failed;
    return failed && new Error(`The store's journal could not be written (${failed.message}); restart the server.`);
  }

  private chatLine(
    room: string,
    update: Uint8Array,
    op: 'append' | 'compact',
    apply: () => void,
    range?: ChatRange,
  ): Promise<void> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    const lsn = this.lastLsn + 1;
    let line: string;
    try {
      line = JSON.stringify({ lsn, chat: room, [op]: toBase64(update), ...range }) + '\n';
      apply();
      this.journalBytes += line.length; // base64 and ASCII keys: one byte a character
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    this.lastLsn = lsn;
    return this.journal.append(line, { changes: [], lastSeq: 0 });
  }

  private madeDurable(payloads: Durable[]): void {
    const changes: Change[] = [];
    for (const p of payloads) {
      if (p.lastSeq > this.durable) this.durable = p.lastSeq;
      changes.push(...p.changes);
    }
    const sinceSnapshot = this.lastLsn - Math.max(this.snapshotLsn, this.countFrom);
    if (sinceSnapshot >= this.options.snapshotEveryCommits && this.journalLargeEnough()) this.snapshotInBackground();
    if (changes.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (err) {
        // A broken listener must not stop the acknowledgements of durable commits.
        console.error('store: an onDurable listener threw', err);
      }
    }
  }

  private journalLargeEnough(): boolean {
    return this.journalBytes >= this.snapshotBytes * (this.options.snapshotJournalRatio ?? 0.5);
  }

  private snapshotInBackground(): void {
    if (this.snapshotBusy || this.closing || this.journal.failed || this.lastLsn === this.snapshotLsn) return;
    this.snapshotBusy = true;
    this.snapshot()
      .catch((err: unknown) => {
        // Not retried on every commit: the next try comes after as many lines again, or the interval.
        this.countFrom = this.lastLsn;
        console.error('store: background snapshot failed; the journal keeps every change', err);
      })
      .finally(() => (this.snapshotBusy = false));
  }

  /**
   * Captures the state at journal line S in one synchronous step, rotates the journal so lines
   * after S go to a new file, writes the snapshot, and only then deletes the files before it.
   * A crash at any point leaves either the old snapshot with every journal file it needs, or the
   * new one; lines it already holds are skipped on replay.
   */
  private async snapshotOnce(): Promise<void> {
    if (this.journal.failed) throw new Error('The store is broken; no snapshot taken.', { cause: this.journal.failed });
    const lsn = this.lastLsn;
    if (lsn === this.snapshotLsn) return;
    const data = this.capture(lsn);
    const bytesCovered = this.journalBytes;
    await this.journal.rotate(lsn + 1);
    const db = snapshotDb<SnapshotData<ChatLogJson>>(this.dir);
    db.data = data;
    await db.write();
    this.snapshotLsn = lsn;
    this.journalBytes -= bytesCovered;
    this.snapshotBytes = await fileSize(path.join(this.dir, SNAPSHOT_FILE), this.snapshotBytes);
    this.snapshotsTaken++;
    for (const { file, firstLsn } of await listJournalFiles(this.dir)) {
      if (firstLsn <= lsn) await fs.rm(file, { force: true });
    }
  }

  /**
   * The state at line `lsn`, in one synchronous step. A room's log is its entries as they are now
   * (a compaction replaces entries, it never changes one), base64-encoded only when the file
   * reaches the room: never every room's log in one step, which stalled every commit behind it.
   */
  private capture(lsn: number): SnapshotData<ChatLogJson> {
    const collections: Record<string, StoredDoc[]> = {};
    for (const name of this.memory.collectionNames()) collections[name] = [...this.memory.all(name)];
    // Keyed by room name: no inherited members (a room named `__proto__` would vanish from the snapshot).
    const chat: Record<string, ChatLogJson> = Object.create(null) as Record<string, ChatLogJson>;
    for (const [room, updates] of this.memory.chat) {
      const entries = [...updates];
      chat[room] = { toJSON: () => entries.map(toBase64) };
    }
    const savedAt = new Date(this.now()).toISOString();
    return { format: 1, lsn, seq: this.memory.lastSeq, savedAt, collections, chat };
  }

  private async shutdown(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.journal.barrier().catch(() => undefined);
      // A failed journal means memory may hold writes nobody was told succeeded: keep them out.
      if (!this.journal.failed) await this.snapshot();
    } finally {
      await this.journal.close();
      await this.lock.release();
    }
  }
}
