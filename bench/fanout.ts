import { gigDoc } from '../tests/support/fixtures';
import { parseSize } from './data/generate';
import { LOAD_ENV, startChildServer } from '../tests/support/spawn-server';
import { flag, runStandalone } from './support/cli';
import { copyOf, dataset } from './support/datasets';
import { LoadClient, pushNew } from './support/http';
import { openStreams } from './support/sse';
import { percentile, type Report } from './report';

export type FanoutOptions = { gigs?: number; streams?: number[]; writes?: number };

const WRITES = 20;
const WARM_UP = 3;
const TARGET_P95_MS = 100;
const TARGET_AT = 500;
const ARRIVAL_TIMEOUT_MS = 30_000;

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms)),
  );
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Issue 8, item 4: 100 and 500 signed-in change streams, each with its own session, on the real
 * server in its own process. One gig is pushed; the latency of a stream is from the start of the
 * push to the moment the `changes` event carrying that gig arrived on it. 20 writes, one at a
 * time; the percentiles are over every stream and every write, and "every stream" is the time
 * until the last stream had a write. Target: p95 ≤ 100 ms at 500 streams.
 */
export async function benchFanout(report: Report, options: FanoutOptions = {}): Promise<void> {
  const gigs = options.gigs ?? 10_000;
  const writes = options.writes ?? WRITES;
  const sizes = options.streams ?? [100, 500];
  const data = await dataset({ gigs, sessions: 500, chatPairs: 200 });
  if (Math.max(...sizes) > data.sessions.length)
    throw new Error(`${data.sessions.length} sessions for ${Math.max(...sizes)} streams`);
  const dir = await copyOf(data, 'fanout');
  const server = await startChildServer({ dataDir: dir, env: LOAD_ENV });
  try {
    const writer = new LoadClient(server.url, data.sessions[0]!.token, 1);
    for (const count of sizes) {
      const streams = await openStreams(
        server.url,
        data.sessions.slice(0, count).map((s) => s.token),
      );
      const label = `fan-out, ${count} streams`;
      const latencies: number[] = [];
      const everyStream: number[] = [];
      const cpuBefore = await server.cpuMicros();
      for (let i = 0; i < WARM_UP + writes; i++) {
        const doc = gigDoc();
        const id = String(doc.id);
        const arrivals = streams.map((s) => s.arrival(id));
        const started = performance.now();
        await pushNew(writer, 'gigs', doc);
        const times = await withTimeout(Promise.all(arrivals), ARRIVAL_TIMEOUT_MS, `gig ${id} on ${count} streams`);
        if (i < WARM_UP) continue;
        const each = times.map((t) => t - started);
        latencies.push(...each);
        everyStream.push(Math.max(...each));
      }
      const cpuPerWrite = ((await server.cpuMicros()) - cpuBefore) / (WARM_UP + writes);
      for (const s of streams) s.close();
      await Promise.all(streams.map((s) => s.ended));
      report.info(label, 'p50', percentile(latencies, 50), 'ms');
      if (count === TARGET_AT) report.atMost(label, 'p95', percentile(latencies, 95), 'ms', TARGET_P95_MS);
      else report.info(label, 'p95', percentile(latencies, 95), 'ms');
      report.info(label, 'max', Math.max(...latencies), 'ms');
      report.info(label, 'every stream, p50 of writes', percentile(everyStream, 50), 'ms');
      report.info(label, 'server CPU per write', cpuPerWrite / 1000, 'ms');
    }
    writer.close();
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const gigs = flag('gigs');
  await runStandalone('Fan-out benchmark', (report) =>
    benchFanout(report, { gigs: gigs ? parseSize(gigs) : undefined, streams: flag('streams')?.split(',').map(Number) }),
  );
}
