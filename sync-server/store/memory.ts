import type { Change, ChatRange, CollectionName, IndexDefinitions, StoredDoc } from './store';

/** A stored document together with where it goes; the shape of a write in the journal too. */
export type StampedWrite = { collection: CollectionName; doc: StoredDoc };

/** One entry of a collection's change log: the document `id` was written at `seq`. */
type LogEntry = { seq: number; id: string };

type IndexMap = Map<string, Set<string>>; // key → ids

/**
 * The whole data set in memory: documents per collection, their secondary indexes, a change log
 * per collection ordered by sequence, and the chat logs. Nothing here touches the disk.
 */
export class MemoryState {
  /** Highest sequence stamped on any document held here. */
  lastSeq = 0;
  readonly chat = new Map<string, Uint8Array[]>();

  private readonly docs = new Map<CollectionName, Map<string, StoredDoc>>();
  private readonly indexMaps = new Map<CollectionName, Map<string, IndexMap>>();
  // Per collection (a pull reads one: it scans that collection's writes, not everyone's), in
  // sequence order, so a pull finds its starting point by binary search. An update leaves the
  // document's older entry behind as stale; those are dropped in bulk once they outnumber the live
  // ones, which keeps the cost per write constant on average.
  private readonly logs = new Map<CollectionName, { entries: LogEntry[]; stale: number }>();

  constructor(private readonly indexes: IndexDefinitions) {}

  get(collection: CollectionName, id: string): StoredDoc | undefined {
    return this.docs.get(collection)?.get(id);
  }

  byIndex(collection: CollectionName, index: string, key: string): StoredDoc[] {
    const map = this.indexMap(collection, index);
    const ids = map.get(key);
    if (!ids) return [];
    const docs = this.collection(collection);
    const out: StoredDoc[] = [];
    for (const id of ids) {
      const doc = docs.get(id);
      if (doc) out.push(doc);
    }
    return out;
  }

  anyByIndex(collection: CollectionName, index: string, key: string): boolean {
    const ids = this.indexMap(collection, index).get(key);
    if (!ids) return false;
    const docs = this.collection(collection);
    for (const id of ids) if (docs.has(id)) return true;
    return false;
  }

  all(collection: CollectionName): IterableIterator<StoredDoc> {
    return this.collection(collection).values();
  }

  collectionNames(): CollectionName[] {
    return [...this.docs.keys()];
  }

  /**
   * Applies writes in order, all or none: every index key is computed before anything changes,
   * so an index function that throws leaves the state as it was. Writes must carry increasing
   * sequences above `lastSeq`.
   */
  applyWrites(writes: readonly StampedWrite[]): void {
    const newKeys = writes.map((w) => this.keysOf(w.collection, w.doc));
    writes.forEach((w, i) => {
      const docs = this.collection(w.collection);
      const log = this.logOf(w.collection);
      const previous = docs.get(w.doc.id);
      if (previous) {
        this.unindex(w.collection, previous);
        log.stale++;
      }
      docs.set(w.doc.id, w.doc);
      for (const [index, keys] of newKeys[i]!) {
        const map = this.indexMap(w.collection, index);
        for (const key of keys) {
          let ids = map.get(key);
          if (!ids) map.set(key, (ids = new Set()));
          ids.add(w.doc.id);
        }
      }
      log.entries.push({ seq: w.doc._seq, id: w.doc.id });
      this.lastSeq = w.doc._seq;
    });
    for (const collection of new Set(writes.map((w) => w.collection))) this.dropStaleEntries(collection);
  }

  /** Fills an empty state from a snapshot's collections. */
  load(collections: Record<string, StoredDoc[]>): void {
    const writes = Object.entries(collections).flatMap(([collection, docs]) =>
      docs.map((doc) => ({ collection: collection as CollectionName, doc })),
    );
    this.applyWrites(writes.sort((a, b) => a.doc._seq - b.doc._seq));
  }

  /**
   * The latest version of each document written after `afterSeq` and at most at `maxSeq`, in
   * sequence order: of one collection, or of all. A document rewritten later shows up only at its
   * newer sequence.
   */
  changesSince(afterSeq: number, limit: number, maxSeq: number, collection?: CollectionName): Change[] {
    if (collection) return this.collectionChanges(collection, afterSeq, limit, maxSeq);
    const all = [...this.logs.keys()].flatMap((name) => this.collectionChanges(name, afterSeq, limit, maxSeq));
    return all.sort((a, b) => a.doc._seq - b.doc._seq).slice(0, limit);
  }

  private collectionChanges(collection: CollectionName, afterSeq: number, limit: number, maxSeq: number): Change[] {
    const out: Change[] = [];
    const log = this.logs.get(collection)?.entries;
    if (!log) return out;
    const docs = this.collection(collection);
    let lo = 0;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (log[mid]!.seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < log.length && out.length < limit; i++) {
      const entry = log[i]!;
      if (entry.seq > maxSeq) break;
      const doc = docs.get(entry.id);
      if (doc && doc._seq === entry.seq) out.push({ collection, doc });
    }
    return out;
  }

