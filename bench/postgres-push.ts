import { gigDoc } from '../tests/support/fixtures';
import { parseSize } from './data/generate';
import { percentile, type Report } from './report';
import { flag, runStandalone } from './support/cli';
import { dataset } from './support/datasets';
import { LoadClient, pushNew } from './support/http';
import { cpuOf, startInstance, stopAll, type Instance } from './support/instances';
import {
  benchCluster,
  commitRate,
  databaseOf,
  dbCounters,
  noteCluster,
  perWrite,
  removeDatabases,
  settledCounters,
} from './support/postgres';

export type PgPushOptions = { sizes?: number[]; profileDir?: string };

const WARM_UP = 200;
const SAMPLES = 1000;
const WRITERS = 50;
const THROUGHPUT_SECONDS = 5;
const TARGET_P95_MS = 10;

/** Every writer pushes new gigs one after the other for `seconds`; returns the writes each made. */
async function writeFor(writers: LoadClient[], seconds: number): Promise<{ counts: number[]; seconds: number }> {
  const counts = writers.map(() => 0);
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    writers.map(async (w, i) => {
      while (performance.now() < end) {
        await pushNew(w, 'gigs', gigDoc());
        counts[i]!++;
      }
    }),
  );
  return { counts, seconds: (performance.now() - started) / 1000 };
}

/** The database's cost per write as rows beside the servers'. */
function reportDatabase(report: Report, label: string, cost: ReturnType<typeof perWrite>): void {
  if (cost.cpuMicros !== undefined) report.info(label, 'database CPU per write', cost.cpuMicros, 'µs');
  report.info(label, 'database transactions per write', cost.transactions, '');
  report.info(label, 'WAL per write', cost.walBytes / 1024, 'kB');
  if (cost.writesPerWalSync !== undefined) report.info(label, 'writes per WAL flush', cost.writesPerWalSync, '');
}

/**
 * Issue 14: the push benchmark on PostgreSQL. The server (in its own process, `DATABASE_URL` set)
 * runs on a database holding the same generated marketplace as the embedded push benchmark at
 * 10k and 50k gigs. One writer: latency of a pushed new gig through the route, the decision, its
 * serializable commit (flushed: fsync on) and the change feed, target p95 ≤ 10 ms. 50 writers,
 * each its own user, on one instance: throughput, target ≥ 2,000 writes/s. Then a second
 * instance on the same database, the 50 writers split between the two: the throughput and the
 * server CPU per write of each. Every phase reports the database's CPU per write (its processes,
 * read from /proc when it runs on this machine), its transactions and WAL per write, for sizing.
 * Last, the database alone: 50 connections committing one-row inserts, with and without a
 * `pg_notify` in each transaction (the store notifies in every write).
 */
