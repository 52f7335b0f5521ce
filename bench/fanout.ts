import http from 'node:http';
import { gigDoc } from '../tests/support/fixtures';
import { parseSize } from './data/generate';
import { copyOf, dataset } from './support/datasets';
import { LoadClient, pushNew } from './support/http';
import { startServerProcess } from './support/server-process';
import { percentile, printReport, Report } from './report';

export type FanoutOptions = { gigs?: number; streams?: number[]; writes?: number };

const WRITES = 20;
const WARM_UP = 3;
const TARGET_P95_MS = 100;
const TARGET_AT = 500;
const ARRIVAL_TIMEOUT_MS = 30_000;

/**
 * One signed-in `GET /api/sync/stream` on its own connection, read with node:http: it only looks
 * for the id of the document being waited for, so the reading side costs little per stream.
 */
export class RawSseStream {
  private buffer = '';
  private waitingFor: { id: string; resolve: (at: number) => void } | undefined;
  readonly opened: Promise<void>;
  readonly ended: Promise<void>;
  private req: http.ClientRequest;

  constructor(baseUrl: string, token: string) {
    const u = new URL('/api/sync/stream', baseUrl);
    let markEnded!: () => void;
    this.ended = new Promise((resolve) => (markEnded = resolve));
    let hello!: () => void;
    let failed!: (err: Error) => void;
    this.opened = new Promise((resolve, reject) => ((hello = resolve), (failed = reject)));
    this.req = http.get(
      { host: u.hostname, port: Number(u.port), path: u.pathname, agent: false, headers: { cookie: `sid=${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          failed(new Error(`stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          this.buffer += chunk;
          if (this.buffer.includes('event: hello')) hello();
          const waiting = this.waitingFor;
          if (waiting && this.buffer.includes(waiting.id)) {
            this.waitingFor = undefined;
            waiting.resolve(at);
          }
          // Keep only the unfinished event: what came before was looked at already.
          const end = this.buffer.lastIndexOf('\n\n');
          if (end >= 0) this.buffer = this.buffer.slice(end + 2);
        });
        res.on('close', markEnded);
      },
    );
    this.req.on('error', (err) => {
      failed(err);
      markEnded();
    });
  }

  /** Resolves with the time (performance.now()) the event naming `id` arrived. */
  arrival(id: string): Promise<number> {
    return new Promise((resolve) => (this.waitingFor = { id, resolve }));
  }

  close(): void {
    this.req.destroy();
  }
}

/** Opens `count` streams, a few dozen at a time, and waits for each one's `hello`. */
export async function openStreams(baseUrl: string, tokens: string[]): Promise<RawSseStream[]> {
  const streams: RawSseStream[] = [];
  for (let i = 0; i < tokens.length; i += 50) {
    const batch = tokens.slice(i, i + 50).map((t) => new RawSseStream(baseUrl, t));
    await Promise.all(batch.map((s) => s.opened));
    streams.push(...batch);
  }
  return streams;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms)));
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
  if (Math.max(...sizes) > data.sessions.length) throw new Error(`${data.sessions.length} sessions for ${Math.max(...sizes)} streams`);
  const dir = await copyOf(data, 'fanout');
  const server = await startServerProcess({ dataDir: dir });
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
      const cpuBefore = (await server.ask<{ cpuMicros: number }>('cpu')).cpuMicros;
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
      const cpuPerWrite = ((await server.ask<{ cpuMicros: number }>('cpu')).cpuMicros - cpuBefore) / (WARM_UP + writes);
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
  const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const gigs = flag('gigs');
  const streams = flag('streams');
  const report = new Report();
  const started = performance.now();
  try {
    await benchFanout(report, { gigs: gigs ? parseSize(gigs) : undefined, streams: streams?.split(',').map(Number) });
  } finally {
    const { removeDatasets } = await import('./support/datasets');
    await removeDatasets();
  }
  printReport('Fan-out benchmark', report, (performance.now() - started) / 1000);
}
