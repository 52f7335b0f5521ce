/**
 * The server's store interface. Routes and policies reach data only through it, so a PostgreSQL
 * store can stand beside the embedded lowdb one without touching them.
 *
 * Consistency model (single process):
 * - Reads (`get`, `byIndex`, `all`) see every committed write, including ones still being synced,
 *   so a route that reads, decides and commits without an `await` in between is serialised.
 * - `commit` applies its writes to memory at once, atomically (all or none), stamps each written
 *   document with the next value of one global sequence, and resolves once the writes are durable
 *   (journal line fsynced). Only then may the caller answer its client.
 * - What other users are shown (`changesSince`, `onDurable`) only ever includes durable writes.
 */

import type { DocumentTypes, Stored } from './documents';

export type { DocumentTypes, Stored } from './documents';

export type CollectionName = keyof DocumentTypes;

/** Every stored document has an id, the sequence of its last write, and a deletion flag (tombstone). */
export type StoredDoc = {
  id: string;
  _seq: number;
  _deleted: boolean;
  [field: string]: unknown;
};

/** What a caller hands to `commit`: the document without `_seq` (the store stamps it). */
export type DocWrite = {
  collection: CollectionName;
  doc: Omit<StoredDoc, '_seq'> & { _seq?: number };
};

export type Change = { collection: CollectionName; doc: StoredDoc };

/** Secondary indexes: for each collection, index name → the key(s) a document is filed under. */
export type IndexDefinitions = Partial<
  Record<CollectionName, Record<string, (doc: StoredDoc) => string | string[] | undefined>>
>;

/** What a decision reads: typed like the store's own reads (a PostgreSQL store also records them). */
export interface DecisionReader {
  get<K extends CollectionName>(collection: K, id: string): Stored<K> | undefined;
  byIndex<K extends CollectionName>(collection: K, index: string, key: string): Stored<K>[];
  /**
   * Whether any document (a tombstone too) is filed under an index key: what `byIndex(…).length > 0`
   * answers, at a cost that does not grow with their number (a decision on PostgreSQL checks it
   * at commit with one lookup instead of every document's version).
   */
  anyByIndex(collection: CollectionName, index: string, key: string): boolean;
}

/** What a decision returns: the writes to commit (none to commit nothing) and a value for the caller. */
export type Decision<T> = { writes: DocWrite[]; value: T };

/**
 * The store cannot reach its data right now (the database is down or restarting). Nothing was
 * written; the request may simply be tried again in a moment. Answered 503 (http/errors.ts).
 */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The service is briefly unavailable. Please try again in a moment.', { cause });
    this.name = 'StoreUnavailableError';
  }
}

/** Log entries `from` (inclusive) to `to` (exclusive) of a room's chat log. */
export type ChatRange = { from: number; to: number };

/**
 * What a chat decision returns: the entries to append to the room's log together (none: append
 * nothing) and a value for the caller.
 */
export type ChatDecision<T> = { append?: readonly Uint8Array[]; value: T };

/**
 * Documents handed out by reads are the store's own objects: treat them as read-only. Reads are
 * typed by the collection (store/documents.ts).
 */
export interface Store {
  get<K extends CollectionName>(collection: K, id: string): Stored<K> | undefined;
  /** Documents filed under `key` in the named index (tombstones included; callers filter). */
  byIndex<K extends CollectionName>(collection: K, index: string, key: string): Stored<K>[];
  /** Whether any document (tombstones included) is filed under `key` in the named index. */
  anyByIndex(collection: CollectionName, index: string, key: string): boolean;
  /** Every document of a collection (tombstones included; callers filter). */
  all<K extends CollectionName>(collection: K): Iterable<Stored<K>>;
  /**
   * Atomic, durable multi-document write. Resolves with the sequence of the last document written.
   * With no writes it is a barrier: it resolves once every write this process has made or seen
   * so far is durable and readable here.
   */
  commit(writes: DocWrite[]): Promise<number>;
  /**
   * Read, decide, write as one: `decide` reads through the reader it is given and returns the
   * writes to commit and a value. The embedded store runs it once, synchronously, on its memory
   * (nothing can come between the reads and the commit in one process); a store shared by several
   * instances commits only if what it read is still current, and otherwise runs `decide` again on
   * fresh versions, so `decide` must be a pure function of what it reads. Resolves once its writes
   * and everything it read are durable (a refusal never rests on a write a crash could take back),
   * with the decision's value and the store's last sequence at that point.
   */
  transaction<T>(decide: (read: DecisionReader) => Decision<T>): Promise<{ value: T; seq: number }>;
  /**
   * Several decisions in order, each seeing the writes of those before it (a push's rows): the
   * embedded store decides them all at once and lets their commits share a sync; a shared store
   * commits each before deciding the next.
   */
  transactions<T>(decides: ((read: DecisionReader) => Decision<T>)[]): Promise<{ value: T; seq: number }[]>;
  /**
   * Resolves once reads see every write committed before the call, whichever instance made it
   * (a pull after a push that went to another instance). The embedded store sees them already.
   */
  catchUp(): Promise<void>;
  /**
   * Resolves once reads here hold every write decided before the call, durable or not yet: this
   * instance's writes under way and what others committed. The embedded store applies a write to
   * its memory as it decides it, so at once. (`commit([])` then makes what was read durable.)
   */
  settled(): Promise<void>;
  /** Highest sequence that is durable. */
  durableSeq(): number;
  /** Durable changes with `_seq > afterSeq`, ordered by sequence, at most `limit`: of `collection`, or of all. */
  changesSince(afterSeq: number, limit: number, collection?: CollectionName): Change[];
  /** Called with each group of changes once it is durable. Returns an unsubscribe function. */
  onDurable(listener: (changes: Change[]) => void): () => void;

