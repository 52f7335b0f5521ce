import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { COUNTRIES, NICHES } from '../shared/constants';
import { INDEXES } from '../sync-server/indexes';
import type { JournalStore } from '../sync-server/store/journal-store';
import { ImportRefused, importDataDir } from '../sync-server/store/postgres/import';
import { MIGRATIONS, migrate } from '../sync-server/store/postgres/migrations';
import { createPool } from '../sync-server/store/postgres/pool';
import { generateDataDir, openDataDirStore, parseSize, type DemoAccount } from './data/generate';

/**
 * `npm run demo [-- --force] [-- --gigs=300]`: fills a fresh DATA_DIR (default ./data), or the
 * empty PostgreSQL database DATABASE_URL names when it is set, with a demo marketplace (gigs in
 * every niche and country, applications at every stage, offers, payments, chats and
 * notifications) and a few accounts anyone can sign in to. The README lists them; keep the two
 * in step. `--force` first deletes what the folder or the app's tables hold.
 */
export const DEMO_PASSWORD = 'CreativeGigs1';

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    name: 'Amara Okafor',
    email: 'amara@example.com',
    password: DEMO_PASSWORD,
    location: 'NG',
    niche: 'visual_art',
    subcategory: 'Illustration',
  },
  {
    name: 'Jordan Lee',
    email: 'jordan@example.com',
    password: DEMO_PASSWORD,
    location: 'US',
    niche: 'music_and_sound',
    subcategory: 'Production',
  },
  {
    name: 'Priya Shah',
    email: 'priya@example.com',
    password: DEMO_PASSWORD,
    location: 'GB',
    niche: 'writing',
    subcategory: 'Copywriting',
  },
  {
    name: 'Sam Tremblay',
    email: 'sam@example.com',
    password: DEMO_PASSWORD,
    location: 'CA',
    niche: 'media',
    subcategory: 'Photography',
  },
  {
    name: 'Léa Martin',
    email: 'lea@example.com',
    password: DEMO_PASSWORD,
    location: 'FR',
    niche: 'fashion',
    subcategory: 'Styling',
  },
];

export const DEFAULT_GIGS = 300;

/** What each demo account finds when it signs in, as rows of a table (a header first). */
function accountRows(store: JournalStore): string[][] {
  const rows: string[][] = [['Email', 'Password', 'Name', 'Country', 'Niche', 'Gigs posted', 'Applications', 'Chats']];
  const users = [...store.all('users')];
  const gigsAll = [...store.all('gigs')];
  const applications = [...store.all('applications')];
  const conversations = [...store.all('conversations')];
  for (const account of DEMO_ACCOUNTS) {
    const user = users.find((u) => u.email === account.email);
    if (!user) throw new Error(`demo account ${account.email} was not written`);
    rows.push([
      account.email,
      account.password,
      account.name,
      COUNTRIES.find((k) => k.code === account.location)!.name,
      `${NICHES.find((n) => n.id === account.niche)!.name} (${account.subcategory})`,
      String(gigsAll.filter((g) => g.createdBy === user.id).length),
      `${applications.filter((a) => a.applicantId === user.id).length} sent, ${applications.filter((a) => a.creatorId === user.id).length} received`,
      String(conversations.filter((k) => (k.participants as string[]).includes(user.id)).length),
    ]);
  }
  return rows;
}

/** Generates the demo marketplace into `dataDir`; returns the accounts' table. */
async function generateDemo(dataDir: string, gigs: number): Promise<string[][]> {
  console.log(`Generating a demo marketplace of ${gigs} gigs…`);
  const started = performance.now();
  const generated = await generateDataDir(dataDir, { gigs, demoAccounts: DEMO_ACCOUNTS });
  const seconds = (performance.now() - started) / 1000;
  const c = generated.counts;
  console.log(
    `Done in ${seconds.toFixed(1)} s: ${c.users} users, ${c.gigs} gigs, ${c.applications} applications, ${c.notifications} notifications, ${c.conversations} conversations with ${c.chatMessages} messages.`,
  );
  const store = await openDataDirStore(dataDir);
  try {
    return accountRows(store);
  } finally {
    await store.close();
  }
}

function printAccounts(rows: string[][], start: string): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log('\nDemo accounts (all other generated users cannot sign in):\n');
  for (const r of rows) console.log('  ' + r.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  console.log(`\n${start} and sign in at http://localhost:${process.env.PORT ?? 8080}/login.`);
}

