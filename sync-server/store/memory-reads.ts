import { vouchFor, vouchForAll, vouchForList } from './documents';
import type { MemoryState } from './memory';
import type { CollectionName, Stored } from './store';

/**
 * The reads both stores serve from the documents they hold in memory (the embedded store's data,
 * the PostgreSQL store's replica), typed by collection.
 */
export abstract class MemoryReads {
  constructor(protected readonly memory: MemoryState) {}

  get<K extends CollectionName>(collection: K, id: string): Stored<K> | undefined {
    const doc = this.memory.get(collection, id);
    if (!doc) return undefined;
    vouchFor(collection, doc);
    return doc;
  }

  byIndex<K extends CollectionName>(collection: K, index: string, key: string): Stored<K>[] {
    const docs = this.memory.byIndex(collection, index, key);
    vouchForList(collection, docs);
    return docs;
  }

  anyByIndex(collection: CollectionName, index: string, key: string): boolean {
    return this.memory.anyByIndex(collection, index, key);
  }

  all<K extends CollectionName>(collection: K): Iterable<Stored<K>> {
    const docs = this.memory.all(collection);
    vouchForAll(collection, docs);
    return docs;
  }
}
