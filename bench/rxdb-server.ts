import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gigDoc } from '../tests/support/fixtures';
import { LOAD_ENV, startChildServer } from '../tests/support/spawn-server';
import { median, percentile, type Report } from './report';
import { runStandalone } from './support/cli';
import { copyOf, dataset } from './support/datasets';
import { LoadClient, type PushAnswer } from './support/http';
import { RawHttpConnection } from './support/raw-http';
import { processCpuMicros } from './support/proc';

/**
 * The sync server beside RxDB's own (issue 20): the same loads, from the same load generator in
 * this process, against ours (the real server in its own process) and against `rxdb-server` 15.22
 * (RxDB's replication server, Express adapter, RxDB's memory storage; bench/peers/rxdb-server/,
 * installed there on first use so the product's dependencies do not change), one after the other.
 *
 * - push: 50 writers, each pushing one new gig per request for PUSH_SECONDS. Ours signs each writer
 *   in, judges every write (schema, policy, quotas), fsyncs its journal and fans out; the peer lets
 *   every request through, validates nothing and keeps everything in memory.
 * - pull: a fresh client's raw pull of 10,000 gigs over HTTP, pages of 1,000 from the start until
 *   a short page, the median of PULL_RUNS after PULL_WARM_UP runs not counted (each server's
 *   first pulls run code V8 has not optimized yet: ours read 120–180 ms, then 60–80). Ours
 *   filters each document for the reader.
 * Targets: ours ≥ 2.0× the peer's push throughput, and ≤ 1.0× its time for the pull.
 */

const PEER_DIR = fileURLToPath(new URL('./peers/rxdb-server/', import.meta.url));
const WRITERS = 50;
const PUSH_SECONDS = 10;
const WARM_UP_SECONDS = 2;
const PULL_GIGS = 10_000;
const PULL_PAGE = 1_000;
const PULL_RUNS = 5;
const PULL_WARM_UP = 2;

/** Installs the peer in its own folder when it is not there yet (npm registry only). */
function ensurePeerInstalled(): void {
  if (fs.existsSync(path.join(PEER_DIR, 'node_modules', 'rxdb-server'))) return;
  console.log('   installing rxdb-server for the peer rows (bench/peers/rxdb-server)…');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: PEER_DIR, stdio: 'inherit' });
}

type Peer = { url: string; process: ChildProcess; stop(): Promise<void> };

