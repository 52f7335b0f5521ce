import { MemoryState, type StampedWrite } from '../memory';
import { vouchFor, vouchForList } from '../documents';
import { MemoryReads } from '../memory-reads';
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
  Stored,
  StoredDoc,
} from '../store';
import { StoreUnavailableError } from '../store';
import type { WindowCounters } from '../../http/window-counters';
import { KeyedLock } from '../../keyed-lock';
import { PgChatLogs } from './pg-chat-logs';
import { indexKey, indexKeys, PgDocuments, refKey, type DocRef, type Expected, type IndexRef } from './pg-documents';
import { DECISION_STATEMENTS, DecisionBatches, type Footprint } from './decision-batches';
import { createPool, isConnectionError } from './pool';
import { PgWindowCounters } from './pg-window-counters';
import type pg from 'pg';
import { migrate } from './migrations';
import { reconcileIndexKeys, type IndexRebuild } from './index-keys';

/**
 * The PostgreSQL store: the database holds the data; each server instance holds a replica of the
 * documents in memory (the same `MemoryState` the embedded store uses), filled at start and kept
 * current by the change feed, so reads, pulls and streams cost what they cost on the embedded
 * store. Writes go to the database; a decision (`transaction`) records what it read from the
 * replica, and the database checks at commit, in the SERIALIZABLE statement that writes, that all
 * of it is still current. When another instance changed something meanwhile, the fresh versions are
 * fetched into the replica and the decision runs again (docs/decisions/023-postgres-instances.md).
 */

/** What a decision may read: documents by id and by index key. Each read is checked at commit. */
export type { Decision, DecisionReader } from '../store';

export type PgStoreOptions = {
  connectionString: string;
  indexes: IndexDefinitions;
  poolSize?: number;
  /** Told of each index whose keys were built or removed at start (index-keys.ts). */
  onIndexRebuild?: (rebuild: IndexRebuild) => void;
  /** Feed polling, as PgDocuments takes them (tests shorten them). */
  pendingPollMs?: number;
  idlePollMs?: number;
};

/** A commit waits at most this long for the feed to deliver it here before answering (untilFed). */
const FEED_WAIT_MS = 5_000;

/**
 * A decision ran this many times on data that kept changing under it: the caller gets
 * StoreUnavailableError (try again in a moment), and nothing is written.
 */
const MAX_DECISIONS = 20;

/** An attempt at a decision lost: something it read changed before it committed. */
const LOST = Symbol('lost');

/** The reads of one decision: each document's seq (0 when absent) and each index key's documents. */
class ReadSet implements DecisionReader {
  readonly ids = new Map<string, DocRef & { seq: number }>();
  readonly keys = new Map<string, IndexRef & { docs: Map<string, number> }>();

  constructor(private readonly memory: MemoryState) {}

  get<K extends CollectionName>(collection: K, id: string): Stored<K> | undefined {
    const doc = this.memory.get(collection, id);
    this.ids.set(refKey(collection, id), { collection, id, seq: doc?._seq ?? 0 });
    if (!doc) return undefined;
    vouchFor(collection, doc);
    return doc;
  }

  byIndex<K extends CollectionName>(collection: K, index: string, key: string): Stored<K>[] {
    const docs = this.memory.byIndex(collection, index, key);
    vouchForList(collection, docs);
    this.keys.set(indexKey(collection, index, key), {
      collection,
      index,
      key,
      docs: new Map(docs.map((d) => [d.id, d._seq])),
    });
    return docs;
  }

  /** Existence reads: whether any document was filed under the key. */
  readonly exists = new Map<string, IndexRef & { any: boolean }>();

  anyByIndex(collection: CollectionName, index: string, key: string): boolean {
    const any = this.memory.anyByIndex(collection, index, key);
    this.exists.set(indexKey(collection, index, key), { collection, index, key, any });
    return any;
  }

  get empty(): boolean {
    return this.ids.size === 0 && this.keys.size === 0 && this.exists.size === 0;
  }

