import fs from 'node:fs/promises';
import { LOAD_ENV, startChildServer, type ChildServer } from '../tests/support/spawn-server';
import { parseSize } from './data/generate';
import { syncInFreshProcess, syncOnce } from './initial-sync';
import { median, type Report } from './report';
import { flag, runStandalone } from './support/cli';
import { copyOf, dataset } from './support/datasets';
import { startInstance } from './support/instances';
import { benchCluster, databaseOf, noteCluster, removeDatabases } from './support/postgres';

export type PgInitialSyncOptions = { gigs?: number; runs?: number };

const RUNS = 3;
const TARGET_RATIO = 1.5;

/**
 * Issue 14: the initial sync of bench/initial-sync.ts (a fresh client, the app's own data layer
 * in a new Node process, pulling every collection until in sync, 10k gigs on the board) from a
 * server on PostgreSQL and from one on the embedded store, both holding the same generated
 * marketplace, measured side by side in the same run: each server warmed by one untimed sync,
 * then the timed runs alternate between the two. Target: the PostgreSQL median within 1.5× the
 * embedded one.
 */
export async function benchPostgresInitialSync(report: Report, options: PgInitialSyncOptions = {}): Promise<void> {
  const cluster = await benchCluster();
  const gigs = options.gigs ?? 10_000;
  const runs = options.runs ?? RUNS;
  const data = await dataset({ gigs, sessions: 500, chatPairs: 200 });
  const servers: { name: string; server: ChildServer; times: number[] }[] = [];
  const dir = await copyOf(data, `pg-initial-sync-${gigs}`);
  try {
    servers.push({ name: 'embedded', server: await startChildServer({ dataDir: dir, env: LOAD_ENV }), times: [] });
    servers.push({
      name: 'PostgreSQL',
      server: await startInstance(await databaseOf(data, 'initial_sync')),
      times: [],
    });
    const user = data.sessions[0]!;
    for (const s of servers) {
      const warm = await syncOnce(s.server.url, user.token, user.id, data.counts.gigs);
      console.log(`  ${s.name} warm-up (in this process): ${warm.ms.toFixed(0)} ms`);
    }
    let documents = 0;
    for (let run = 0; run < runs; run++) {
      for (const s of servers) {
        const result = await syncInFreshProcess(s.server.url, user.token, user.id, data.counts.gigs);
        s.times.push(result.ms);
        documents = result.documents;
        console.log(`  run ${run + 1}, ${s.name}: ${result.ms.toFixed(0)} ms, ${documents} documents pulled`);
      }
    }
    const [embedded, pg] = servers.map((s) => median(s.times)) as [number, number];
    const label = `initial sync, ${gigs / 1000}k gigs`;
    report.info(`${label}, embedded (side by side)`, `median of ${runs}`, embedded, 'ms');
    report.info(`${label}, PostgreSQL`, `median of ${runs}`, pg, 'ms');
    report.info(`${label}, PostgreSQL`, 'slowest run', Math.max(...servers[1]!.times), 'ms');
    report.atMost(`${label}, PostgreSQL / embedded`, 'ratio of medians', pg / embedded, '×', TARGET_RATIO, '≤ 1.5×');
  } finally {
    await Promise.all(servers.map((s) => s.server.stop()));
    await fs.rm(dir, { recursive: true, force: true });
  }
  noteCluster(report, cluster);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const gigs = flag('gigs');
  await runStandalone('Initial sync, PostgreSQL against the embedded store', async (report) => {
    try {
      await benchPostgresInitialSync(report, { gigs: gigs ? parseSize(gigs) : undefined });
    } finally {
      await removeDatabases();
    }
  });
}
