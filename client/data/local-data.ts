import type { MangoQuery, RxCollection, RxDocument, RxStorageChangeEvent } from 'rxdb';
import { asyncScheduler, map, Observable, Subject, throttleTime } from 'rxjs';
import type { z } from 'zod';
import { REPLICATED_NAMES, type DocTypes, type ReplicatedName, type SyncProblem } from './collections';
import type { AppDatabase } from './database';
import type { Outbox } from './outbox';

/** Every collection on this device: the replicated ones and the local sync problems. */
export type LocalDocTypes = DocTypes & { syncproblems: SyncProblem };
export type LocalName = keyof LocalDocTypes;
/** A document as screens see it: a plain value, never an RxDocument. */
export type Doc<K extends LocalName> = LocalDocTypes[K];
export type Query<K extends LocalName> = MangoQuery<LocalDocTypes[K]>;

const REPLICATED: ReadonlySet<string> = new Set<ReplicatedName>(REPLICATED_NAMES);

/**
 * Content kept on this device (a refused or lost write) as a document of `collection`, or
 * undefined when it is not one: checked against the collection's shared schema, never assumed.
 * The schemas (and zod with them) are loaded on the first such check, not with the data layer.
 */
async function keptAsDocument<K extends ReplicatedName>(collection: K, content: unknown): Promise<Doc<K> | undefined> {
  const schemas: { [N in ReplicatedName]: z.ZodType<Doc<N>> } = (await import('./document-schemas')).DOCUMENT_SCHEMAS;
  const parsed = schemas[collection].safeParse(content);
  return parsed.success ? parsed.data : undefined;
}

/** Plain values already made, per RxDB document (one object per stored version of a document). */
const plainValues = new WeakMap<object, unknown>();

/**
 * A document's plain value. RxDB types it deeply readonly, which the compiler cannot relate to the
 * document type in general; the value is the document's own JSON and nothing in the app mutates
 * it. The one conversion of its kind: screens get typed documents from here and cast nothing.
 * Made once per stored version: a live query gives the same RxDB document for a version until it
 * changes, and without the cache every update of the board during a first sync (a write every 50
 * gigs) copied all 10,000 of its gigs again.
 */
function plain<T>(doc: RxDocument<T>): T {
  let value = plainValues.get(doc) as T | undefined;
  if (value === undefined) {
    value = doc.toJSON() as T;
    plainValues.set(doc, value);
  }
  return value;
}

/**
 * A stored document's plain value, as `plain` makes it from an RxDB document: without RxDB's
 * own fields (the revision, attachments, the deletion flag, the storage's meta).
 */
function stored<T>(data: Record<string, unknown>): T {
  const { _rev, _attachments, _deleted, _meta, ...value } = data;
  return value as T;
}

/**
 * The one way the app reads and writes this device's database. Screens use the query hooks
 * (queries.ts) and the feature writes; both come here. Every write to a replicated collection is
 * tracked in the outbox (what waits to go out) and stamped with `updatedAt`, so no caller can
 * forget either.
 */
export class LocalData {
  private readonly collections: { [K in LocalName]: RxCollection<LocalDocTypes[K]> };

  constructor(db: AppDatabase, private readonly outbox: Outbox) {
    this.collections = db;
  }

