import { getPrimaryFieldOfPrimaryKey, type BulkWriteRow, type RxStorage, type RxStorageWriteError } from 'rxdb';
import { PULL_WRITE } from './pull-marks';
import { overrideInstances } from './storage-overrides';

type Versioned = { updatedAt?: unknown };

/** Whether the pull's row would replace the stored document by an older version of it. */
function older(row: BulkWriteRow<unknown>): boolean {
  const next = (row.document as Versioned).updatedAt;
  const stored = (row.previous as Versioned | undefined)?.updatedAt;
  return typeof next === 'number' && typeof stored === 'number' && next < stored;
}

/**
 * A device never goes back to an older version of a document it holds. The server stamps every
 * version it stores with a later `updatedAt` than the one before (`stamp`, and the push compares
 * versions by it), so a pulled or streamed version older than the stored one is out of date.
 *
 * On several instances (decision 023) a device hears of a document through two doors: the answer
 * to its push, from the instance that took it, and the pull and change stream, from instances
 * whose replicas may be a few milliseconds behind. RxDB's pull takes whatever the server sends
 * over a document the device has not changed, so a lagging instance's older version undid an
 * acknowledged edit on the screen, and the next edit of another field sent the old value back to
 * the server for good (convergence seed 558114; tests/integration/postgres-stale-reads.test.ts).
 *
 * The pull's write of such a version is answered as a conflict (409), which RxDB's pull leaves
 * alone, writing no record of it either: the device keeps the newer version and RxDB's record of
 * the server's version stays the one its push was answered with. Writes of any other context (the
 * user's, a push's answer) are stored as they come.
 */
export function olderPullsRefused<I, O>(storage: RxStorage<I, O>): RxStorage<I, O> {
  return overrideInstances(storage, (instance) => {
    const primary = getPrimaryFieldOfPrimaryKey(instance.schema.primaryKey) as string;
    return {
      async bulkWrite(rows, context) {
        if (!context.startsWith(PULL_WRITE) || !rows.some(older)) return instance.bulkWrite(rows, context);
        const kept = rows.filter((row) => !older(row));
        const stale: RxStorageWriteError<unknown>[] = rows.filter(older).map((row) => ({
          status: 409,
          isError: true,
          documentId: String((row.document as Record<string, unknown>)[primary]),
          writeRow: row,
          documentInDb: row.previous!,
          context,
        }));
        const written = kept.length > 0 ? await instance.bulkWrite(kept, context) : { error: [] };
        return { error: [...written.error, ...stale] };
      },
    };
  });
}
