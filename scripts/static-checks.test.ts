import { describe, expect, it } from 'vitest';
import { runChecks, summary, type CheckResult } from './static-checks';

/** Each "check" is a Node one-liner: what it prints, how long it takes, how it exits. */
const SCRIPTS: Record<string, string> = {
  slow: "setTimeout(() => { console.log('slow done'); }, 600)",
  failing: "setTimeout(() => { console.error('bad formatting in a.ts'); process.exit(2); }, 200)",
  quick: "setTimeout(() => { console.log('quick done'); }, 200)",
};
const node = (name: string): [string, string[]] => [process.execPath, ['-e', SCRIPTS[name] ?? 'process.exit(9)']];

describe('static checks', () => {
  it('runs the checks at once, prints each whole as it ends, and fails naming the check that failed', async () => {
    const printed: CheckResult[] = [];
    const started = performance.now();
    const results = await runChecks(['slow', 'failing', 'quick'], (r) => printed.push(r), node);
    const seconds = (performance.now() - started) / 1000;

    expect(results.map((r) => [r.name, r.code])).toEqual([
      ['slow', 0],
      ['failing', 2],
      ['quick', 0],
    ]);
    expect(results[0]!.output).toBe('slow done\n');
    expect(results[1]!.output).toBe('bad formatting in a.ts\n');
    // The quick checks end (and are printed) while the slow one still runs: they were started
    // together, so the whole run takes about the slowest one's time, not the sum (one after
    // another, it would take 1 s or more).
    expect(printed.map((r) => r.name).at(-1)).toBe('slow');
    expect(seconds).toBeLessThan(results.reduce((sum, r) => sum + r.seconds, 0) - 0.3);
    expect(summary(results)).toEqual({ ok: false, line: 'Static checks failed: failing.' });
  });

  it('passes only when every check passes', async () => {
    const results = await runChecks(['quick', 'slow'], () => {}, node);
    expect(summary(results)).toEqual({ ok: true, line: 'Static checks passed: quick, slow.' });
  });

  it('a check that cannot start fails the run', async () => {
    const results = await runChecks(
      ['x'],
      () => {},
      () => ['/nonexistent/checker', []],
    );
    expect(results[0]!.code).not.toBe(0);
    expect(results[0]!.output).toContain('ENOENT');
    expect(summary(results).ok).toBe(false);
  });
});
