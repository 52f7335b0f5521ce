import { describe, expect, it } from 'vitest';
import { STATISTICS, TableStatistics } from './statistics';

/** An ANALYZE the test ends when it wants: each call's resolve, in order. */
function analyzer(outcome: 'ok' | 'fail' = 'ok') {
  const runs: (() => void)[] = [];
  const analyze = () =>
    new Promise<void>((resolve, reject) => runs.push(() => (outcome === 'ok' ? resolve() : reject(new Error('down')))));
  return { analyze, runs };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the planner statistics the PostgreSQL store keeps', () => {
  it(`asks for an ANALYZE once ${STATISTICS.minRows} rows are written, then when the writes reach half the table`, async () => {
    const { analyze, runs } = analyzer();
    const stats = new TableStatistics(analyze);
    stats.wrote(STATISTICS.minRows - 1);
    expect(runs).toHaveLength(0);
    stats.wrote(1);
    expect(runs).toHaveLength(1);
    runs[0]!();
    await stats.settled();
    // 200 rows then: the minimum still rules.
    stats.wrote(STATISTICS.minRows - 1);
    expect(runs).toHaveLength(1);
    stats.wrote(1);
    expect(runs).toHaveLength(2);
    runs[1]!();
    await stats.settled();
    // 400 rows, then 1,000 written: 1,400, and the next after 700 more.
    stats.wrote(1_000);
    runs[2]!();
    await stats.settled();
    stats.wrote(699);
    expect(runs).toHaveLength(3);
    stats.wrote(1);
    expect(runs).toHaveLength(4);
  });

  it('starts from the documents the instance loaded', () => {
    const { analyze, runs } = analyzer();
    const stats = new TableStatistics(analyze);
    stats.loaded(10_000);
    stats.wrote(4_999);
    expect(runs).toHaveLength(0);
    stats.wrote(1);
    expect(runs).toHaveLength(1);
  });

  it('runs one at a time: rows written meanwhile count toward the next', async () => {
    const { analyze, runs } = analyzer();
    const stats = new TableStatistics(analyze);
    stats.wrote(STATISTICS.minRows);
    stats.wrote(STATISTICS.minRows * 5);
    expect(runs).toHaveLength(1);
    runs[0]!();
    await stats.settled();
    await tick();
    stats.wrote(1);
    expect(runs).toHaveLength(2);
  });

  it('a failed ANALYZE costs nothing but a later one: the writes go on being counted', async () => {
    const { analyze, runs } = analyzer('fail');
    const stats = new TableStatistics(analyze);
    stats.wrote(STATISTICS.minRows);
    runs[0]!();
    await expect(stats.settled()).resolves.toBeUndefined();
    stats.wrote(STATISTICS.minRows);
    expect(runs).toHaveLength(2);
  });
});
