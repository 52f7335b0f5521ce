import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { createAppDatabase, type AppDatabase } from '../../client/data/database';
import { Outbox } from '../../client/data/outbox';
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
  unauthorized: Promise<void>;
  close(): Promise<void>;
};

export async function startNodeClient(http: TestClient, userId: string): Promise<NodeAppClient> {
  const refused = new Set<string>();
  const db = await createAppDatabase(`${userId}-${Math.random().toString(36).slice(2, 8)}`, getRxStorageMemory(), { multiInstance: false, refused });
  const outbox = new Outbox();
  let onUnauthorized!: () => void;
  const unauthorized = new Promise<void>((resolve) => (onUnauthorized = resolve));
  const sync = new SyncController(db, {
    baseUrl: http.baseUrl,
    headers: () => ({ cookie: http.cookieHeader(), origin: http.baseUrl }),
    outbox,
    refused,
    onUnauthorized,
    waitForLeadership: false,
  });
  return {
    db,
    sync,
    outbox,
    unauthorized,
    async close() {
      await sync.destroy();
      await db.close();
    },
  };
}
