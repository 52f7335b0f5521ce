import { INDEXES } from '../../sync-server/indexes';
import { openJournalStore } from '../../sync-server/store/journal-store';
import { PgStore } from '../../sync-server/store/postgres/pg-store';
import type { Store } from '../../sync-server/store/store';
import type { TestDatabase } from './postgres/database';

/**
 * Which store the servers of a test run use. The integration suite runs twice: on the embedded
 * store (project `integration`) and on PostgreSQL (project `integration-pg`, TEST_STORE=postgres),
 * the same test files, so every rule is checked against both stores.
 */
export const ON_POSTGRES = process.env.TEST_STORE === 'postgres';

/** The database behind each data folder a test reuses across restarts (the "same data" on PostgreSQL). */
const databases = new Map<string, TestDatabase>();

/**
 * What a server needs in its environment to hold the data of `dataDir`: nothing on the embedded
 * store (DATA_DIR is the data), a database of its own on PostgreSQL, the same one each time the
 * same folder is named. `release` drops it when the folder's data is no longer wanted.
 */
export async function storeEnvFor(dataDir: string): Promise<Record<string, string>> {
  if (!ON_POSTGRES) return {};
  let db = databases.get(dataDir);
  if (!db) {
    // Loaded only here: it needs the test runner's PostgreSQL cluster (benchmarks never get here).
    const { createTestDatabase } = await import('./postgres/database');
    db = await createTestDatabase();
    databases.set(dataDir, db);
  }
  return { DATABASE_URL: db.url };
}

/** Drops the database behind `dataDir`, if there is one. */
export async function releaseStore(dataDir: string): Promise<void> {
  const db = databases.get(dataDir);
  if (!db) return;
  databases.delete(dataDir);
  await db.drop();
}

/**
 * A room's chat log as a server's store holds it: held open for the read, since the PostgreSQL
 * store reads a log it does not hold yet from the database (the embedded store holds every log).
 */
export async function chatLogOf(store: Store, room: string): Promise<Uint8Array[]> {
  await store.openChat(room);
  try {
    return store.chatUpdates(room);
  } finally {
    store.closeChat(room);
  }
}

/**
 * Opens the store holding the data of `dataDir` directly, to seed data a server then finds
 * there: the journal store in the folder (no server may hold it meanwhile), or the folder's
 * database on PostgreSQL.
 */
export async function openStoreFor(dataDir: string): Promise<Store> {
  if (!ON_POSTGRES)
    return openJournalStore({ dataDir, indexes: INDEXES, snapshotIntervalMs: 3_600_000, snapshotEveryCommits: 1e9 });
  const { DATABASE_URL } = await storeEnvFor(dataDir);
  return PgStore.open({ connectionString: DATABASE_URL!, indexes: INDEXES });
}