  /**
   * Chat: makes a room's log readable by `chatUpdates` and holds it open until a matching
   * `closeChat` (the PostgreSQL store reads it from the database and follows other instances'
   * appends while it is held; the embedded store holds every log already). Call before reading.
   */
  openChat(room: string): Promise<void>;
  /** Chat: releases one `openChat` of a room (the last release frees the log's memory here). */
  closeChat(room: string): void;
  /**
   * Chat: entries other server instances appended to a room held open here, in log order, once
   * read (never this instance's own appends). The embedded store, alone with its data, never calls it.
   */
  onRemoteChat(listener: (room: string, updates: Uint8Array[]) => void): () => void;
  /**
   * Chat: appends to a room's log the entries `decide` returns, decided on the whole log as this
   * instance holds it, so that nothing appended anywhere comes between what `decide` saw and them
   * (the room's true tail: docs/decisions/023-postgres-instances.md, "Chat across
   * instances"). `decide` runs once this room's earlier chat transactions have finished; the
   * embedded store runs it at once. A store shared by several instances appends only if no other
   * instance appended first; otherwise it reads what they did (handed to `onRemoteChat` listeners)
   * and runs `decide` again, so `decide` must be a function of the room's current state with no
   * effects of its own. The entries are appended together (on a shared store, all or none).
   * `logged` is called synchronously with the decision once its entries are part of
   * `chatUpdates`, before any later entry reaches `onRemoteChat` listeners: at once on the
   * embedded store, at commit on a shared one. Resolves with the decision's value once its
   * entries are durable (a decision that appends nothing: once everything it saw is).
   */
  chatTransaction<T>(
    room: string,
    decide: () => ChatDecision<T>,
    logged?: (decision: ChatDecision<T>) => void,
  ): Promise<T>;
  /**
   * Chat presence: hands a room's presence change (a y-protocols awareness update of a few KiB)
   * to the other instances holding the room; an empty update asks them for theirs. Neither
   * stored nor acknowledged. The embedded store, alone, has nobody to hand it to.
   */
  publishPresence(room: string, update: Uint8Array): void;
  /** Chat presence other instances published for rooms held open here (empty: they ask for this instance's). */
  onRemotePresence(listener: (room: string, update: Uint8Array) => void): () => void;
  /** Chat: append one Yjs update to a room's log as it is, durably (imports, seeds, tests). */
  appendChatUpdate(room: string, update: Uint8Array): Promise<void>;
  /**
   * Chat: every update of a room, oldest first. The embedded store includes appends still being
   * synced (like its document reads); the PostgreSQL store holds only committed entries.
   */
  chatUpdates(room: string): Uint8Array[];
  /**
   * Chat: replace the log entries `from` up to (not including) `to`, as `chatUpdates` numbered
   * them at the time of the call, by one update merging them (compaction), durably. A compaction
   * replaces only the entries it merged: whatever else is in the log stays, whoever appended it.
   * Without a range the whole log is replaced.
   */
  compactChat(room: string, merged: Uint8Array, range?: ChatRange): Promise<void>;

  /** Resolves when the data can be reached, rejects with StoreUnavailableError otherwise (the health check). */
  ping(): Promise<void>;
  /** Takes a snapshot now (tests and shutdown); normally it happens in the background. */
  snapshot(): Promise<void>;
  /** Flushes, snapshots, releases the data-folder lock. */
  close(): Promise<void>;
}

/**
 * Reads that must reflect every write committed anywhere, another instance's a moment ago
 * included (a session created on another instance, say): a decision that writes nothing, whose
 * reads the store checks. Use it where a miss would be an error; plain reads serve the rest.
 */
export async function readCurrent<T>(store: Store, read: (reader: DecisionReader) => T): Promise<T> {
  return (await store.transaction((reader) => ({ writes: [], value: read(reader) }))).value;
}
