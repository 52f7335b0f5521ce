import type { MangoQuery, RxCollection, RxDocument } from 'rxdb';
import { map, type Observable } from 'rxjs';
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
    this.track(name, doc.id);
    await collection.insert(doc);
    this.written(name, doc.id);
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
    this.track(name, id);
    const stamped = this.isReplicated(name);
    await doc.incrementalModify((current) => {
      const changed = next(current);
      return stamped ? { ...changed, updatedAt: Date.now() } : changed;
    });
    this.written(name, id);
    return true;
  }

  /** Deletes a document (replicated collections send the deletion); false when there is none. */
  async remove<K extends LocalName>(name: K, id: string): Promise<boolean> {
    const collection: RxCollection<Doc<K>> = this.collections[name];
    const doc = await collection.findOne(id).exec();
    if (!doc) return false;
    this.track(name, id);
    await doc.remove();
    this.written(name, id);
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

  private track(name: LocalName, id: string): void {
    if (this.isReplicated(name)) this.outbox.track(name, id);
  }

  private written(name: LocalName, id: string): void {
    if (this.isReplicated(name)) this.outbox.written(name, id);
  }
}
