import { loadNote, printReport, Report } from '../report';
import { removeDatasets } from './datasets';

/** `--name=value` from the command line. */
export function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** `--name=<number>` from the command line (undefined when absent or empty). */
export function numFlag(name: string): number | undefined {
  const text = flag(name);
  return text ? Number(text) : undefined;
}

/**
 * One benchmark run on its own (`node --import tsx bench/<name>.ts`): runs it into a fresh report,
 * removes the datasets it generated, and prints and saves the report.
 */
export async function runStandalone(title: string, run: (report: Report) => Promise<unknown>): Promise<void> {
  const report = new Report();
  report.note(loadNote(title));
  const started = performance.now();
  try {
    await run(report);
  } finally {
    await removeDatasets();
  }
  printReport(title, report, (performance.now() - started) / 1000);
}
