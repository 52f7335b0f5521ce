import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH } from '../tests/support/browser';

/** One printed row: a figure, its target, and whether it passes (null: shown for information). */
export type Row = { name: string; stat: string; value: number; unit: string; target: string; pass: boolean | null };

/** Collects rows as the benchmarks run, plus notes (skipped parts, failures). */
export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];

  add(row: Row): void {
    this.rows.push(row);
    console.log(`  ${formatRow(row).join('  ')}`);
  }

  info(name: string, stat: string, value: number, unit: string): void {
    this.add({ name, stat, value, unit, target: '', pass: null });
  }

  /** `value` against an upper bound. */
  atMost(name: string, stat: string, value: number, unit: string, max: number, target = `≤ ${fmt(max)} ${unit}`): void {
    this.add({ name, stat, value, unit, target, pass: value <= max });
  }

  /** `value` against a lower bound. */
  atLeast(
    name: string,
    stat: string,
    value: number,
    unit: string,
    min: number,
    target = `≥ ${fmt(min)} ${unit}`,
  ): void {
    this.add({ name, stat, value, unit, target, pass: value >= min });
  }

  note(text: string): void {
    this.notes.push(text);
    console.log(`  note: ${text}`);
  }
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export const median = (values: number[]) => percentile(values, 50);

function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function formatRow(r: Row): string[] {
  return [
    r.name,
    r.stat,
    `${fmt(r.value)} ${r.unit}`.trim(),
    r.target,
    r.pass === null ? 'info' : r.pass ? 'pass' : 'miss',
  ];
}

export function machineDescription(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${browserVersion()}, ${os.platform()} ${os.arch()}`;
}

/**
 * The browser the browser benchmarks and Lighthouse drive, as it names itself ("Chromium
 * 150.0.7871.100"): its IndexedDB and its engine change between versions, and so do those rows.
 */
function browserVersion(): string {
  try {
    const printed = execFileSync(CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /Chromium [0-9.]+/.exec(printed)?.[0] ?? printed.trim();
  } catch {
    return `no browser at ${CHROMIUM_PATH}`;
  }
}

/** The machine's load average now, e.g. `load 1.52 / 1.20 / 0.98 (1 / 5 / 15 min) on 2 cores`. */
export function loadDescription(): string {
  const [one, five, fifteen] = os.loadavg().map((l) => l.toFixed(2));
  return `load ${one} / ${five} / ${fifteen} (1 / 5 / 15 min) on ${os.cpus().length} cores`;
}

/** A note on what else the machine was doing as benchmark `name` began (its own earlier load included). */
export function loadNote(name: string): string {
  return `${name} began at ${loadDescription()}`;
}

/** The report as a Markdown table (the README carries one). */
export function markdownTable(rows: Row[]): string {
  const header = ['figure', 'stat', 'value', 'target', 'result'];
  const lines = [header, ...rows.map(formatRow)];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  const fmtLine = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [
    fmtLine(header),
    '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|',
    ...lines.slice(1).map(fmtLine),
  ].join('\n');
}

/** Prints the table and writes bench/results/latest.json and latest.md. */
export function printReport(title: string, report: Report, seconds: number): void {
  const machine = `${machineDescription()}, ${loadDescription()} at the end`;
  const at = new Date().toISOString();
  const table = markdownTable(report.rows);
  const passed = report.rows.filter((r) => r.pass === true).length;
  const missed = report.rows.filter((r) => r.pass === false).length;
  const summary = `${passed} pass, ${missed} miss; ran in ${(seconds / 60).toFixed(1)} min`;
  console.log(`\n${title} (${at}; ${machine})\n`);
  console.log(table);
  console.log(`\n${summary}`);
  for (const n of report.notes) console.log(`note: ${n}`);
  const dir = path.resolve('bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'latest.json'),
    JSON.stringify({ title, machine, at, seconds, rows: report.rows, notes: report.notes }, null, 2) + '\n',
  );
  const md = [
    `# ${title}`,
    '',
    `${at}, ${machine}. ${summary}.`,
    '',
    table,
    '',
    ...report.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'latest.md'), md);
  console.log(`\nWritten to bench/results/latest.json and latest.md`);
}
