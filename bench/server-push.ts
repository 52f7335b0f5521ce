import { gigDoc, signUpWithProfile, write } from '../tests/support/fixtures';
import { TestClient } from '../tests/support/http-client';
import { startTestServer } from '../tests/support/server';
import { percentile, type Row } from './report';

/**
 * Latency of one pushed write with 1k, 10k and 50k documents already in the store, and the
 * throughput of 50 concurrent writers, against the real server over HTTP with real store files.
 */
export async function benchServerPush(sizes = [1_000, 10_000, 50_000]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of sizes) {
    const server = await startTestServer({ RATE_LIMITS: 'off', SNAPSHOT_EVERY_COMMITS: '100000' });
    try {
      const client = new TestClient(server.url);
      const user = await signUpWithProfile(client);
      // Fill the store directly (the bench measures pushes, not the fill), in large commits.
      const batch = 1000;
      for (let i = 0; i < size; i += batch) {
        const writes = Array.from({ length: Math.min(batch, size - i) }, () => {
          const g = gigDoc();
          return { collection: 'gigs' as const, doc: { ...g, createdBy: user.id, creatorName: user.name, creatorEmail: user.email, _deleted: false } };
        });
        await server.ctx.store.commit(writes as never);
      }
      for (let i = 0; i < 50; i++) await write(client, 'gigs', gigDoc()); // warm up
      const latencies: number[] = [];
      for (let i = 0; i < 500; i++) {
        const t = performance.now();
        await write(client, 'gigs', gigDoc());
        latencies.push(performance.now() - t);
      }
      const label = `push, ${size / 1000}k docs`;
      rows.push({ name: label, stat: 'p50', value: percentile(latencies, 50), unit: 'ms', target: '', pass: null });
      rows.push({ name: label, stat: 'p95', value: percentile(latencies, 95), unit: 'ms', target: '≤ 5 ms', pass: percentile(latencies, 95) <= 5 });
      rows.push({ name: label, stat: 'p99', value: percentile(latencies, 99), unit: 'ms', target: '', pass: null });

      if (size === sizes[sizes.length - 1]) {
        const writers = 50;
        const perWriter = 40;
        const t = performance.now();
        await Promise.all(Array.from({ length: writers }, async () => {
          for (let i = 0; i < perWriter; i++) await write(client, 'gigs', gigDoc());
        }));
        const seconds = (performance.now() - t) / 1000;
        const rate = (writers * perWriter) / seconds;
        rows.push({ name: `push, 50 writers, ${size / 1000}k docs`, stat: 'throughput', value: rate, unit: 'writes/s', target: '≥ 2,000/s', pass: rate >= 2000 });
      }
    } finally {
      await server.cleanup();
    }
  }
  return rows;
}
