import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock';

describe('KeyedLock', () => {
  it('runs tasks of one key one at a time, in arrival order, and tasks of other keys alongside', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a1 = lock.run('a', async () => {
      log.push('a1 start');
      await gate;
      log.push('a1 end');
    });
    const a2 = lock.run('a', async () => {
      log.push('a2');
    });
    await lock.run('b', async () => {
      log.push('b');
    });
    expect(log).toEqual(['a1 start', 'b']);
    release();
    await Promise.all([a1, a2]);
    expect(log).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });

  it('a failed task rejects its own caller only; the next task still runs', async () => {
    const lock = new KeyedLock();
    const failed = lock.run('k', async () => {
      throw new Error('boom');
    });
    const next = lock.run('k', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('of 50 concurrent read-decide-write tasks with an await inside, exactly one acts', async () => {
    const lock = new KeyedLock();
    let done = false;
    let acted = 0;
    await Promise.all(
      Array.from({ length: 50 }, () =>
        lock.run('application', async () => {
          if (done) return;
          await new Promise((r) => setImmediate(r));
          acted += 1;
          done = true;
        }),
      ),
    );
    expect(acted).toBe(1);
  });
});
