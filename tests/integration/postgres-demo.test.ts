import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../bench/demo';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';

// `npm run demo` as an operator runs it with DATABASE_URL set: the script as a child process, a
// real PostgreSQL database, then a server on that database and a demo account signing in.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
/** The smallest demo (one gig in every niche and country): the accounts are the same at any size. */
const GIGS = '--gigs=40';

async function demo(databaseUrl: string, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'bench/demo.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(sql);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

const documents = (url: string) => count(url, 'SELECT count(*)::text AS n FROM documents');

let db: TestDatabase;
/** Documents the first demo wrote (signing in adds a session). */
let seeded = 0;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

describe('npm run demo with DATABASE_URL', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.cleanup();
  });

  it('fills an empty database, and a demo account signs in through a server on it', async () => {
    const result = await demo(db.url, GIGS);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/verified by counts and checksums/);
    for (const account of DEMO_ACCOUNTS) expect(result.stdout).toContain(account.email);
    seeded = await documents(db.url);
    expect(seeded).toBeGreaterThan(40);
    expect(await count(db.url, 'SELECT count(*)::text AS n FROM chat_updates')).toBeGreaterThan(0);

    server = await startTestServer({ DATABASE_URL: db.url });
    const client = new TestClient(server.url);
    const [amara] = DEMO_ACCOUNTS;
    const login = await client.post<{ user: { email: string; fullName: string } }>('/api/auth/login', {
      email: amara!.email,
      password: DEMO_PASSWORD,
    });
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(amara!.email);
    // The session it opened is one the server finds again.
    const me = await client.get<{ user: { email: string } }>('/api/auth/session');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(amara!.email);
    const wrong = await new TestClient(server.url).post('/api/auth/login', {
      email: amara!.email,
      password: 'Wrong12345',
    });
    expect(wrong.status).toBe(401);
    await server.cleanup();
    server = undefined;
  }, 120_000);

  it('refuses a database that holds data, and leaves it as it was', async () => {
    const before = await documents(db.url);
    const result = await demo(db.url, GIGS);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/already holds data/);
    expect(result.stderr).toMatch(/--force/);
    expect(await documents(db.url)).toBe(before);
  }, 60_000);

  it('with --force says it empties the app tables, then fills them again', async () => {
    expect(await documents(db.url)).toBeGreaterThan(seeded);
    const result = await demo(db.url, GIGS, '--force');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--force: emptying the app's tables in .*documents, document_keys, chat_updates/);
    // The same seeded marketplace as before (the session is gone), not a second one beside it.
    expect(await documents(db.url)).toBe(seeded);
  }, 120_000);
});
