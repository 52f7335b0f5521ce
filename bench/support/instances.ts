import fs from 'node:fs/promises';
import { LOAD_ENV, startChildServer, type ChildServer } from '../../tests/support/spawn-server';
import type { JournalStoreStats } from '../../sync-server/store/journal-store';
import { tempDataDir } from './datasets';

/** A server instance on PostgreSQL in its own process, and how long it took to start (its replica loads first). */
export type Instance = ChildServer & { startSeconds: number };

/**
 * Starts a server on the database `databaseUrl` in a child process, as `DATABASE_URL=… npm start`
 * does (quiet, rate limits off, as the embedded benchmarks run theirs). Its DATA_DIR is an empty
 * temporary folder, removed when it stops.
 */
export async function startInstance(
  databaseUrl: string,
  options: { profileDir?: string; env?: Record<string, string> } = {},
): Promise<Instance> {
  const dir = await tempDataDir('instance');
  const started = performance.now();
  const server = await startChildServer({
    dataDir: dir,
    env: { ...LOAD_ENV, DATABASE_URL: databaseUrl, ...options.env },
    profileDir: options.profileDir,
  }).catch(async (err: unknown) => {
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  });
  const startSeconds = (performance.now() - started) / 1000;
  return {
    ...server,
    startSeconds,
    async stop() {
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
    async kill() {
      await server.kill();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** `n` instances on one database, started one after the other. */
export async function startInstances(
  databaseUrl: string,
  n: number,
  options: { profileDir?: string } = {},
): Promise<Instance[]> {
  const started: Instance[] = [];
  try {
    for (let i = 0; i < n; i++) started.push(await startInstance(databaseUrl, options));
  } catch (err) {
    await stopAll(started);
    throw err;
  }
  return started;
}

export async function stopAll(instances: readonly ChildServer[]): Promise<void> {
  await Promise.all(instances.map((s) => s.stop()));
}

/** CPU time of each instance so far (µs). */
export function cpuOf(instances: readonly ChildServer[]): Promise<number[]> {
  return Promise.all(instances.map((s) => s.cpuMicros()));
}

/** The embedded store's counters in a child server (its `stats` answer): journal lines and syncs, snapshots. */
export async function storeStats(server: ChildServer): Promise<JournalStoreStats> {
  return (await server.ask<{ store: JournalStoreStats }>('stats')).store;
}