  /**
   * What the decision touches (see Footprint), the keys a written document leaves taken from the
   * replica. Undefined when a written document was not read and the replica holds it: the keys it
   * is filed under in the database may be newer than the replica's (the decision goes alone).
   */
  footprint(writes: readonly DocWrite[], indexes: IndexDefinitions): Footprint | undefined {
    const reads = new Set<string>();
    for (const { collection, id } of this.refs()) reads.add(refKey(collection, id));
    for (const k of [...this.keys.values(), ...this.exists.values()]) reads.add(indexKey(k.collection, k.index, k.key));
    const written = new Set<string>();
    const docs = new Set<string>();
    for (const { collection, doc } of writes) {
      const ref = refKey(collection, String(doc.id));
      const current = this.memory.get(collection, String(doc.id));
      if (current && !reads.has(ref)) return undefined;
      written.add(ref);
      docs.add(ref);
      const before = current ? indexKeys(indexes, collection, current) : [];
      for (const k of [...before, ...indexKeys(indexes, collection, doc as StoredDoc)])
        written.add(indexKey(k.collection, k.index, k.key));
    }
    return { reads, writes: written, docs };
  }

  /** The documents to fetch when a read turned out stale: all those read, by id and under every key. */
  fresh(source: { current: PgDocuments['current'] }): Promise<Change[]> {
    return source.current(this.refs(), [...this.keys.values(), ...this.exists.values()]);
  }

  /** The reads as they were, for the commit's check. */
  expected(): Expected {
    return { docs: [...this.ids.values()], keys: [...this.keys.values()], exists: [...this.exists.values()] };
  }

  /** Every document to fetch: those read by id and those the replica filed under a read key. */
  refs(): DocRef[] {
    const refs = [...this.ids.values()].map(({ collection, id }) => ({ collection, id }));
    for (const { collection, docs } of this.keys.values()) for (const id of docs.keys()) refs.push({ collection, id });
    return refs;
  }
}

export class PgStore extends MemoryReads implements Store {
  private readonly chat: PgChatLogs;
  private readonly listeners = new Set<(changes: Change[]) => void>();
  /** Highest seq below which the replica holds every committed write, as the feed delivered it. */
  private durable = 0;
  private stopFeed: () => void = () => {};
  private readonly fedWaiters = new Set<{ seq: number; resolve: () => void }>();
  /** Decisions of this instance under way (the barrier waits for them). */
  private readonly inflight = new Set<Promise<unknown>>();
  /** The lost decisions of this instance, run again one after another (decide), under one key. */
  private readonly lane = new KeyedLock();

  /** Rate limits and quotas counted in the database, so that every instance counts as one. */
  readonly counters: WindowCounters;

  /** Decisions' commits, several in one statement while others are under way. */
  private readonly batches: DecisionBatches;

  private constructor(
    readonly documents: PgDocuments,
    private readonly indexes: IndexDefinitions,
    private readonly pool: pg.Pool,
  ) {
    super(new MemoryState(indexes));
    this.batches = new DecisionBatches(documents, DECISION_STATEMENTS);
    this.chat = new PgChatLogs(documents);
    this.counters = new PgWindowCounters(pool);
  }

  /**
   * Applies the migrations, brings the index keys in step with `indexes`, loads the replica and
   * follows the feed.
   */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    // Half the connections commit decisions (one statement each, PgDocuments' own pool); the
    // others read the feed and chat logs, count rates and notify.
    const size = options.poolSize ?? 10;
    const decisionPoolSize = Math.max(1, Math.floor(size / 2));
    const pool = createPool(options.connectionString, Math.max(1, size - decisionPoolSize));
    try {
      await migrate(pool);
      for (const rebuild of await reconcileIndexKeys(pool, options.indexes)) options.onIndexRebuild?.(rebuild);
      const documents = new PgDocuments({
        pool,
        connectionString: options.connectionString,
        indexes: options.indexes,
        pendingPollMs: options.pendingPollMs,
        idlePollMs: options.idlePollMs,
        decisionPoolSize,
      });
      const store = new PgStore(documents, options.indexes, pool);
      await store.load();
      return store;
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
  }

  /**
   * Writes that depend on nothing read: committed as they are. Without writes, a barrier: every
   * decision of this instance under way now has finished, and the feed has been read once since,
   * so what was committed before the call is readable here (a push answer built after it shows
   * a write that landed while the push waited, as on the embedded store).
   */
  async commit(writes: DocWrite[]): Promise<number> {
    if (writes.length > 0) return (await this.transaction(() => ({ writes, value: undefined }))).seq;
    await this.settled();
    return this.durable;
  }

