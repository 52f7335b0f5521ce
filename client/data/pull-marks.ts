import { getHeightOfRevision, type HashFunction, type RxCollection, type RxStorage } from 'rxdb';
import { overrideInstances } from './storage-overrides';

/** The identifier the app gives a collection's replication (`replicateRxCollection`). */
export const replicationIdentifier = (collectionName: string) => `gigs-sync-${collectionName}-v1`;

/** What RxDB's replication plugin calls that replication in its protocol; its hash marks the pull's writes. */
const protocolIdentifier = (collectionName: string) => `rxdbreplication${replicationIdentifier(collectionName)}`;

/** The context of the writes RxDB's pull makes to a collection (`downstreamBulkWriteFlag`). */
export const PULL_WRITE = 'replication-downstream-';

/** The context of the pull's writes of its records (the replication's meta instance). */
const PULL_RECORD_WRITE = 'replication-down-write-meta';

/** The name RxDB gives a collection's replication records (its meta instance). */
const recordsInstanceName = async (hashFunction: HashFunction, collectionName: string) =>
  `rx-replication-meta-${await hashFunction([collectionName, replicationIdentifier(collectionName)].join('-'))}`;

type PullMark = { hash?: unknown; _rev?: unknown };
type Marked = { _rev: string; _meta: { o?: PullMark } & Record<string, unknown> };

/**
 * RxDB's pull stores a document first and its record of the server's version (the replication's
 * meta instance) after it. When the tab closes between the two (a new device's first sync of a
 * long board, reloaded), the next start finds documents with no record. RxDB marks each document
 * its pull writes for that case (`_meta.o`: the replication's hash and the document's revision
 * height then), and its pull reads the mark to take such a document as the server's; but the
 * storage wrapper of RxDB 17.6 gives every inserted document a fresh `_meta`, so a first pull's
 * documents lost their mark. Their next pull then left them as they were, waiting for a push, and
 * the push sent every one of them back to the server, each charged to the user's write quota
 * (decision 008, eleventh sitting). This storage puts the mark back on the pull's writes that
 * arrive without it, as RxDB computed it: the same hash, the height of the revision stored.
 */
export function keepPullMarks<I, O>(storage: RxStorage<I, O>, hashFunction: HashFunction): RxStorage<I, O> {
  return overrideInstances(storage, (instance) => {
    let mark: Promise<string> | undefined;
    return {
      async bulkWrite(rows, context) {
        if (!context.startsWith(PULL_WRITE)) return instance.bulkWrite(rows, context);
        const hash = await (mark ??= Promise.resolve(hashFunction(protocolIdentifier(instance.collectionName))));
        const marked = rows.map((row) => {
          const doc = row.document as Marked;
          if (doc._meta.o) return row;
          return { ...row, document: { ...doc, _meta: { ...doc._meta, o: { _rev: getHeightOfRevision(doc._rev), hash } } } };
        });
        return instance.bulkWrite(marked as typeof rows, context);
      },
    };
  });
}

/**
 * Which of the given documents, about to be pushed, hold the version a pull stored, unchanged on
 * this device since: their mark is this replication's and a local write (which raises the
 * revision's height) has not come after it. There is nothing of this device's to send for them.
 */
export async function pulledUnchanged(collection: RxCollection, ids: readonly string[]): Promise<Set<string>> {
  const unchanged = new Set<string>();
  if (ids.length === 0) return unchanged;
  const hash = await collection.database.hashFunction(protocolIdentifier(collection.name));
  for (const doc of await collection.storageInstance.findDocumentsById([...ids], true)) {
    const mark = (doc as unknown as Marked)._meta.o;
    if (mark?.hash === hash && mark._rev === getHeightOfRevision(doc._rev)) unchanged.add(String(doc.id));
  }
  return unchanged;
}

type RecordRow = { isCheckpoint?: string; docData?: { createdBy?: unknown } };

/**
 * The pull's records of other people's gigs are not kept. RxDB's pull keeps, for every document,
 * a record holding a copy of the server's version (the meta instance), which its push reads to
 * tell the server which version a local change was made on. A device's user can change only the
 * gigs they created; for the others the records were never read, yet they doubled what a new
 * device's first sync stored: 10k gigs and 10k copies of them, the copies written after the board
 * was already drawn (RxDB keeps no records at all for a replication that does not push). The
 * marks above let RxDB's pull take a stored gig without a record as the server's version, and
 * update it when the server changes it; a gig the user creates or pulls as theirs keeps its record.
 * Records of checkpoints, of the user's own gigs and every other collection are written as before.
 */
export function recordsOnlyForOwnGigs<I, O>(
  storage: RxStorage<I, O>,
  ownerId: string,
  hashFunction: HashFunction,
): RxStorage<I, O> {
  let gigRecords: Promise<string> | undefined;
  return overrideInstances(storage, (instance) => ({
    async bulkWrite(rows, context) {
      if (context !== PULL_RECORD_WRITE) return instance.bulkWrite(rows, context);
      if (instance.collectionName !== (await (gigRecords ??= recordsInstanceName(hashFunction, 'gigs'))))
        return instance.bulkWrite(rows, context);
      const kept = rows.filter((row) => {
        const record = row.document as RecordRow;
        return record.isCheckpoint !== '0' || record.docData?.createdBy === ownerId;
      });
      return kept.length > 0 ? instance.bulkWrite(kept, context) : { error: [] };
    },
  }));
}
