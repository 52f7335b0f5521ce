import type { RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { chunkedWrites } from './chunked-storage';
import { indexedReads, keyRangeGets } from './indexed-reads';
import { internalInsertsReadFirst } from './internal-inserts';

/**
 * The storage of the signed-in user's database in the browser: RxDB's Dexie storage (IndexedDB),
 * whose large writes are stored in chunks the page can draw between (`chunked-storage.ts`),
 * whose reads ask IndexedDB once per query and once per range of ids rather than once per row
 * or id (`indexed-reads.ts`), and whose opening writes nothing when RxDB's own documents are
 * there already (`internal-inserts.ts`). Loaded with the data modules, never by the public pages.
 */
export function browserStorage(): RxStorage<unknown, unknown> {
  const dexie = getRxStorageDexie({ onCreate: (db) => void db.use(keyRangeGets) });
  return internalInsertsReadFirst(chunkedWrites(indexedReads(dexie as RxStorage<unknown, unknown>)));
}
