import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readConfig, type Config } from '../../sync-server/config';
import { startServer, type RunningServer, type ServerOptions } from '../../sync-server/server';
import { releaseStore, storeEnvFor } from './store-under-test';

export type TestServer = RunningServer & { dataDir: string; config: Config; cleanup(): Promise<void> };

/**
 * Starts a real server on a free port of 127.0.0.1 with its own data folder in a temp directory.
 * Scrypt is cheaper here than in production (SCRYPT_LOG_N), everything else is as shipped.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir?: string,
  options: ServerOptions = {},
): Promise<TestServer> {
  const dir = dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-test-')));
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DIST_DIR: path.resolve('dist'),
    SCRYPT_LOG_N: '12',
    LOG_LEVEL: 'error',
    // Rate limits are tested on servers of their own (auth.test.ts); elsewhere they would make
    // the count of sign-ups a test may do depend on the other tests in its file.
    RATE_LIMITS: 'off',
    // On PostgreSQL (TEST_STORE=postgres) the folder's data lives in a database of its own.
    ...(await storeEnvFor(dir)),
    ...env,
  });
  const server = await startServer(config, options);
  const url = `http://127.0.0.1:${server.port}`;
  return {
    ...server,
    url,
    dataDir: dir,
    config,
    async cleanup() {
      await server.close();
      if (!dataDir) {
        await fs.rm(dir, { recursive: true, force: true });
        await releaseStore(dir);
      }
    },
  };
}
