import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One printed row: a figure, its target, and whether it passes. */
export type Row = { name: string; stat: string; value: number; unit: string; target: string; pass: boolean | null };

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function printReport(title: string, rows: Row[]): void {
  const machine = `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
  console.log(`\n${title} (${new Date().toISOString()}; ${machine})\n`);
  const header = ['figure', 'stat', 'value', 'target', 'result'];
  const lines = rows.map((r) => [r.name, r.stat, `${r.value.toFixed(r.value < 10 ? 2 : 0)} ${r.unit}`, r.target, r.pass === null ? 'info' : r.pass ? 'pass' : 'MISS']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(fmt(header));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const l of lines) console.log(fmt(l));
  const dir = path.resolve('bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'latest.json'), JSON.stringify({ title, machine, at: new Date().toISOString(), rows }, null, 2));
  console.log(`\nWritten to ${path.relative(process.cwd(), path.join(dir, 'latest.json'))}`);
}