  /** This instance's transactions under way have ended, and the replica has read the database's newest. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
    await unavailableIfDown(this.documents.readNow());
  }

  /**
   * One after the other: each decision commits before the next one reads (this instance reads
   * its own commits at once). The feed is waited for once, after the last: a push of many rows
   * costs one transaction per row, not one transaction and one feed read.
   */
  async transactions<T>(decides: ((read: DecisionReader) => Decision<T>)[]): Promise<{ value: T; seq: number }[]> {
    const results: { value: T; seq: number }[] = [];
    for (const decide of decides) results.push(await this.track(this.decide(decide, false)));
    await this.untilFed(Math.max(0, ...results.map((r) => r.seq)));
    return results;
  }

  /**
   * Runs `decide` on the replica and commits its writes if everything it read is still current
   * in the database; otherwise refreshes what changed and runs it again. `decide` must be a pure
   * function of what it reads (it may run several times). A decision that writes nothing commits
   * nothing, but its reads are checked all the same (one query), so its answer is never one a
   * fresher replica would not give.
   */
  transaction<T>(decide: (read: DecisionReader) => Decision<T>): Promise<{ value: T; seq: number }> {
    return this.track(this.decide(decide, true));
  }

  /** A decision under way, for the barrier of `commit([])`. */
  private track<T>(decision: Promise<T>): Promise<T> {
    const run = unavailableIfDown(decision);
    this.inflight.add(run);
    const done = () => this.inflight.delete(run);
    run.then(done, done);
    return run;
  }

  /**
   * `fed`: resolve only once the feed has delivered the commit here (see untilFed). The first
   * attempt runs at once, beside any other decision; one that lost (something it read changed
   * before it committed) runs again in this instance's lane, one lost decision after another.
   * Without the lane, many requests contending for one document (one session's sliding expiry, the
   * openings of one gig) lost to one another round after round, and some ran out of attempts.
   */
  private async decide<T>(
    decide: (read: DecisionReader) => Decision<T>,
    fed: boolean,
  ): Promise<{ value: T; seq: number }> {
    let decided = await this.attempt(decide, false);
    if (decided === LOST) {
      decided = await this.lane.run('lost', async () => {
        for (let attempt = 2; ; attempt++) {
          const again = await this.attempt(decide, attempt >= MAX_DECISIONS);
          if (again !== LOST) return again;
        }
      });
    }
    if (fed && decided.wrote) await this.untilFed(decided.seq);
    return { value: decided.value, seq: decided.seq };
  }

