import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEXES } from '../../sync-server/indexes';
import { openJournalStore } from '../../sync-server/store/journal-store';
import { PgDocuments } from '../../sync-server/store/postgres/pg-documents';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';

// `npm run db:import -- --from <folder>` as an operator runs it: a real embedded data folder, a
// real PostgreSQL database, the script as a child process.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

async function dbImport(from: string, databaseUrl: string) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/db-import.ts', '--from', from], {
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

let dir: string;
let db: TestDatabase;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gig-import-'));
  db = await createTestDatabase();
  const store = await openJournalStore({
    dataDir: dir,
    indexes: INDEXES,
    snapshotIntervalMs: 3_600_000,
    snapshotEveryCommits: 3,
  });
  const at = '2026-11-24T10:00:00.000Z';
  await store.commit([
    {
      collection: 'users',
      doc: { id: 'u-ada', _deleted: false, fullName: 'Ada', email: 'ada@example.com', updatedAt: at },
    },
    {
      collection: 'gigs',
      doc: {
        id: 'g-1',
        _deleted: false,
        title: 'Album cover \u0000 ✨',
        createdBy: 'u-ada',
        budget: 12_000,
        updatedAt: at,
      },
    },
  ]);
  for (let i = 0; i < 5; i++) {
    await store.commit([
      {
        collection: 'gigs',
        doc: { id: `g-more-${i}`, _deleted: i === 2, title: `Gig ${i}`, createdBy: 'u-ada', updatedAt: at },
      },
    ]);
  }
  await store.appendChatUpdate('u-ada:u-bo', Uint8Array.of(1, 2, 3));
  await store.appendChatUpdate('u-ada:u-bo', Uint8Array.of(4));
  await store.close();
});

afterAll(async () => {
  await db.drop();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('db:import', () => {
  it('copies every document, tombstones and chat logs included, and reports each collection verified', async () => {
    const { code, stdout, stderr } = await dbImport(dir, db.url);
    expect(stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^gigs\s+6\s+sha256 [0-9a-f]{16}…\s+verified$/m);
    expect(stdout).toMatch(/^users\s+1\s+sha256/m);
    expect(stdout).toMatch(/^chat logs\s+1\s+rooms, 2 updates/m);

    const pool = new pg.Pool({ connectionString: db.url });
    const docs = new PgDocuments({ pool, connectionString: db.url, indexes: INDEXES });
    try {
      expect(await docs.get('gigs', 'g-1')).toMatchObject({
        title: 'Album cover \u0000 ✨',
        budget: 12_000,
        _deleted: false,
      });
      expect(await docs.get('gigs', 'g-more-2')).toMatchObject({ _deleted: true });
      expect((await docs.byIndex('gigs', 'createdBy', 'u-ada')).length).toBe(6);
      expect((await docs.chatLog('u-ada:u-bo')).updates.map((u) => [...u])).toEqual([[1, 2, 3], [4]]);
    } finally {
      await pool.end();
    }
  });

  it('refuses a database that already holds data, and leaves it as it was', async () => {
    const { code, stderr } = await dbImport(dir, db.url);
    expect(code).toBe(1);
    expect(stderr).toContain('The database already holds data: import only into an empty database.');
    const pool = new pg.Pool({ connectionString: db.url });
    try {
      const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM documents');
      expect(Number(rows[0]?.n)).toBe(7);
    } finally {
      await pool.end();
    }
  });

  it('refuses a data folder a running server holds, and a folder that does not exist', async () => {
    const fresh = await createTestDatabase();
    const store = await openJournalStore({
      dataDir: dir,
      indexes: INDEXES,
      snapshotIntervalMs: 3_600_000,
      snapshotEveryCommits: 1e9,
    });
    try {
      const held = await dbImport(dir, fresh.url);
      expect(held.code).toBe(1);
      expect(held.stderr).toContain('is in use');
      expect(held.stderr).toContain('Stop its server first.');
      const missing = await dbImport(path.join(dir, 'nowhere'), fresh.url);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('There is no data folder at');
    } finally {
      await store.close();
      await fresh.drop();
    }
  });
});
