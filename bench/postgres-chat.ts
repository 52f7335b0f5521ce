import { waitFor } from '../tests/support/yjs-client';
import { Side, type PhaseResult } from './chat';
import { percentile, type Report } from './report';
import { numFlag, runStandalone } from './support/cli';
import { dataset } from './support/datasets';
import { startInstances, stopAll, type Instance } from './support/instances';
import {
  benchCluster,
  databaseOf,
  dbCounters,
  noteCluster,
  perWrite,
  removeDatabases,
  settledCounters,
} from './support/postgres';

export type PgChatOptions = { rooms?: number; intervalMs?: number; steadySeconds?: number; profileDir?: string };

const DEFAULTS = { rooms: 200, intervalMs: 400, steadySeconds: 10 };
const TARGET_P99_MS = 75;
/** How long the probe waits for one message each way between the two instances. */
const PROBE_MS = 5_000;

type Measured = { result: PhaseResult; dbCpuPerMsg: number | undefined; closed: number };

/** The steady phase of bench/chat.ts on `procs` (one instance, or A on the first and B on the second). */
async function steadyOn(
  procs: Instance[],
  pairs: Parameters<Side['connect']>[0],
  o: typeof DEFAULTS,
  tag: string,
): Promise<Measured> {
  const side = new Side(tag, procs, `${tag}${Date.now().toString(36)}`);
  try {
    await side.connect(pairs, true);
    const db = await dbCounters();
    const sentBefore = side.sentSoFar;
    const result = await side.steady(o.intervalMs, o.steadySeconds);
    const cost = perWrite(db, await settledCounters(), Math.max(1, side.sentSoFar - sentBefore));
    return { result, dbCpuPerMsg: cost.cpuMicros, closed: side.closed() };
  } finally {
    side.disconnect();
  }
}

/** Why an instance is gone, when it is: its exit and the last error line it printed. */
function exitOf(instance: Instance, n: number): string | undefined {
  const { exitCode, signalCode } = instance.child;
  if (exitCode === null && signalCode === null) return undefined;
  const error = instance
    .stderr()
    .split('\n')
    .filter((l) => /^\w*Error\b|Error:/.test(l.trim()))
    .pop()
    ?.trim();
  return `instance ${n} exited (${exitCode ?? signalCode})${error ? `: ${error}` : ''}`;
}

/**
 * One room, A on `procs[0]` and B on the last of `procs`: one message each way. Resolves with how
 * many arrived within `PROBE_MS` (2 when chat works there) and, when not, why.
 */
async function probe(
  procs: Instance[],
  pair: Parameters<Side['connect']>[0][number],
): Promise<{ delivered: number; error?: string }> {
  const side = new Side('probe', procs, `p${Date.now().toString(36)}`);
  let error: string | undefined;
  try {
    await side.connect([pair], true);
    for (const c of side.clients) side.send(c, true);
    await waitFor('both probe messages', () => side.tracker.delivered === 2, PROBE_MS).catch(() => undefined);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  } finally {
    side.disconnect();
  }
  const exits = procs.map((p, i) => exitOf(p, i + 1)).filter((e) => e !== undefined);
  const why = [error, ...exits].filter(Boolean).join('; ');
  return { delivered: side.tracker.delivered, ...(why ? { error: why } : {}) };
}

function reportSteady(report: Report, name: string, m: Measured, target: boolean): void {
  const r = m.result;
  report.info(name, 'throughput', r.delivered / r.seconds, 'msg/s');
  report.info(name, 'A→B p50', percentile(r.latencies, 50), 'ms');
  if (target) report.atMost(name, 'A→B p99', percentile(r.latencies, 99), 'ms', TARGET_P99_MS);
  else report.info(name, 'A→B p99', percentile(r.latencies, 99), 'ms');
  report.info(name, 'server CPU per msg', r.cpuMicros / Math.max(1, r.delivered), 'µs');
  if (m.dbCpuPerMsg !== undefined) report.info(name, 'database CPU per msg', m.dbCpuPerMsg, 'µs');
  if (r.lost > 0) report.note(`${name}: ${r.lost} of ${r.sent} messages not delivered within 20 s`);
  if (m.closed > 0) report.note(`${name}: the servers closed ${m.closed} clients`);
}

/**
 * Issue 14: chat across instances. Two server instances on one PostgreSQL database (each in its
 * own process); 200 rooms, each with its first user's y-websocket client on instance 1 and the
 * second's on instance 2, each client sending one message every 400 ms (1,000 msg/s in all, the
 * steady phase of bench/chat.ts); latency from A's push to the message in B's document. Target:
 * A→B p99 ≤ 75 ms. Beside it, for comparison, the same load with both ends on one instance.
 *
 * Probes first send one message each way in one room, on one instance and then across the two:
 * when chat does not work there (not relayed between instances, or an instance fails), the rows
 * report that failure (a miss across instances), the note says why, and that load is skipped.
 */
export async function benchPostgresChat(report: Report, options: PgChatOptions = {}): Promise<void> {
  const cluster = await benchCluster();
  const o = {
    ...DEFAULTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  } as typeof DEFAULTS;
  const data = await dataset({ gigs: 10_000, sessions: 500, chatPairs: o.rooms });
  const pairs = data.chatPairs.slice(0, o.rooms);
  const offered = Math.round((pairs.length * 2 * 1000) / o.intervalMs).toLocaleString('en-US');
  const instances = await startInstances(await databaseOf(data, 'chat'), 2, { profileDir: options.profileDir });
  const across = `chat on PostgreSQL, A and B on 2 instances, ${pairs.length} rooms × 2, ${offered} msg/s offered`;
  const one = `chat on PostgreSQL, A and B on 1 instance, ${pairs.length} rooms × 2, ${offered} msg/s offered`;
  try {
    // Probes first (a failure is reported, and the load it would have measured skipped): both
    // ends on instance 1, then one end on each instance, each in a room of its own.
    const alone = await probe([instances[0]!], pairs[0]!);
    const crossed = alone.error ? alone : await probe(instances, pairs[1]!);
    for (const [name, probed] of [
      [one, alone],
      [across, crossed],
    ] as const) {
      if (probed.delivered === 2 && !probed.error) continue;
      report.add({
        name,
        stat: 'probe: messages delivered',
        value: probed.delivered,
        unit: 'of 2',
        target: '2 of 2',
        // Only the rows across instances carry the issue's target.
        pass: name === across ? false : null,
      });
      if (name === across)
        report.add({ name, stat: 'A→B p99', value: NaN, unit: 'ms', target: `≤ ${TARGET_P99_MS} ms`, pass: false });
      report.note(
        `${name} FAILED: of one message each way in one room, ${probed.delivered} arrived within ${PROBE_MS / 1000} s` +
          `${probed.error ? ` (${probed.error})` : ''}; its load was skipped.`,
      );
    }
    if (alone.delivered === 2 && !alone.error)
      reportSteady(report, one, await steadyOn([instances[0]!], pairs, o, 'one'), false);
    if (crossed.delivered === 2 && !crossed.error)
      reportSteady(report, across, await steadyOn(instances, pairs, o, 'across'), true);
  } finally {
    await stopAll(instances);
    noteCluster(report, cluster);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStandalone('Chat across instances on PostgreSQL', async (report) => {
    try {
      await benchPostgresChat(report, {
        rooms: numFlag('rooms'),
        intervalMs: numFlag('interval'),
        steadySeconds: numFlag('seconds'),
        profileDir: process.argv.includes('--profile') ? 'bench/results/profiles' : undefined,
      });
    } finally {
      await removeDatabases();
    }
  });
}
