import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { INDEXES } from '../../../sync-server/indexes';
import { openJournalStore } from '../../../sync-server/store/journal-store';
import { PgStore } from '../../../sync-server/store/postgres/pg-store';
import type { Store } from '../../../sync-server/store/store';
import { TestClient } from '../http-client';
import { SHARED_ORIGIN } from '../postgres/instances';
import { releaseStore, storeEnvFor } from '../store-under-test';
import { waitFor } from '../wait';
import { freePort, startServerProcess, type ServerProcess } from './killable-server';

/**
 * What the crash-safety suite kills: one server process on a data folder (the embedded store),
 * or three instances on one PostgreSQL database behind one address, of which one at random dies
 * each round while the others carry on.
 */
export type Deployment = {
  /** A user's browser: every request to one of the live instances' addresses. */
  client(): TestClient;
  /** A client pinned to one instance (a chat tab), with the session `token`. */
  pinned(token: string | undefined): TestClient;
  /** SIGKILLs one instance (the only one, or one at random). */
  kill(): Promise<void>;
  /** Starts the killed instance again on its port. */
  restart(): Promise<void>;
  /**
   * Opens what the killed instance left, as a new server would find it (a copy of the folder, or
   * the database), runs `check` on it with `rooms`' chat logs readable, and closes it.
   */
  inspect<T>(rooms: string[], check: (store: Store) => T): Promise<T>;
  /** Kills everything that runs and removes the data. */
  destroy(): Promise<void>;
};

export async function startDeployment(instances: number, serverEnv: Record<string, string>): Promise<Deployment> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'crash-safety-'));
  const shared = instances > 1;
  const databaseEnv = await storeEnvFor(dir);
  const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
  const envOf = (port: number) => ({
    ...serverEnv,
    DATA_DIR: dir,
    PORT: String(port),
    ...databaseEnv,
    ...(shared ? { PUBLIC_ORIGIN: SHARED_ORIGIN } : {}),
  });
  const servers: (ServerProcess | undefined)[] = await Promise.all(ports.map((p) => startServerProcess(envOf(p))));
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);
  let killed = 0;
  return {
    client: () => (shared ? TestClient.spread(urls, SHARED_ORIGIN) : new TestClient(urls[0]!)),
    pinned(token) {
      const i = Math.floor(Math.random() * urls.length);
      const client = shared ? new TestClient(urls[i]!, SHARED_ORIGIN) : new TestClient(urls[0]!);
      if (token) client.setCookie('sid', token);
      return client;
    },
    async kill() {
      killed = Math.floor(Math.random() * servers.length);
      await servers[killed]?.kill();
      servers[killed] = undefined;
    },
    async restart() {
      servers[killed] = await startServerProcess(envOf(ports[killed]!));
    },
    async inspect(rooms, check) {
      if (databaseEnv.DATABASE_URL) {
        await transactionsEnded(databaseEnv.DATABASE_URL);
        const store = await PgStore.open({ connectionString: databaseEnv.DATABASE_URL, indexes: INDEXES });
        try {
          for (const room of rooms) await store.openChat(room);
          return check(store);
        } finally {
          await store.close();
        }
      }
      const copy = await fs.mkdtemp(path.join(os.tmpdir(), 'crash-safety-copy-'));
      try {
        await fs.cp(dir, copy, { recursive: true });
        await fs.rm(path.join(copy, 'LOCK'), { force: true });
        const store = await openJournalStore({
          dataDir: copy,
          indexes: INDEXES,
          snapshotIntervalMs: 3_600_000,
          snapshotEveryCommits: 1e9,
        });
        try {
          return check(store);
        } finally {
          await store.close();
        }
      } finally {
        await fs.rm(copy, { recursive: true, force: true });
      }
    },
    async destroy() {
      await Promise.all(servers.map((s) => s?.kill()));
      await fs.rm(dir, { recursive: true, force: true });
      await releaseStore(dir);
    },
  };
}

/**
 * Waits until every transaction that had begun when it was called has ended. A new store loads
 * what lies below the oldest transaction still running (decision 021), and the killed instance's
 * last transaction lives on in the database until its backend notices the dead connection: until
 * then, writes committed after it began are not loaded yet (they follow by the feed). The check
 * must see what a new instance sees once the feed has caught up, so it waits for that moment.
 */
async function transactionsEnded(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
    const begun = BigInt(rows[0]!.xid);
    await waitFor(
      'the transactions running at the kill have ended',
      async () => {
        const now = await client.query<{ xmin: string }>(
          'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
        );
        return BigInt(now.rows[0]!.xmin) > begun;
      },
      10_000,
    );
  } finally {
    await client.end();
  }
}
