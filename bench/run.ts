import { printReport, Report } from './report';
import { parseSize } from './data/generate';
import { removeDatasets } from './support/datasets';
import { benchServerPush } from './server-push';

/** `--name=value` from the command line. */
function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

const report = new Report();
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const started = performance.now();
const want = (name: string) => only.length === 0 || only.includes(name);
try {
  const sizes = flag('sizes')?.split(',').map(parseSize);
  if (want('push')) await benchServerPush(report, { sizes, profileDir: process.argv.includes('--profile') ? 'bench/results/profiles' : undefined });
} finally {
  await removeDatasets();
}
printReport('Creative Gigs benchmarks', report, (performance.now() - started) / 1000);
