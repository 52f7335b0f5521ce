import { addRxPlugin, createRxDatabase, defaultHashSha256, type RxCollection, type RxCollectionCreator, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { PULL_LIMIT } from '../../shared/sync/protocol';
import { createConflictHandler, reportingResolutions, sameContent, type LostWrite, type PushedStates } from './conflict-handler';
import { databaseName } from './database-name';
import { yieldToEventLoop } from './event-loop';
import { olderPullsRefused } from './pull-versions';
import { keepPullMarks, recordsOnlyForOwnGigs } from './pull-marks';
import { gigSortKey, MIGRATIONS, REPLICATED_COLLECTIONS, syncProblemRxSchema, type DocTypes, type ReplicatedName, type SyncProblem } from './collections';
import type { Outbox } from './outbox';

addRxPlugin(RxDBLeaderElectionPlugin);
addRxPlugin(RxDBMigrationSchemaPlugin);

export type AppCollections = { [K in keyof DocTypes]: RxCollection<DocTypes[K]> } & {
  syncproblems: RxCollection<SyncProblem>;
};
export type AppDatabase = RxDatabase<AppCollections>;

export { databaseName } from './database-name';
// What the conflict handler is given of the device's pushes, from the same chunk as the database.
export { KeptPushedStates, localStoragePushed } from './pushed-states';

/**
 * Changes each collection remembers for its live queries. RxDB keeps 100: a live query that missed
 * more (a pulled batch of 500 gigs) is run again over IndexedDB, reading every document, instead of
 * having the batch applied to its results; during a new device's first sync of 10k gigs the
 * board's query read 105k documents that way. Above the largest pulled batch (PULL_LIMIT.max).
 */
const CHANGE_EVENTS_KEPT = PULL_LIMIT.max + 100;

/**
 * Of the versions a push sent, the ids of those the device no longer holds: the user changed them
 * after that push was made, and the newer version still has to go out.
 */
export async function changedSince(
  collection: RxCollection,
  sent: readonly object[],
): Promise<Set<string>> {
  const bySentId = new Map((sent as Record<string, unknown>[]).map((doc) => [String(doc.id), doc]));
  const stored = await collection.storageInstance.findDocumentsById([...bySentId.keys()], true);
  const changed = new Set<string>();
  for (const doc of stored as Record<string, unknown>[]) {
    const id = String(doc.id);
    if (!sameContent(doc, bySentId.get(id)!)) changed.add(id);
  }
  return changed;
}

/**
 * One RxDB database per signed-in user. The storage is a parameter so the app uses Dexie
 * (IndexedDB) and Node tests use memory storage.
 */
export async function createAppDatabase(
  userId: string,
  storage: RxStorage<unknown, unknown>,
  options: {
    multiInstance?: boolean;
    refused?: Set<string>;
    pushed?: PushedStates;
    /** The signed-in user, when `userId` names the database otherwise (tests). */
    ownerId?: string;
    /** What waits to be sent: told how each conflict over a pushed change was resolved (Outbox.resolved). */
    outbox?: Pick<Outbox, 'resolved'>;
  } = {},
): Promise<AppDatabase> {
  const refused = options.refused ?? new Set<string>();
  const pushed: PushedStates = options.pushed ?? new Map();
  const multiInstance = options.multiInstance ?? true;
  // The database's hash function names the replication's records and marks (pull-marks.ts).
  const hashFunction = defaultHashSha256;
  const db = await createRxDatabase<AppCollections>({
    name: databaseName(userId),
    // The pull's writes keep RxDB's mark and never take a document back to an older version, and
    // its records of others' gigs are not kept.
    storage: recordsOnlyForOwnGigs(
      olderPullsRefused(keepPullMarks(storage, hashFunction)),
      options.ownerId ?? userId,
      hashFunction,
    ),
    hashFunction,
    multiInstance,
    eventReduce: true,
    closeDuplicates: true,
  });
  // A local write that lost to another write is kept as a sync problem with its content. The id
  // names the lost version, so a conflict resolved twice keeps it once.
  const keepLost = (lost: LostWrite) => {
    const now = Date.now();
    const problem = {
      id: `${lost.collection}:${lost.docId}:lost:${String(lost.content.updatedAt ?? now)}`,
      collectionName: lost.collection,
      docId: lost.docId,
      reason: lost.reason,
      content: JSON.stringify(lost.content),
      createdAt: now,
    };
    db.syncproblems.insert(problem).catch(() => {});
  };
  // The entity schemas are made from the shared zod schemas (rx-schemas.generated.ts, by
  // toRxSchema), not from the document types: they go to RxDB as its untyped schema.
  const replicated = <K extends ReplicatedName>(name: K): RxCollectionCreator => ({
    schema: REPLICATED_COLLECTIONS[name],
    conflictHandler: reportingResolutions(
      createConflictHandler<DocTypes[K]>(name, refused, pushed, keepLost),
      async (id, goesOutAgain, sent) => {
        if (!options.outbox) return;
        // The user changed it again while that push was on its way: the newer version still has
        // to go out, and stays counted until its own push is answered.
        if (!goesOutAgain && (await changedSince(db.collections[name], [sent])).has(id)) return;
        options.outbox.resolved(name, id, goesOutAgain);
      },
    ),
    migrationStrategies: MIGRATIONS[name],
  });
  const collections: Record<ReplicatedName, RxCollectionCreator> & { syncproblems: RxCollectionCreator<SyncProblem> } = {
    users: replicated('users'),
    gigs: replicated('gigs'),
    applications: replicated('applications'),
    notifications: replicated('notifications'),
    conversations: replicated('conversations'),
    reviews: replicated('reviews'),
    syncproblems: { schema: syncProblemRxSchema },
  };
  // Each collection is added in a task of its own, their databases opening side by side: all seven
  // at once were one task of 100 ms and more on a new device (decision 008).
  const added: Promise<unknown>[] = [];
  for (const [name, creator] of Object.entries(collections)) {
    const adding = db.addCollections({ [name]: creator });
    adding.catch(() => {}); // reported by the Promise.all below, not as unhandled meanwhile
    added.push(adding);
    await yieldToEventLoop();
  }
  await Promise.all(added);
  for (const collection of Object.values(db.collections)) collection._changeEventBuffer.limit = CHANGE_EVENTS_KEPT;
  // Gigs written on this device get their local sort key (pulled ones get it in replication).
  db.gigs.preInsert((data) => {
    data.sortKey = gigSortKey(data.createdAt);
  }, false);
  PUSHED.set(db, pushed);
  return db;
}

const PUSHED = new WeakMap<AppDatabase, PushedStates>();

/** The pushed states the database's conflict handlers read; the replication records into it. */
export function pushedStatesOf(db: AppDatabase): PushedStates {
  return PUSHED.get(db) ?? new Map();
}