  /** A document by id, live: null while it does not exist (or was deleted). */
  observe<K extends LocalName>(name: K, id: string): Observable<Doc<K> | null> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    return collection.findOne(id).$.pipe(map((doc) => (doc ? plain(doc) : null)));
  }

  /** The documents a query matches, live. */
  observeAll<K extends LocalName>(name: K, query: Query<K> = {}): Observable<Doc<K>[]> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    return collection.find(query).$.pipe(map((docs) => docs.map(plain)));
  }

  /**
   * Every document of a collection, live, handed on at most once every `everyMs` while changes
   * stream in (the first change at once, the latest at the end of each window), in no order.
   * Kept from the collection's change events rather than by an RxDB live query: a live query maps
   * its whole result again after every stored chunk, so a new device's first sync of 10k gigs
   * (200 chunks of 50) cost the board ~300 ms of the main thread in RxDB alone (decision 008);
   * here each chunk costs its own documents, and the list is made only when it is handed on.
   * The collection is read once, after listening has begun: changes that arrive while it is read
   * are applied after it, in the order they were stored, so the last one of each document wins.
   */
  observeWhole<K extends LocalName>(name: K, everyMs: number): Observable<Doc<K>[]> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    return new Observable<Doc<K>[]>((subscriber) => {
      const docs = new Map<string, Doc<K>>();
      let waiting: RxStorageChangeEvent<unknown>[][] | undefined = [];
      const changed = new Subject<void>();
      const handing = changed
        .pipe(throttleTime(everyMs, asyncScheduler, { leading: true, trailing: true }))
        .subscribe(() => subscriber.next([...docs.values()]));
      const apply = (events: RxStorageChangeEvent<unknown>[]) => {
        for (const { documentId, documentData } of events) {
          const data = documentData as Record<string, unknown> | undefined;
          if (!data || data._deleted) docs.delete(documentId);
          else docs.set(documentId, stored<Doc<K>>(data));
        }
      };
      const listening = collection.eventBulks$.subscribe((bulk) => {
        if (waiting) waiting.push(bulk.events);
        else {
          apply(bulk.events);
          changed.next();
        }
      });
      collection
        .find()
        .exec()
        .then(
          (found) => {
            for (const doc of found) docs.set(doc.primary, plain(doc));
            for (const events of waiting ?? []) apply(events);
            waiting = undefined;
            changed.next();
          },
          (error: unknown) => subscriber.error(error),
        );
      return () => {
        listening.unsubscribe();
        handing.unsubscribe();
      };
    });
  }

  async get<K extends LocalName>(name: K, id: string): Promise<Doc<K> | null> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    const doc = await collection.findOne(id).exec();
    return doc ? plain(doc) : null;
  }

  async find<K extends LocalName>(name: K, query: Query<K> = {}): Promise<Doc<K>[]> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    return (await collection.find(query).exec()).map(plain);
  }

  async insert<K extends LocalName>(name: K, doc: Doc<K>): Promise<void> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    await this.tracked(name, doc.id, () => collection.insert(doc));
  }

  /** Changes some fields of a document; false when there is no such document. */
  async patch<K extends LocalName>(name: K, id: string, change: Partial<Doc<K>>): Promise<boolean> {
    return this.modify(name, id, (doc) => ({ ...doc, ...change }));
  }

  /** Rewrites a document from its current state; false when there is no such document. */
  async modify<K extends LocalName>(name: K, id: string, next: (doc: Doc<K>) => Doc<K>): Promise<boolean> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    const doc = await collection.findOne(id).exec();
    if (!doc) return false;
    const stamped = this.isReplicated(name);
    await this.tracked(name, id, () =>
      doc.incrementalModify((current) => {
        const changed = next(current);
        return stamped ? { ...changed, updatedAt: Date.now() } : changed;
      }),
    );
    return true;
  }

  /** Deletes a document (replicated collections send the deletion); false when there is none. */
  async remove<K extends LocalName>(name: K, id: string): Promise<boolean> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    const doc = await collection.findOne(id).exec();
    if (!doc) return false;
    await this.tracked(name, id, () => doc.remove());
    return true;
  }

  /** Whether `name` is a collection that replicates (what the outbox tracks). */
  isReplicated(name: string): name is ReplicatedName {
    return REPLICATED.has(name);
  }

  /** Every collection on this device: the replicated ones and the sync problems. */
  names(): LocalName[] {
    return [...REPLICATED_NAMES, 'syncproblems'];
  }

  /** How many documents of a collection this device holds (deleted ones not counted). */
  async count(name: LocalName): Promise<number> {
    return this.collections[name].count().exec();
  }

  /**
   * Documents by id whatever their state, deleted ones included: what a change waiting to go out
   * was about, a deletion too.
   */
  async peek<K extends LocalName>(
    name: K,
    ids: readonly string[],
  ): Promise<Map<string, { doc: Record<string, unknown>; deleted: boolean }>> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    const found = await collection.storageInstance.findDocumentsById([...ids], true);
    const out = new Map<string, { doc: Record<string, unknown>; deleted: boolean }>();
    for (const row of found) {
      // The stored document's own fields, as plain() gives them for a live one: RxDB's own
      // fields (`_deleted`, `_meta`, `_rev`, `_attachments`) are the ones starting with `_`.
      const doc: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(row)) if (!field.startsWith('_')) doc[field] = value;
      out.set(String(row.id), { doc, deleted: row._deleted });
    }
    return out;
  }

  /**
   * Writes kept content back (a refused or lost write the user retries): over the document when
   * it exists, as a new document otherwise. The server judges it again when it goes out.
   */
  async restore<K extends ReplicatedName>(name: K, content: Record<string, unknown>): Promise<void> {
    const id = content.id;
    if (typeof id !== 'string' || id === '') throw new Error('The kept change has no document id.');
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(content)) if (!k.startsWith('_')) fields[k] = v;
    const restored = await this.modify(name, id, (doc) => ({ ...doc, ...fields }));
    if (restored) return;
    // The content was a whole document of this collection when it was kept; it is checked
    // against the collection's schema before it is one again.
    const doc = await keptAsDocument(name, { ...fields, updatedAt: Date.now() });
    if (!doc) throw new Error('The kept change is not a document of its collection.');
    await this.insert(name, doc);
  }

  /** A write of a replicated document, counted as waiting to go out from before it is made. */
  private async tracked(name: LocalName, id: string, write: () => Promise<unknown>): Promise<void> {
    if (!this.isReplicated(name)) {
      await write();
      return;
    }
    this.outbox.track(name, id);
    let stored = false;
    try {
      await write();
      stored = true;
    } finally {
      this.outbox.written(name, id, stored);
    }
  }
}
