import type { Change, ChatRange, CollectionName, IndexDefinitions, StoredDoc } from './store';

/** A stored document together with where it goes; the shape of a write in the journal too. */
export type StampedWrite = { collection: CollectionName; doc: StoredDoc };

/** One entry of the change log: the document `id` of `collection` was written at `seq`. */
type LogEntry = { seq: number; collection: CollectionName; id: string };

type IndexMap = Map<string, Set<string>>; // key → ids

/**
 * The whole data set in memory: documents per collection, their secondary indexes, a change log
 * ordered by sequence, and the chat logs. Nothing here touches the disk.
 */
export class MemoryState {
  /** Highest sequence stamped on any document held here. */
  lastSeq = 0;
  readonly chat = new Map<string, Uint8Array[]>();

  private readonly docs = new Map<CollectionName, Map<string, StoredDoc>>();
  private readonly indexMaps = new Map<CollectionName, Map<string, IndexMap>>();
  // Appended in sequence order, so a pull finds its starting point by binary search. An update
  // leaves the document's older entry behind as stale; those are dropped in bulk once they
  // outnumber the live ones, which keeps the cost per write constant on average.
  private log: LogEntry[] = [];
  private staleEntries = 0;

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
      const previous = docs.get(w.doc.id);
      if (previous) {
        this.unindex(w.collection, previous);
        this.staleEntries++;
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
      this.log.push({ seq: w.doc._seq, collection: w.collection, id: w.doc.id });
      this.lastSeq = w.doc._seq;
    });
    if (this.staleEntries > 1024 && this.staleEntries > this.log.length / 2) this.dropStaleEntries();
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
   * sequence order. A document rewritten later shows up only at its newer sequence.
   */
  changesSince(afterSeq: number, limit: number, maxSeq: number): Change[] {
    const out: Change[] = [];
    const log = this.log;
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
      const doc = this.get(entry.collection, entry.id);
      if (doc && doc._seq === entry.seq) out.push({ collection: entry.collection, doc });
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
    const first = applied[0]!.doc._seq;
    const tail = this.log.at(-1)?.seq ?? 0;
    if (first > tail) {
      this.applyWrites(applied);
      return applied;
    }
    // Some land before the end of the change log: apply them, then file their log entries in order.
    const logLength = this.log.length;
    const lastSeq = this.lastSeq;
    this.applyWrites(applied);
    const added = this.log.splice(logLength);
    for (const entry of added) {
      let lo = 0;
      let hi = this.log.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.log[mid]!.seq < entry.seq) lo = mid + 1;
        else hi = mid;
      }
      this.log.splice(lo, 0, entry);
    }
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

  private dropStaleEntries(): void {
    this.log = this.log.filter((e) => this.get(e.collection, e.id)?._seq === e.seq);
    this.staleEntries = 0;
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