/** The embedded store: fills DATA_DIR. */
async function demoInDataDir(force: boolean, gigs: number): Promise<number> {
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const entries = await fs.readdir(dataDir).catch(() => [] as string[]);
  if (entries.length > 0) {
    if (!force) {
      console.error(
        `${dataDir} already holds data (${entries.length} entries). The demo only fills an empty data folder.`,
      );
      console.error(
        'Stop the server, then run `npm run demo -- --force` to delete that data and replace it with the demo, or set DATA_DIR to another folder.',
      );
      return 1;
    }
    console.log(`--force: deleting the data in ${dataDir}`);
    for (const entry of entries) await fs.rm(path.join(dataDir, entry), { recursive: true, force: true });
  }
  console.log(`Filling ${dataDir}.`);
  const rows = await generateDemo(dataDir, gigs);
  printAccounts(
    rows,
    `Start the app with \`npm start\`${process.env.DATA_DIR ? ` and DATA_DIR=${process.env.DATA_DIR}` : ''}`,
  );
  return 0;
}

/** The connection string without its password, to name the database in messages. */
function describeDatabase(url: string): string {
  const u = new URL(url);
  return `${u.pathname.slice(1) || '(default database)'} on ${u.hostname}${u.port ? `:${u.port}` : ''}`;
}

/** The tables the store's migrations create (not the migrations' own record): the app's data. */
export function appTables(): string[] {
  const names = MIGRATIONS.flatMap((m) =>
    [...m.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map((x) => x[1]!),
  );
  return [...new Set(names)].filter((n) => n !== 'schema_migrations');
}

/**
 * PostgreSQL (DATABASE_URL set): generates the same marketplace into a temporary data folder,
 * copies it into the database with the importer (`npm run db:import`'s code: verified by counts
 * and checksums), and removes the folder.
 */
async function demoInDatabase(url: string, force: boolean, gigs: number): Promise<number> {
  const where = describeDatabase(url);
  const pool = createPool(url, 4);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-demo-'));
  try {
    await migrate(pool);
    const { rows: held } = await pool.query<{ documents: string; chat: string }>(
      'SELECT (SELECT count(*) FROM documents)::text AS documents, (SELECT count(*) FROM chat_updates)::text AS chat',
    );
    const documents = Number(held[0]?.documents ?? 0);
    const chat = Number(held[0]?.chat ?? 0);
    if (documents + chat > 0 && !force) {
      console.error(
        `The database ${where} already holds data (${documents} documents, ${chat} chat updates). The demo only fills an empty database.`,
      );
      console.error(
        'Stop every server on that database, then run `npm run demo -- --force` to delete that data and replace it with the demo, or set DATABASE_URL to another database.',
      );
      return 1;
    }
    if (force) {
      const tables = appTables();
      console.log(`--force: emptying the app's tables in ${where}: ${tables.join(', ')}`);
      await pool.query(`TRUNCATE ${tables.join(', ')}`);
    }
    console.log(`Filling the PostgreSQL database ${where}.`);
    const rows = await generateDemo(dir, gigs);
    const started = performance.now();
    const summary = await importDataDir({ from: dir, pool, connectionString: url, indexes: INDEXES });
    const copied = Object.values(summary.collections).reduce((n, c) => n + c.count, 0);
    console.log(
      `Imported into PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s: ${copied} documents and ${summary.chat.rooms} chat logs, verified by counts and checksums.`,
    );
    printAccounts(rows, 'Start the app with `npm start` and the same DATABASE_URL (as many instances as you like)');
    return 0;
  } catch (err) {
    console.error(err instanceof ImportRefused ? err.message : err);
    return 1;
  } finally {
    await pool.end();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--force' && !a.startsWith('--gigs='));
  if (unknown.length > 0) {
    console.error(
      `Unknown argument ${unknown.join(' ')}. Usage: npm run demo [-- --force] [-- --gigs=${DEFAULT_GIGS}]`,
    );
    return 2;
  }
  const force = args.includes('--force');
  const gigs = parseSize(args.find((a) => a.startsWith('--gigs='))?.slice('--gigs='.length) ?? String(DEFAULT_GIGS));
  // Gig i is in niche i mod 8 and country ⌊i / 8⌋ mod 5: one round covers every pair.
  const round = NICHES.length * COUNTRIES.length;
  if (gigs < round) {
    console.error(`--gigs must be at least ${round}, so every niche has gigs in every country.`);
    return 2;
  }
  const url = process.env.DATABASE_URL;
  return url ? demoInDatabase(url, force, gigs) : demoInDataDir(force, gigs);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main();
}