export async function benchPostgresPush(report: Report, options: PgPushOptions = {}): Promise<void> {
  const cluster = await benchCluster();
  for (const size of options.sizes ?? [10_000, 50_000]) {
    // The datasets of the embedded push benchmark at these sizes (shared within a run).
    const data = await dataset({
      gigs: size,
      sessions: size === 10_000 ? 500 : WRITERS,
      chatPairs: size === 10_000 ? 200 : 0,
    });
    const url = await databaseOf(data, `push_${size}`);
    const label = `push on PostgreSQL, ${size / 1000}k gigs`;
    const instances: Instance[] = [];
    try {
      const a = await startInstance(url, { profileDir: options.profileDir });
      instances.push(a);
      report.info(`${label}`, 'instance start (replica load)', a.startSeconds * 1000, 'ms');

      const client = new LoadClient(a.url, data.sessions[0]!.token, 1);
      for (let i = 0; i < WARM_UP; i++) await pushNew(client, 'gigs', gigDoc());
      const latencies: number[] = [];
      let db = await dbCounters();
      let cpu = await a.cpuMicros();
      for (let i = 0; i < SAMPLES; i++) {
        const doc = gigDoc();
        const t = performance.now();
        await pushNew(client, 'gigs', doc);
        latencies.push(performance.now() - t);
      }
      const serverCpu = ((await a.cpuMicros()) - cpu) / SAMPLES;
      const single = perWrite(db, await settledCounters(), SAMPLES);
      client.close();
      report.info(label, 'p50', percentile(latencies, 50), 'ms');
      report.atMost(label, 'p95', percentile(latencies, 95), 'ms', TARGET_P95_MS);
      report.info(label, 'p99', percentile(latencies, 99), 'ms');
      report.info(label, 'server CPU per write', serverCpu, 'µs');
      reportDatabase(report, label, single);

      const many = `${label}, ${WRITERS} writers`;
      const writers = data.sessions.slice(0, WRITERS).map((s) => new LoadClient(a.url, s.token, 1));
      db = await dbCounters();
      cpu = await a.cpuMicros();
      const one = await writeFor(writers, THROUGHPUT_SECONDS);
      const writes = one.counts.reduce((x, y) => x + y, 0);
      const cpuUsed = (await a.cpuMicros()) - cpu;
      const cost = perWrite(db, await settledCounters(), writes);
      for (const w of writers) w.close();
      report.atLeast(many, 'throughput', writes / one.seconds, 'writes/s', 2000, '≥ 2,000 writes/s');
      report.info(many, 'server CPU per write', cpuUsed / writes, 'µs');
      reportDatabase(report, many, cost);

      // A second instance on the same database. First every writer still on A: what B spends
      // keeping its replica current and reading the feed, per write made elsewhere.
      const b = await startInstance(url, { profileDir: options.profileDir });
      instances.push(b);
      const onA = data.sessions.slice(0, WRITERS).map((s) => new LoadClient(a.url, s.token, 1));
      const idleBefore = await b.cpuMicros();
      const elsewhere = await writeFor(onA, THROUGHPUT_SECONDS);
      const upkeep = ((await b.cpuMicros()) - idleBefore) / elsewhere.counts.reduce((x, y) => x + y, 0);
      for (const w of onA) w.close();
      report.info(`${label}, a second instance`, 'server CPU per write made on the other', upkeep, 'µs');

      // Then half the writers on each.
      const two = `${label}, ${WRITERS} writers on 2 instances`;
      const spread = data.sessions.slice(0, WRITERS).map((s, i) => new LoadClient(instances[i % 2]!.url, s.token, 1));
      db = await dbCounters();
      const cpus = await cpuOf(instances);
      const both = await writeFor(spread, THROUGHPUT_SECONDS);
      const cpusAfter = await cpuOf(instances);
      const total = both.counts.reduce((x, y) => x + y, 0);
      const twoCost = perWrite(db, await settledCounters(), total);
      for (const w of spread) w.close();
      report.info(two, 'throughput', total / both.seconds, 'writes/s');
      for (const [i, name] of ['A', 'B'].entries()) {
        const own = both.counts.filter((_, w) => w % 2 === i).reduce((x, y) => x + y, 0);
        report.info(`${two}, instance ${name}`, 'throughput', own / both.seconds, 'writes/s');
        report.info(`${two}, instance ${name}`, 'server CPU per write', (cpusAfter[i]! - cpus[i]!) / own, 'µs');
      }
      reportDatabase(report, two, twoCost);
    } finally {
      await stopAll(instances);
    }
  }
  // The database alone, for what the figures above rest on: how many commits it takes, with and
  // without the notification every store write sends at commit.
  for (const notify of [false, true]) {
    const rate = await commitRate(WRITERS, 3, notify);
    const name = `PostgreSQL alone, ${WRITERS} connections, one-row commits${notify ? ' each with pg_notify' : ''}`;
    report.info(name, 'throughput', rate.perSecond, 'commits/s');
    if (rate.perWalSync !== undefined) report.info(name, 'commits per WAL flush', rate.perWalSync, '');
  }
  noteCluster(report, cluster);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Push on PostgreSQL', async (report) => {
    try {
      await benchPostgresPush(report, {
        sizes: flag('sizes')?.split(',').map(parseSize),
        profileDir: process.argv.includes('--profile') ? 'bench/results/profiles' : undefined,
      });
    } finally {
      await removeDatabases();
    }
  });
}
