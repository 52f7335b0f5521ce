import type { RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { chunkedWrites } from './chunked-storage';
import { indexedReads, keyRangeGets } from './indexed-reads';

/**
 * The storage of the signed-in user's database in the browser: RxDB's Dexie storage (IndexedDB),
 * whose large writes are stored in chunks the page can draw between (`chunked-storage.ts`) and
 * whose reads ask IndexedDB once per query and once per range of ids rather than once per row
 * or id (`indexed-reads.ts`). Loaded with the data modules, never by the public pages.
 */
export function browserStorage(): RxStorage<unknown, unknown> {
  const dexie = getRxStorageDexie({ onCreate: (db) => void db.use(keyRangeGets) });
  return chunkedWrites(indexedReads(dexie as RxStorage<unknown, unknown>));
}