  /**
   * Applies committed writes that may arrive out of sequence order, as with several server
   * instances on one database: this instance's own commits at once, everyone's later through the
   * change feed, and fresh versions fetched after a conflict. A document keeps its newest version:
   * a write not newer than the one held is ignored. Returns the writes that were applied.
   */
  applyNewer(writes: readonly StampedWrite[]): StampedWrite[] {
    const newest = new Map<string, StampedWrite>();
    for (const w of writes) {
      const key = `${w.collection}\u0000${w.doc.id}`;
      const seen = newest.get(key);
      if ((seen?.doc._seq ?? -1) < w.doc._seq && (this.get(w.collection, w.doc.id)?._seq ?? -1) < w.doc._seq)
        newest.set(key, w);
    }
    const applied = [...newest.values()].sort((a, b) => a.doc._seq - b.doc._seq);
    if (applied.length === 0) return applied;
    const lastSeq = this.lastSeq;
    this.applyWrites(applied);
    // Some may land before the end of their collection's log: each moves back to its place (the
    // bulk drop of stale entries keeps the order of those it keeps, so they are still the last).
    const added = new Map<CollectionName, number>();
    for (const w of applied) added.set(w.collection, (added.get(w.collection) ?? 0) + 1);
    for (const [collection, count] of added) settleTail(this.logOf(collection).entries, count);
    this.lastSeq = Math.max(lastSeq, applied.at(-1)!.doc._seq);
    return applied;
  }

  appendChat(room: string, update: Uint8Array): void {
    let list = this.chat.get(room);
    if (!list) this.chat.set(room, (list = []));
    list.push(update);
  }

  /** Replaces entries `from`..`to` (exclusive), or the whole log without a range; throws on a range the log does not have. */
  compactChat(room: string, merged: Uint8Array, range?: ChatRange): void {
    const list = this.chat.get(room) ?? [];
    if (!range) {
      this.chat.set(room, [merged]);
      return;
    }
    const { from, to } = range;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from || to > list.length) {
      throw new Error(`chat log ${room} has ${list.length} entries, not ${from}..${to}`);
    }
    list.splice(from, to - from, merged);
    this.chat.set(room, list);
  }

  /** Drops a collection's stale log entries once they outnumber the live ones. */
  private dropStaleEntries(collection: CollectionName): void {
    const log = this.logOf(collection);
    if (log.stale <= 1024 || log.stale <= log.entries.length / 2) return;
    const docs = this.collection(collection);
    log.entries = log.entries.filter((e) => docs.get(e.id)?._seq === e.seq);
    log.stale = 0;
  }

  private logOf(collection: CollectionName): { entries: LogEntry[]; stale: number } {
    let log = this.logs.get(collection);
    if (!log) this.logs.set(collection, (log = { entries: [], stale: 0 }));
    return log;
  }

  private collection(name: CollectionName): Map<string, StoredDoc> {
    let docs = this.docs.get(name);
    if (!docs) this.docs.set(name, (docs = new Map()));
    return docs;
  }

  private indexMap(collection: CollectionName, index: string): IndexMap {
    if (!this.indexes[collection]?.[index]) {
      throw new Error(`The store has no index "${index}" on ${collection}; add it to the index definitions.`);
    }
    let byName = this.indexMaps.get(collection);
    if (!byName) this.indexMaps.set(collection, (byName = new Map()));
    let map = byName.get(index);
    if (!map) byName.set(index, (map = new Map()));
    return map;
  }

  private keysOf(collection: CollectionName, doc: StoredDoc): [string, string[]][] {
    const defs = this.indexes[collection];
    if (!defs) return [];
    return Object.entries(defs).map(([index, fn]) => {
      const value = fn(doc);
      const keys = value === undefined ? [] : Array.isArray(value) ? [...new Set(value)] : [value];
      return [index, keys.filter((k): k is string => typeof k === 'string')];
    });
  }

  private unindex(collection: CollectionName, doc: StoredDoc): void {
    for (const [index, keys] of this.keysOf(collection, doc)) {
      const map = this.indexMap(collection, index);
      for (const key of keys) {
        const ids = map.get(key);
        ids?.delete(doc.id);
        if (ids?.size === 0) map.delete(key);
      }
    }
  }
}

/** Moves a log's last `count` entries, appended out of order, back to their places in sequence order. */
function settleTail(log: LogEntry[], count: number): void {
  for (let i = Math.max(1, log.length - count); i < log.length; i++) {
    const entry = log[i]!;
    let j = i - 1;
    while (j >= 0 && log[j]!.seq > entry.seq) {
      log[j + 1] = log[j]!;
      j--;
    }
    log[j + 1] = entry;
  }
}
