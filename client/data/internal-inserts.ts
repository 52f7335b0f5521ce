import {
  categorizeBulkWriteRows,
  getPrimaryFieldOfPrimaryKey,
  type BulkWriteRow,
  type RxDocumentData,
  type RxStorage,
} from 'rxdb';
import { overrideInstances } from './storage-overrides';

/** RxDB's own store of the database's token and collections (`INTERNAL_STORAGE_NAME` in RxDB). */
const INTERNAL_STORE = '_rxdb_internal';
type InternalDoc = Record<string, unknown>;

/**
 * RxDB opens a database by inserting its storage token and one document per collection into its
 * internal store, expecting a conflict whenever they exist, i.e. on every open but the first:
 * two read-write IndexedDB transactions on each reload, which wait for each other and for the
 * storage's commit. Here, inserts into that store are first looked up (a read-only transaction)
 * and sorted by RxDB's own `categorizeBulkWriteRows`, as its write would sort them: when nothing
 * is left to write, its answer is those conflicts (status 409, the stored document), and nothing
 * is written; otherwise it is RxDB's own write. Updates (with `previous`) go straight to it.
 */
export function internalInsertsReadFirst<I, O>(storage: RxStorage<I, O>): RxStorage<I, O> {
  return overrideInstances(storage, (instance) => {
    if (instance.collectionName !== INTERNAL_STORE) return {};
    // (A composite key, filled in on every document: `id`.)
    const primary = getPrimaryFieldOfPrimaryKey(instance.schema.primaryKey) as string;
    const idOf = (doc: unknown) => (doc as InternalDoc)[primary] as string;
    return {
      async bulkWrite(rows, context) {
        if (rows.some((row) => row.previous)) return instance.bulkWrite(rows, context);
        const stored = await instance.findDocumentsById(
          rows.map((row) => idOf(row.document)),
          true,
        );
        const sorted = categorizeBulkWriteRows<InternalDoc>(
          instance,
          primary,
          new Map(stored.map((d) => [idOf(d), d as RxDocumentData<InternalDoc>])),
          rows as BulkWriteRow<InternalDoc>[],
          context,
        );
        if (sorted.bulkInsertDocs.length > 0 || sorted.bulkUpdateDocs.length > 0) return instance.bulkWrite(rows, context);
        return { error: sorted.errors };
      },
    };
  });
}
