import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceWorker } from '../support/convergence/device';
import { runSeed, type SeedResult } from '../support/convergence/scenario';

/**
 * Convergence under partitions (issue 9, suite 4). Each seed starts a real server, six users on
 * devices running the app's data layer (RxDB from the shared schemas + the replication
 * controller, see tests/support/convergence/device.ts for how persistence and the network are
 * modelled) and Yjs chat clients, then plays random actions by whoever may take them: create gig,
 * apply, send offer, accept, decline, delete gig, profile edit, chat message, pay and complete
 * over HTTP, offline periods and restarts from persisted state. At the end everyone is online and
 * the test waits until every device holds exactly the server's state, then checks the invariants
 * (tests/support/convergence/invariants.ts).
 *
 *   CONVERGENCE_SEED=<n>      replays one seed (the same script of decisions; network timing varies)
 *   CONVERGENCE_SEEDS=<count> how many seeds (default 3), starting at a random one that is printed
 *   CONVERGENCE_OPS=<count>   operations per seed (default 60)
 *   CONVERGENCE_SETTLE_MS=<ms> how long to wait for convergence at the end of a seed (default 60000)
 *   CONVERGENCE_DEBUG=1 / CONVERGENCE_TRACE=1  print each operation / the devices' pushes and chat sockets
 */

const single = process.env.CONVERGENCE_SEED;
const count = single ? 1 : Math.max(1, Number(process.env.CONVERGENCE_SEEDS ?? 3));
const operations = Math.max(1, Number(process.env.CONVERGENCE_OPS ?? 60));
const first = single ? Number(single) : Math.floor(Math.random() * 1_000_000);
const seeds = Array.from({ length: count }, (_, i) => first + i);
const SETTLE_TIMEOUT_MS = Number(process.env.CONVERGENCE_SETTLE_MS ?? 60_000);
/** Six users, each on a device of its own (a worker thread: its own RxDB realm). */
const DEVICES = 6;

let workers: DeviceWorker[] = [];
beforeAll(() => {
  workers = Array.from({ length: DEVICES }, () => new DeviceWorker());
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.terminate()));
});

describe('convergence under partitions', () => {
  it(
    `${count} seed(s) from ${first}: every device ends with exactly the server's state and every invariant holds`,
    async () => {
      console.log(`convergence: seeds ${seeds[0]}..${seeds[seeds.length - 1]}, ${operations} operations each (replay one with CONVERGENCE_SEED=<seed>)`);
      const results: SeedResult[] = [];
      const failed: SeedResult[] = [];
      for (const seed of seeds) {
        const r = await runSeed(seed, workers, { operations, settleTimeoutMs: SETTLE_TIMEOUT_MS });
        results.push(r);
        const s = r.stats;
        console.log(
          `convergence seed ${seed}: ${r.problems.length ? 'FAILED' : 'converged'} — ${s.operations} operations, ${s.writes} writes (${s.offlineWrites} offline), ` +
            `${s.refused} refused, ${s.chatMessages} chat messages, ${s.payments} payments, ${s.offlinePeriods} offline periods, ${s.restarts} restarts, settled in ${s.settleMs} ms`,
        );
        if (r.problems.length) {
          failed.push(r);
          console.log(`convergence seed ${seed} problems:\n  ${r.problems.join('\n  ')}\n  replay: CONVERGENCE_SEED=${seed} npx vitest run --project integration tests/integration/convergence.test.ts`);
        }
      }
      const total = (k: keyof SeedResult['stats']) => results.reduce((sum, r) => sum + r.stats[k], 0);
      console.log(
        `convergence: ${results.length - failed.length} seeds converged, ${total('operations')} operations, ${total('offlinePeriods')} offline periods, ${total('restarts')} restarts` +
          (failed.length ? `; FAILED seeds: ${failed.map((r) => r.seed).join(', ')}` : ''),
      );
      expect(failed.map((r) => ({ seed: r.seed, problems: r.problems }))).toEqual([]);
      // The run exercised what it claims to: partitions, restarts and writes made offline.
      expect(total('offlinePeriods')).toBeGreaterThan(0);
      expect(total('restarts')).toBeGreaterThan(0);
      expect(total('offlineWrites')).toBeGreaterThan(0);
    },
    count * (SETTLE_TIMEOUT_MS + 60_000),
  );
});