  /**
   * One run of `decide` on the replica, committed if everything it read is still current in the
   * database. LOST when something it read changed (the replica then holds the change), unless
   * `last`: then a decision that writes nothing answers on what it read, one that writes fails.
   */
  private async attempt<T>(
    decide: (read: DecisionReader) => Decision<T>,
    last: boolean,
  ): Promise<{ value: T; seq: number; wrote: boolean } | typeof LOST> {
    const reads = new ReadSet(this.memory);
    const { writes, value } = decide(reads);
    // Nothing read and nothing to write: nothing to check.
    if (writes.length === 0 && reads.empty) return { value, seq: this.durable, wrote: false };
    // Writes are committed only if every read is still current; a decision that writes nothing is
    // checked all the same (a refusal, say, must not rest on a stale replica either: a document
    // this user wrote a moment ago on another instance may not be here yet).
    const outcome = await this.batches.commit({ expected: reads.expected(), writes }, () =>
      reads.footprint(writes, this.indexes),
    );
    if (!outcome.ok) {
      // The documents themselves are fetched only now that something changed.
      this.memory.applyNewer(await reads.fresh(this.documents));
      if (!last) return LOST;
      // Out of attempts: an answer rests on what it read; a write is not made, and the same
      // request may well pass in a moment (answered 503 with Retry-After, not a failure of the server).
      if (writes.length === 0) return { value, seq: this.durable, wrote: false };
      throw new StoreUnavailableError(new Error('A read of the decision kept changing before it committed.'));
    }
    if (writes.length === 0) return { value, seq: this.durable, wrote: false };
    // This instance reads its own writes at once; the feed brings them to the streams later.
    const seqOf = new Map(outcome.stamps.map((s) => [refKey(s.collection, s.id), s.seq]));
    const stamped: StampedWrite[] = writes.map(({ collection, doc }) => {
      const id = String(doc.id);
      return {
        collection,
        doc: { ...doc, id, _deleted: doc._deleted === true, _seq: seqOf.get(refKey(collection, id)) ?? 0 },
      };
    });
    this.memory.applyNewer(JSON.parse(JSON.stringify(stamped)) as StampedWrite[]);
    return { value, seq: outcome.seq, wrote: true };
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

  openChat(room: string): Promise<void> {
    return unavailableIfDown(this.chat.open(room));
  }

  closeChat(room: string): void {
    this.chat.close(room);
  }

  chatTransaction<T>(
    room: string,
    decide: () => ChatDecision<T>,
    logged?: (decision: ChatDecision<T>) => void,
  ): Promise<T> {
    return unavailableIfDown(this.chat.transaction(room, decide, logged));
  }

  appendChatUpdate(room: string, update: Uint8Array): Promise<void> {
    return this.chatTransaction(room, () => ({ append: [update], value: undefined }));
  }

  chatUpdates(room: string): Uint8Array[] {
    return this.chat.updates(room);
  }

  compactChat(room: string, merged: Uint8Array, range?: ChatRange): Promise<void> {
    return unavailableIfDown(this.chat.compact(room, merged, range));
  }

  onRemoteChat(listener: (room: string, updates: Uint8Array[]) => void): () => void {
    return this.chat.onRemote(listener);
  }

  /** The feed read once after the call: what any instance committed before it is here. */
  catchUp(): Promise<void> {
    return unavailableIfDown(this.documents.readNow());
  }

  publishPresence(room: string, update: Uint8Array): void {
    this.chat.publishPresence(room, update);
  }

  onRemotePresence(listener: (room: string, update: Uint8Array) => void): () => void {
    return this.chat.onRemotePresence(listener);
  }

  async ping(): Promise<void> {
    await unavailableIfDown(this.pool.query('SELECT 1'));
  }

  /** Nothing to do: every write is in the database once it has answered. */
  async snapshot(): Promise<void> {}

  async close(): Promise<void> {
    await this.chat.settle();
    this.chat.stop();
    this.stopFeed();
    await this.documents.close();
    await this.pool.end();
  }

  private async load(): Promise<void> {
    const { changes, upTo } = await this.documents.loadAll();
    this.memory.applyWrites(changes);
    this.durable = upTo;
    this.stopFeed = this.documents.onDurable((feed) => this.fromFeed(feed));
    await this.documents.open(upTo);
  }

  /**
   * Resolves once the feed has delivered `seq` here, so a commit answers only when this instance
   * also serves it to pulls and streams (as the embedded store does): a device that pushes and
   * then pulls from the same instance gets its own write back. Past FEED_WAIT_MS (an older
   * transaction somewhere holding the horizon back) it answers anyway: the write is durable, and
   * pulls will serve it once the horizon passes.
   */
  private untilFed(seq: number): Promise<void> {
    if (seq <= this.durable) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { seq, resolve };
      this.fedWaiters.add(waiter);
      setTimeout(() => {
        this.fedWaiters.delete(waiter);
        resolve();
      }, FEED_WAIT_MS).unref();
    });
  }

  private fromFeed(changes: Change[]): void {
    this.memory.applyNewer(changes);
    const last = changes.at(-1);
    if (last && last.doc._seq > this.durable) this.durable = last.doc._seq;
    for (const waiter of this.fedWaiters)
      if (waiter.seq <= this.durable) {
        this.fedWaiters.delete(waiter);
        waiter.resolve();
      }
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (err) {
        console.error('store: an onDurable listener threw', err);
      }
    }
  }
}

/** A database that cannot be reached becomes the store's StoreUnavailableError (answered 503). */
export async function unavailableIfDown<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw isConnectionError(err) ? new StoreUnavailableError(err) : err;
  }
}
