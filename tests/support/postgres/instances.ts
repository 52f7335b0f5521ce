import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ServerOptions } from '../../../sync-server/server';
import { startTestServer, type TestServer } from '../in-process-server';
import { TestClient } from '../http-client';
import { createTestDatabase, type TestDatabase } from './database';

/** The address users reach the instances on (their shared PUBLIC_ORIGIN); nothing listens on it. */
export const SHARED_ORIGIN = 'http://gigs.test';

/** Several server instances on one PostgreSQL database, as behind one load balancer. */
export type Instances = {
  servers: TestServer[];
  urls: string[];
  db: TestDatabase;
  /** A browser whose every request lands on one of the instances, chosen at random. */
  client(): TestClient;
  /** A client pinned to instance `i` (a stream, a socket, a reconnect landing there). */
  on(i: number, token?: string): TestClient;
  close(): Promise<void>;
};

/** Starts `n` in-process instances on a new database (or `adminUrl`'s cluster's), each with its own folder for nothing. */
export async function startInstances(
  n: number,
  env: Record<string, string> = {},
  db?: TestDatabase,
  /** The instances' clock (a test that moves time), shared by all of them. */
  options: ServerOptions = {},
): Promise<Instances> {
  const database = db ?? (await createTestDatabase());
  const servers: TestServer[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-instance-'));
      servers.push(
        await startTestServer(
          { DATABASE_URL: database.url, PUBLIC_ORIGIN: SHARED_ORIGIN, LOG_LEVEL: 'silent', ...env },
          dir,
          options,
        ),
      );
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.cleanup()));
    throw err;
  }
  const urls = servers.map((s) => s.url);
  return {
    servers,
    urls,
    db: database,
    client: () => TestClient.spread(urls, SHARED_ORIGIN),
    on(i, token) {
      const client = new TestClient(urls[i]!, SHARED_ORIGIN);
      if (token) client.setCookie('sid', token);
      return client;
    },
    async close() {
      await Promise.all(
        servers.map(async (s) => {
          await s.close();
          await fs.rm(s.dataDir, { recursive: true, force: true });
        }),
      );
      if (!db) await database.drop();
    },
  };
}