async function startPeer(): Promise<Peer> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['server.mjs', String(port)], {
    cwd: PEER_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('ready')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => reject(new Error(`rxdb-server exited (${code}): ${output.slice(-500)}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs `writers` loops of `send` for `seconds`; returns the requests done and their latencies. */
async function loops(writers: number, seconds: number, send: (writer: number) => Promise<void>) {
  const end = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      while (performance.now() < end) {
        const t = performance.now();
        await send(w);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
}

type PushResult = { perSecond: number; cpuPerWrite: number; generatorCpuPerWrite: number; latencies: number[] };

/**
 * A warm-up, then PUSH_SECONDS measured: throughput, latencies, the server's CPU per write and
 * this process's (the load generator's, on the same two cores).
 */
async function pushLoad(
  send: (writer: number) => Promise<void>,
  cpuMicros: () => Promise<number>,
): Promise<PushResult> {
  await loops(WRITERS, WARM_UP_SECONDS, send);
  const cpuStart = await cpuMicros();
  const generatorStart = process.cpuUsage();
  const started = performance.now();
  const latencies = await loops(WRITERS, PUSH_SECONDS, send);
  const seconds = (performance.now() - started) / 1000;
  const generator = process.cpuUsage(generatorStart);
  const cpuUsed = (await cpuMicros()) - cpuStart;
  return {
    perSecond: latencies.length / seconds,
    cpuPerWrite: cpuUsed / latencies.length,
    generatorCpuPerWrite: (generator.user + generator.system) / latencies.length,
    latencies,
  };
}

/** One push of one new gig, as the body both servers take (RxDB's push rows). */
const oneNewGig = () =>
  JSON.stringify([{ assumedMasterState: null, newDocumentState: { ...gigDoc(), _deleted: false } }]);

/** WRITERS connections of the lean load generator to `url`, each sending `headers(writer)`. */
function rawWriters(url: string, headers: (writer: number) => Record<string, string>): Promise<RawHttpConnection[]> {
  return Promise.all(
    Array.from({ length: WRITERS }, (_, w) =>
      RawHttpConnection.connect(url, { 'Content-Type': 'application/json', ...headers(w) }),
    ),
  );
}

/** Pulls a whole collection from the start in pages; returns the time and how many documents came. */
async function pullAll(
  fetchPage: (after: unknown) => Promise<{ count: number; next: unknown }>,
): Promise<{ ms: number; documents: number }> {
  const t = performance.now();
  let after: unknown = undefined;
  let documents = 0;
  for (;;) {
    const page = await fetchPage(after);
    documents += page.count;
    after = page.next;
    if (page.count < PULL_PAGE) break;
  }
  return { ms: performance.now() - t, documents };
}

/** `profileDir` runs our server under `--cpu-prof` (the profile covers its pulls and pushes). */
export async function benchRxdbServer(report: Report, options: { profileDir?: string } = {}): Promise<void> {
  ensurePeerInstalled();
  const data = await dataset({ gigs: PULL_GIGS, sessions: WRITERS, chatPairs: 0 });

  // --- Ours.
  const dir = await copyOf(data, 'rxdb-peer-ours');
  const ours = await startChildServer({ dataDir: dir, env: LOAD_ENV, profileDir: options.profileDir });
  let oursPush: Awaited<ReturnType<typeof pushLoad>>;
  const oursPull: number[] = [];
  try {
    const reader = new LoadClient(ours.url, data.sessions[0]!.token, 1);
    for (let run = -PULL_WARM_UP; run < PULL_RUNS; run++) {
      const result = await pullAll(async (after) => {
        const seq = typeof after === 'number' ? after : 0;
        const res = await reader.request<{ documents: unknown[]; checkpoint: { seq: number } }>(
          'GET',
          `/api/sync/gigs/pull?seq=${seq}&limit=${PULL_PAGE}`,
        );
        if (res.status !== 200) throw new Error(`our pull answered ${res.status}`);
        return { count: res.body.documents.length, next: res.body.checkpoint.seq };
      });
      if (result.documents < PULL_GIGS) throw new Error(`our pull brought ${result.documents} gigs`);
      if (run >= 0) oursPull.push(result.ms);
    }
    reader.close();
    const writers = await rawWriters(ours.url, (w) => ({ Cookie: `sid=${data.sessions[w]!.token}`, Origin: ours.url }));
    oursPush = await pushLoad(
      async (w) => {
        const res = await writers[w]!.post('/api/sync/gigs/push', oneNewGig());
        if (res.status !== 200) throw new Error(`our push answered ${res.status}: ${res.text}`);
        const refused = (JSON.parse(res.text) as PushAnswer).refused[0];
        if (refused) throw new Error(`our push refused: ${refused.reason}`);
      },
      () => ours.cpuMicros(),
    );
    writers.forEach((c) => c.close());
  } finally {
    await ours.stop();
  }

  // --- The peer: filled with the same number of gigs first.
  const peer = await startPeer();
  let peerPush: Awaited<ReturnType<typeof pushLoad>>;
  const peerPull: number[] = [];
  try {
    const filler = new LoadClient(peer.url, 'none', 1);
    // Batches under Express's default body limit (100 kB).
    for (let i = 0; i < PULL_GIGS; i += 100) {
      const rows = Array.from({ length: 100 }, () => ({ newDocumentState: { ...gigDoc(), _deleted: false } }));
      const res = await filler.request('POST', '/gigs/0/push', rows);
      if (res.status !== 200) throw new Error(`rxdb-server push answered ${res.status}`);
    }
    for (let run = -PULL_WARM_UP; run < PULL_RUNS; run++) {
      const result = await pullAll(async (after) => {
        const c = (after as { id: string; lwt: number } | undefined) ?? { id: '', lwt: 0 };
        const res = await filler.request<{ documents: unknown[]; checkpoint: { id: string; lwt: number } | null }>(
          'GET',
          `/gigs/0/pull?lwt=${c.lwt}&id=${encodeURIComponent(c.id)}&limit=${PULL_PAGE}`,
        );
        if (res.status !== 200) throw new Error(`rxdb-server pull answered ${res.status}`);
        return { count: res.body.documents.length, next: res.body.checkpoint ?? c };
      });
      if (result.documents < PULL_GIGS) throw new Error(`rxdb-server pull brought ${result.documents} gigs`);
      if (run >= 0) peerPull.push(result.ms);
    }
    filler.close();
    const writers = await rawWriters(peer.url, () => ({}));
    const pid = peer.process.pid!;
    peerPush = await pushLoad(
      async (w) => {
        const res = await writers[w]!.post('/gigs/0/push', oneNewGig());
        if (res.status !== 200) throw new Error(`rxdb-server push answered ${res.status}: ${res.text}`);
        if ((JSON.parse(res.text) as unknown[]).length > 0) throw new Error('rxdb-server answered a conflict');
      },
      async () => processCpuMicros(pid) ?? Number.NaN,
    );
    writers.forEach((c) => c.close());
  } finally {
    await peer.stop();
  }

  const row = (who: string) => `vs rxdb-server: push, ${WRITERS} writers, ${who}`;
  for (const [who, r] of [
    ['ours', oursPush],
    ['rxdb-server', peerPush],
  ] as const) {
    report.info(row(who), 'throughput', r.perSecond, 'writes/s');
    report.info(row(who), 'p50', percentile(r.latencies, 50), 'ms');
    report.info(row(who), 'p95', percentile(r.latencies, 95), 'ms');
    report.info(row(who), 'server CPU per write', r.cpuPerWrite, 'µs');
    report.info(row(who), 'load generator CPU per write', r.generatorCpuPerWrite, 'µs');
  }
  report.atLeast(
    `vs rxdb-server: push, ${WRITERS} writers`,
    'ours/rxdb-server throughput',
    oursPush.perSecond / peerPush.perSecond,
    '×',
    2,
    '≥ 2.0×',
  );
  const pullRow = (who: string) => `vs rxdb-server: fresh pull of ${PULL_GIGS / 1000}k gigs, ${who}`;
  report.info(pullRow('ours'), `median of ${PULL_RUNS}`, median(oursPull), 'ms');
  report.info(pullRow('rxdb-server'), `median of ${PULL_RUNS}`, median(peerPull), 'ms');
  report.atMost(
    `vs rxdb-server: fresh pull of ${PULL_GIGS / 1000}k gigs`,
    'ours/rxdb-server time',
    median(oursPull) / median(peerPull),
    '×',
    1,
    '≤ 1.0×',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Sync server against rxdb-server', (report) =>
    benchRxdbServer(report, { profileDir: process.argv.includes('--profile') ? 'bench/results/profiles' : undefined }),
  );
}
