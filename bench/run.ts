import { benchBrowserBoard } from './browser-board';
import { benchBundle } from './bundle';
import { benchChat } from './chat';
import { parseSize } from './data/generate';
import { benchFanout } from './fanout';
import { benchInitialSync } from './initial-sync';
import { benchLighthouse } from './lighthouse';
import { benchMemory } from './memory';
import { printReport, Report } from './report';
import { benchServerPush } from './server-push';
import { flag } from './support/cli';
import { removeDatasets } from './support/datasets';

/**
 * `npm run bench [name ...] [--sizes=1k,10k] [--profile]`: every benchmark of issue 8 in one run,
 * or only the named ones: bundle, push, initial-sync, fanout, chat, browser, lighthouse, memory.
 * The generated datasets are shared between benchmarks and removed at the end.
 */
const report = new Report();
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const profileDir = process.argv.includes('--profile') ? 'bench/results/profiles' : undefined;
const started = performance.now();
let failed = false;

const benches: [string, () => Promise<unknown>][] = [
  ['bundle', () => benchBundle(report)],
  ['push', () => benchServerPush(report, { sizes: flag('sizes')?.split(',').map(parseSize), profileDir })],
  ['initial-sync', () => benchInitialSync(report)],
  ['fanout', () => benchFanout(report)],
  ['chat', () => benchChat(report, { profileDir })],
  ['browser', () => benchBrowserBoard(report)],
  ['lighthouse', () => benchLighthouse(report)],
  ['memory', () => benchMemory(report)],
];
const unknown = only.filter((n) => !benches.some(([name]) => name === n));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${benches.map(([n]) => n).join(', ')}`);
  process.exit(2);
}

try {
  for (const [name, run] of benches) {
    if (only.length > 0 && !only.includes(name)) continue;
    console.log(`\n== ${name}`);
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
}
printReport('Creative Gigs benchmarks', report, (performance.now() - started) / 1000);
if (failed) process.exitCode = 1;
