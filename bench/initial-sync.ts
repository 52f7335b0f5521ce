import { TestClient } from '../tests/support/http-client';
import { startNodeClient } from '../tests/support/node-client';
import { parseSize } from './data/generate';
import { copyOf, dataset } from './support/datasets';
import { startServerProcess } from './support/server-process';
import { median, printReport, Report } from './report';

export type InitialSyncOptions = { gigs?: number; runs?: number };

const RUNS = 3;
const TARGET_MS = 3000;

/**
 * Issue 8, item 3: a fresh client (the app's own data layer, client/data/*, on RxDB's memory
 * storage in Node) signs in against the real server in its own process and replicates every
 * collection over HTTP until it is in sync, 10k gigs on the board. Each run is a new, empty local
 * database on the same server; the figure is the median of the runs, target ≤ 3 s.
 */
export async function benchInitialSync(report: Report, options: InitialSyncOptions = {}): Promise<void> {
  const gigs = options.gigs ?? 10_000;
  const runs = options.runs ?? RUNS;
  // The same dataset as the fan-out and memory benchmarks (and server push at 10k): generated once a run.
  const data = await dataset({ gigs, sessions: 500, chatPairs: 200 });
  const dir = await copyOf(data, `initial-sync-${gigs}`);
  const server = await startServerProcess({ dataDir: dir });
  const label = `initial sync, ${gigs / 1000}k gigs`;
  try {
    const user = data.sessions[0]!;
    const http = new TestClient(server.url);
    http.setCookie('sid', user.token);
    const times: number[] = [];
    let documents = 0;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const client = await startNodeClient(http, user.id);
      try {
        await client.sync.awaitInSync();
        const elapsed = performance.now() - started;
        const onBoard = await client.db.gigs.count().exec();
        if (onBoard !== data.counts.gigs) throw new Error(`in sync with ${onBoard} gigs on the board, expected ${data.counts.gigs}`);
        documents = client.sync.status.initialSync.received;
        times.push(elapsed);
        console.log(`  run ${run + 1}: ${elapsed.toFixed(0)} ms, ${documents} documents pulled`);
      } finally {
        await client.close();
      }
    }
    report.atMost(label, `median of ${runs}`, median(times), 'ms', TARGET_MS);
    report.info(label, 'slowest run', Math.max(...times), 'ms');
    report.info(label, 'documents pulled', documents, '');
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const gigs = process.argv.find((a) => a.startsWith('--gigs='))?.slice(7);
  const report = new Report();
  const started = performance.now();
  try {
    await benchInitialSync(report, { gigs: gigs ? parseSize(gigs) : undefined });
  } finally {
    const { removeDatasets } = await import('./support/datasets');
    await removeDatasets();
  }
  printReport('Initial sync benchmark', report, (performance.now() - started) / 1000);
}
