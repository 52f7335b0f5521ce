import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by tests/support/postgres/global-setup.ts for the integration project. */
    postgresAdminUrl: string;
  }
}

/** A database of its own for one test (or file): its URL, and `drop` to remove it. */
export type TestDatabase = { url: string; drop(): Promise<void> };

/** How long `drop` waits for connections that are closing to be gone before it ends them. */
const CLOSING_WAIT_MS = 2_000;

export async function createTestDatabase(adminUrl = inject('postgresAdminUrl')): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // A pool's end() resolves once each connection is asked to close, not once it has; a
        // connection the forced drop ends meanwhile reaches its pool as an error, which a pool
        // without an error listener throws (an uncaught exception that fails the whole run).
        // So the drop first waits, briefly, for closing connections to be gone.
        for (const until = Date.now() + CLOSING_WAIT_MS; Date.now() < until;) {
          const { rows } = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
