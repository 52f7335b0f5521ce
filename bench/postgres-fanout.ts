import { gigDoc } from '../tests/support/fixtures';
import { parseSize } from './data/generate';
import { withTimeout } from './fanout';
import { percentile, type Report } from './report';
import { flag, numFlag, runStandalone } from './support/cli';
import { dataset } from './support/datasets';
import { LoadClient, pushNew } from './support/http';
import { cpuOf, startInstances, stopAll, type Instance } from './support/instances';
import {
  benchCluster,
  databaseOf,
  dbCounters,
  noteCluster,
  perWrite,
  removeDatabases,
  settledCounters,
} from './support/postgres';
import { openStreams, type RawSseStream } from './support/sse';

export type PgFanoutOptions = { gigs?: number; streams?: number; instances?: number; writes?: number };

const WRITES = 20;
const WARM_UP = 3;
const TARGET_P95_MS = 150;
const ARRIVAL_TIMEOUT_MS = 30_000;

/**
 * Issue 14: fan-out across instances. Three server instances on one PostgreSQL database (each in
 * its own process), 500 signed-in change streams spread evenly over them, each its own user's
 * session. One gig at a time is pushed to the first instance; a stream's latency is from the
 * start of the push to its `changes` event carrying that gig: on the writer's instance through
 * its own feed read, on the others through the database's notification and their feed read.
 * Target: p95 ≤ 150 ms over every stream and write.
 */
export async function benchPostgresFanout(report: Report, options: PgFanoutOptions = {}): Promise<void> {
  const cluster = await benchCluster();
  const gigs = options.gigs ?? 10_000;
  const count = options.streams ?? 500;
  const n = options.instances ?? 3;
  const writes = options.writes ?? WRITES;
  const data = await dataset({ gigs, sessions: 500, chatPairs: 200 });
  if (count > data.sessions.length) throw new Error(`${data.sessions.length} sessions for ${count} streams`);
  const url = await databaseOf(data, 'fanout');
  const instances: Instance[] = await startInstances(url, n);
  const label = `fan-out on PostgreSQL, ${count} streams over ${n} instances`;
  try {
    // Stream i on instance i mod n, opened on each instance in one go.
    const tokens = data.sessions.slice(0, count).map((s) => s.token);
    const streams: { stream: RawSseStream; on: number }[] = [];
    for (const [i, inst] of instances.entries()) {
      const mine = tokens.filter((_, t) => t % n === i);
      for (const stream of await openStreams(inst.url, mine)) streams.push({ stream, on: i });
    }
    const writer = new LoadClient(instances[0]!.url, data.sessions[0]!.token, 1);
    const latencies: number[][] = instances.map(() => []);
    const everyStream: number[] = [];
    const db = await dbCounters();
    const cpuBefore = await cpuOf(instances);
    for (let i = 0; i < WARM_UP + writes; i++) {
      const doc = gigDoc();
      const id = String(doc.id);
      const arrivals = streams.map((s) => s.stream.arrival(id));
      const started = performance.now();
      await pushNew(writer, 'gigs', doc);
      const times = await withTimeout(Promise.all(arrivals), ARRIVAL_TIMEOUT_MS, `gig ${id} on ${count} streams`);
      if (i < WARM_UP) continue;
      times.forEach((t, s) => latencies[streams[s]!.on]!.push(t - started));
      everyStream.push(Math.max(...times) - started);
    }
    const cpuAfter = await cpuOf(instances);
    const cost = perWrite(db, await settledCounters(), WARM_UP + writes);
    writer.close();
    for (const s of streams) s.stream.close();
    await Promise.all(streams.map((s) => s.stream.ended));

    const all = latencies.flat();
    report.info(label, 'p50', percentile(all, 50), 'ms');
    report.atMost(label, 'p95', percentile(all, 95), 'ms', TARGET_P95_MS);
    report.info(label, 'max', Math.max(...all), 'ms');
    report.info(label, 'every stream, p50 of writes', percentile(everyStream, 50), 'ms');
    report.info(`${label}, streams on the writer's instance`, 'p95', percentile(latencies[0]!, 95), 'ms');
    report.info(`${label}, streams on the other instances`, 'p95', percentile(latencies.slice(1).flat(), 95), 'ms');
    for (const i of instances.keys())
      report.info(
        `${label}, instance ${i + 1}${i === 0 ? ' (writer)' : ''}`,
        'server CPU per write',
        (cpuAfter[i]! - cpuBefore[i]!) / (WARM_UP + writes) / 1000,
        'ms',
      );
    if (cost.cpuMicros !== undefined) report.info(label, 'database CPU per write', cost.cpuMicros / 1000, 'ms');
  } finally {
    await stopAll(instances);
  }
  noteCluster(report, cluster);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const gigs = flag('gigs');
  await runStandalone('Fan-out across instances on PostgreSQL', async (report) => {
    try {
      await benchPostgresFanout(report, {
        gigs: gigs ? parseSize(gigs) : undefined,
        streams: numFlag('streams'),
        instances: numFlag('instances'),
      });
    } finally {
      await removeDatabases();
    }
  });
}
