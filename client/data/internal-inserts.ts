import {
  getPrimaryFieldOfPrimaryKey,
  type BulkWriteRow,
  type RxStorage,
  type RxStorageBulkWriteResponse,
  type RxStorageWriteErrorConflict,
} from 'rxdb';
import { overrideInstances } from './storage-overrides';

/** RxDB's own store of the database's token and collections (`INTERNAL_STORAGE_NAME` in RxDB). */
const INTERNAL_STORE = '_rxdb_internal';

/**
 * RxDB opens a database by inserting its storage token and one document per collection into its
 * internal store, expecting a conflict whenever they exist, i.e. on every open but the first:
 * two read-write IndexedDB transactions on each reload, which wait for each other and for the
 * storage's commit. Here, inserts into that store are first looked up (a read-only transaction):
 * when every document exists, the answer is the conflicts RxDB's own write would have given
 * (status 409, the stored document) and nothing is written; otherwise it is RxDB's own write.
 */
export function internalInsertsReadFirst<I, O>(storage: RxStorage<I, O>): RxStorage<I, O> {
  return overrideInstances(storage, (instance) => {
    if (instance.collectionName !== INTERNAL_STORE) return {};
    // (A composite key, filled in on every document: `id`.)
    const primary = getPrimaryFieldOfPrimaryKey(instance.schema.primaryKey) as string;
    return {
      async bulkWrite(rows: BulkWriteRow<unknown>[], context: string): Promise<RxStorageBulkWriteResponse<unknown>> {
        if (rows.length === 0 || rows.some((row) => row.previous)) return instance.bulkWrite(rows, context);
        const idOf = (doc: unknown) => (doc as Record<string, unknown>)[primary] as string;
        const stored = new Map((await instance.findDocumentsById(rows.map((row) => idOf(row.document)), true)).map((d) => [idOf(d), d]));
        if (!rows.every((row) => stored.has(idOf(row.document)))) return instance.bulkWrite(rows, context);
        const error = rows.map(
          (row): RxStorageWriteErrorConflict<unknown> => ({
            isError: true,
            status: 409,
            documentId: idOf(row.document),
            writeRow: row,
            documentInDb: stored.get(idOf(row.document))!,
            context,
          }),
        );
        return { error };
      },
    };
  });
}
