import { benchBrowserBoard } from './browser-board';
import { benchBundle } from './bundle';
import { benchChat } from './chat';
import { benchChatCompaction } from './chat-compaction';
import { benchChatRecord } from './chat-record';
import { parseSize } from './data/generate';
import { benchFanout } from './fanout';
import { benchInitialSync } from './initial-sync';
import { benchLighthouse } from './lighthouse';
import { benchMemory } from './memory';
import { benchPostgresChat } from './postgres-chat';
import { benchPostgresFanout } from './postgres-fanout';
import { benchPostgresInitialSync } from './postgres-initial-sync';
import { benchPostgresPush } from './postgres-push';
import { loadNote, printReport, Report } from './report';
import { benchRxdbServer } from './rxdb-server';
import { benchServerPush } from './server-push';
import { flag } from './support/cli';
import { removeDatasets } from './support/datasets';
import { removeDatabases } from './support/postgres';

/**
 * `npm run bench [name ...] [--sizes=1k,10k] [--profile]`: every benchmark of issues 8 and 14 in
 * one run, or only the named ones: bundle, push, initial-sync, fanout, chat, chat-record, chat-compaction, browser, lighthouse,
 * memory, rxdb-server (the peer rows), and on PostgreSQL postgres-push, postgres-initial-sync, postgres-fanout, postgres-chat
 * (`postgres` names all four). The generated datasets are shared between benchmarks and removed
 * at the end, as are the PostgreSQL databases (and the embedded cluster, when DATABASE_URL is unset).
 */
const report = new Report();
const groups: Record<string, string[]> = {
  postgres: ['postgres-push', 'postgres-initial-sync', 'postgres-fanout', 'postgres-chat'],
};
const only = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .flatMap((a) => groups[a] ?? [a]);
const profileDir = process.argv.includes('--profile') ? 'bench/results/profiles' : undefined;
const started = performance.now();
let failed = false;

const benches: [string, () => Promise<unknown>][] = [
  ['bundle', () => benchBundle(report)],
  ['push', () => benchServerPush(report, { sizes: flag('sizes')?.split(',').map(parseSize), profileDir })],
  ['initial-sync', () => benchInitialSync(report)],
  ['fanout', () => benchFanout(report)],
  ['chat', () => benchChat(report, { profileDir })],
  ['chat-record', () => benchChatRecord(report)],
  ['chat-compaction', () => benchChatCompaction(report)],
  ['browser', () => benchBrowserBoard(report)],
  ['lighthouse', () => benchLighthouse(report)],
  ['memory', () => benchMemory(report)],
  ['rxdb-server', () => benchRxdbServer(report, { profileDir })],
  ['postgres-push', () => benchPostgresPush(report, { sizes: flag('sizes')?.split(',').map(parseSize), profileDir })],
  ['postgres-initial-sync', () => benchPostgresInitialSync(report)],
  ['postgres-fanout', () => benchPostgresFanout(report)],
  ['postgres-chat', () => benchPostgresChat(report, { profileDir })],
];
const unknown = only.filter((n) => !benches.some(([name]) => name === n));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark ${unknown.join(', ')}; choose from ${[...benches.map(([n]) => n), ...Object.keys(groups)].join(', ')}`,
  );
  process.exit(2);
}

try {
  for (const [name, run] of benches) {
    if (only.length > 0 && !only.includes(name)) continue;
    console.log(`\n== ${name}`);
    // The machine's load as each benchmark starts: figures from a busy machine say so.
    report.note(loadNote(name));
    const t = performance.now();
    try {
      await run();
    } catch (err) {
      // One broken benchmark must not hide the others' figures; the run still fails at the end.
      failed = true;
      report.note(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    console.log(`   ${name} took ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
} finally {
  await removeDatasets();
  await removeDatabases();
}
printReport('Creative Gigs benchmarks', report, (performance.now() - started) / 1000);
if (failed) process.exitCode = 1;
