import { fork } from 'node:child_process';
import { LOAD_ENV, startChildServer } from '../tests/support/spawn-server';
import { TestClient } from '../tests/support/http-client';
import { startNodeClient } from '../tests/support/node-client';
import { parseSize } from './data/generate';
import { flag, runStandalone } from './support/cli';
import { copyOf, dataset } from './support/datasets';
import { median, type Report } from './report';

export type InitialSyncOptions = { gigs?: number; runs?: number };

const RUNS = 3;
const TARGET_MS = 3000;

export type SyncResult = { ms: number; documents: number };

/** Signs a new, empty local database in and waits until every collection is in sync. */
export async function syncOnce(
  baseUrl: string,
  token: string,
  userId: string,
  expectedGigs: number,
): Promise<SyncResult> {
  const http = new TestClient(baseUrl);
  http.setCookie('sid', token);
  const started = performance.now();
  const client = await startNodeClient(http, userId);
  try {
    await client.sync.awaitInSync();
    const ms = performance.now() - started;
    const onBoard = await client.db.gigs.count().exec();
    if (onBoard !== expectedGigs)
      throw new Error(`in sync with ${onBoard} gigs on the board, expected ${expectedGigs}`);
    return { ms, documents: client.sync.status.initialSync.received };
  } finally {
    await client.close();
  }
}

/** `syncOnce` in a new Node process, as a new browser tab starts with nothing compiled. */
export function syncInFreshProcess(
  baseUrl: string,
  token: string,
  userId: string,
  expectedGigs: number,
): Promise<SyncResult> {
  const child = fork(import.meta.filename, ['--client', baseUrl, token, userId, String(expectedGigs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let answer: SyncResult | { error: string } | undefined;
    child.on('message', (m: SyncResult | { error: string }) => (answer = m));
    child.on('exit', (code) => {
      if (answer && 'ms' in answer) resolve(answer);
      else reject(new Error(`the client process failed (${code}): ${answer?.error ?? 'no answer'}`));
    });
  });
}

/**
 * Issue 8, item 3: a fresh client (the app's own data layer, client/data/*, on RxDB's memory
 * storage in Node) signs in against the real server in its own process and replicates every
 * collection over HTTP until it is in sync, 10k gigs on the board. The server is warmed by one
 * untimed sync; each timed run is a new Node process with a new, empty local database (nothing
 * compiled yet, like a new tab). The figure is the median of the runs, target ≤ 3 s. Timed from
 * creating the database to `awaitInSync()`, module loading excluded. Memory storage stands in for
 * IndexedDB: in Chromium, Dexie's writes add to it (measured on this kind of machine: bulkInsert of 10k ≈ 2.5 s).
 */
export async function benchInitialSync(report: Report, options: InitialSyncOptions = {}): Promise<void> {
  const gigs = options.gigs ?? 10_000;
  const runs = options.runs ?? RUNS;
  // The same dataset as the fan-out and memory benchmarks (and server push at 10k): generated once a run.
  const data = await dataset({ gigs, sessions: 500, chatPairs: 200 });
  const dir = await copyOf(data, `initial-sync-${gigs}`);
  const server = await startChildServer({ dataDir: dir, env: LOAD_ENV });
  const label = `initial sync, ${gigs / 1000}k gigs`;
  try {
    const user = data.sessions[0]!;
    // One untimed sync first: the server is warm in production, a new client is not.
    const warm = await syncOnce(server.url, user.token, user.id, data.counts.gigs);
    console.log(`  warm-up (in this process): ${warm.ms.toFixed(0)} ms`);
    const times: number[] = [];
    let documents = 0;
    for (let run = 0; run < runs; run++) {
      const result = await syncInFreshProcess(server.url, user.token, user.id, data.counts.gigs);
      times.push(result.ms);
      documents = result.documents;
      console.log(`  run ${run + 1}: ${result.ms.toFixed(0)} ms, ${documents} documents pulled`);
    }
    report.atMost(label, `median of ${runs}`, median(times), 'ms', TARGET_MS);
    report.info(label, 'slowest run', Math.max(...times), 'ms');
    report.info(label, 'documents pulled', documents, '');
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--client') {
  const [baseUrl, token, userId, expected] = process.argv.slice(3) as [string, string, string, string];
  const answer = await syncOnce(baseUrl, token, userId, Number(expected)).catch((err: unknown) => ({
    error: String(err),
  }));
  process.send!(answer, () => process.exit(0));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const gigs = flag('gigs');
  await runStandalone('Initial sync benchmark', (report) =>
    benchInitialSync(report, { gigs: gigs ? parseSize(gigs) : undefined }),
  );
}
