import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { createConflictHandler, type PushedStates } from './conflict-handler';
import { gigSortKey, REPLICATED_COLLECTIONS, syncProblemRxSchema, type DocTypes, type SyncProblem } from './collections';

addRxPlugin(RxDBLeaderElectionPlugin);

export type AppCollections = { [K in keyof DocTypes]: RxCollection<DocTypes[K]> } & {
  syncproblems: RxCollection<SyncProblem>;
};
export type AppDatabase = RxDatabase<AppCollections>;

/**
 * The database name is per user: two accounts on one device never share data. The `v2` marks the
 * gig schema with its local sort key; nothing was released before it, so no migration is kept.
 */
export function databaseName(userId: string): string {
  return `gigs-v2-${userId.toLowerCase()}`;
}

/**
 * One RxDB database per signed-in user. The storage is a parameter so the app uses Dexie
 * (IndexedDB) and Node tests use memory storage.
 */
export async function createAppDatabase(
  userId: string,
  storage: RxStorage<unknown, unknown>,
  options: { multiInstance?: boolean; refused?: Set<string>; pushed?: PushedStates } = {},
): Promise<AppDatabase> {
  const refused = options.refused ?? new Set<string>();
  const pushed: PushedStates = options.pushed ?? new Map();
  const multiInstance = options.multiInstance ?? true;
  const db = await createRxDatabase<AppCollections>({
    name: databaseName(userId),
    storage,
    multiInstance,
    eventReduce: true,
    closeDuplicates: true,
  });
  await db.addCollections({
    users: { schema: REPLICATED_COLLECTIONS.users as never, conflictHandler: createConflictHandler('users', refused, pushed) },
    gigs: { schema: REPLICATED_COLLECTIONS.gigs as never, conflictHandler: createConflictHandler('gigs', refused, pushed) },
    applications: { schema: REPLICATED_COLLECTIONS.applications as never, conflictHandler: createConflictHandler('applications', refused, pushed) },
    notifications: { schema: REPLICATED_COLLECTIONS.notifications as never, conflictHandler: createConflictHandler('notifications', refused, pushed) },
    conversations: { schema: REPLICATED_COLLECTIONS.conversations as never, conflictHandler: createConflictHandler('conversations', refused, pushed) },
    syncproblems: { schema: syncProblemRxSchema as never },
  });
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
