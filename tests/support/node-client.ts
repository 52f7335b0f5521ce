import type { RxStorage } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { createAppDatabase, type AppDatabase } from '../../client/data/database';
import type { ReplicatedName } from '../../client/data/collections';
import type { DataContextValue } from '../../client/data/data-provider';
import { LocalData } from '../../client/data/local-data';
import { Outbox } from '../../client/data/outbox';
import { KeptPushedStates } from '../../client/data/pushed-states';
import { SyncController } from '../../client/data/replication';
import type { TestClient } from './http-client';

/**
 * The app's real data layer (RxDB + replication) running in Node against a real server, with
 * memory storage standing in for IndexedDB.
 */
export type NodeAppClient = {
  db: AppDatabase;
  sync: SyncController;
  outbox: Outbox;
  /** The data as the screens' write functions take it (profile, gig and application writes). */
  app: DataContextValue;
  unauthorized: Promise<void>;
  close(): Promise<void>;
};

/**
 * What a test may swap: the storage under RxDB, the fetch the replication uses, the pull batch size,
 * the collections pulled first (the opened screen's), the requests' time bound.
 */
export type NodeClientOptions = {
  storage?: RxStorage<unknown, unknown>;
  fetch?: typeof fetch;
  batchSize?: number;
  firstCollections?: readonly ReplicatedName[];
  /** A pull's or push's time bound (the app's default otherwise). */
  requestTimeoutMs?: number;
  /** What the database's name is made from, to open a device's data again (a fresh one otherwise). */
  databaseKey?: string;
  /**
   * What the app keeps in localStorage beside the database (the outbox and the pushed states of
   * its changes), to open a device's data again with it: the same object across the openings.
   */
  kept?: DeviceKept;
};

/** The data layer's localStorage entries of one device, across openings of its data. */
export type DeviceKept = { outbox: string[]; pushed: unknown };

/** The pushed states the app keeps in localStorage, kept in `box` instead (a copy in, a copy out). */
export function pushedStatesIn(box: { pushed: unknown } | undefined): KeptPushedStates {
  return new KeptPushedStates({
    load: () => structuredClone(box?.pushed),
    save: (states) => {
      if (box) box.pushed = structuredClone(states);
    },
  });
}

export async function startNodeClient(
  http: TestClient,
  userId: string,
  options: NodeClientOptions = {},
): Promise<NodeAppClient> {
  const refused = new Set<string>();
  const storage = options.storage ?? (getRxStorageMemory() as RxStorage<unknown, unknown>);
  const kept = options.kept;
  const outbox = new Outbox(kept && { load: () => [...kept.outbox], save: (keys) => (kept.outbox = [...keys]) });
  const pushed = pushedStatesIn(kept);
  const db = await createAppDatabase(
    options.databaseKey ?? `${userId}-${Math.random().toString(36).slice(2, 8)}`,
    storage,
    {
      multiInstance: false,
      refused,
      ownerId: userId,
      pushed,
      outbox,
    },
  );
  let onUnauthorized!: () => void;
  const unauthorized = new Promise<void>((resolve) => (onUnauthorized = resolve));
  const sync = new SyncController(db, {
    baseUrl: http.baseUrl,
    // Behind one address (several instances) the browser's origin is the shared one.
    headers: () => ({ cookie: http.cookieHeader(), origin: http.originHeader ?? http.baseUrl }),
    outbox,
    refused,
    onUnauthorized,
    waitForLeadership: false,
    fetch: options.fetch,
    batchSize: options.batchSize,
    firstCollections: options.firstCollections,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  const app = { db, local: new LocalData(db, outbox), sync, outbox, userId } as unknown as DataContextValue;
  return {
    db,
    sync,
    outbox,
    app,
    unauthorized,
    async close() {
      await sync.destroy();
      await db.close();
    },
  };
}
