import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalStore, type JournalStore } from '../store/journal-store';
import { Scheduler, type TimerJob } from './scheduler';

let store: JournalStore | undefined;
let dir: string | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});

async function openStore(): Promise<JournalStore> {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'scheduler-test-'));
  store = await openJournalStore({ dataDir: dir, indexes: {}, snapshotIntervalMs: 60_000, snapshotEveryCommits: 1e6 });
  return store;
}

/** Tasks (`task:` documents) with a `dueAt` and no `doneAt` are due; firing one marks it done (as a decision) and counts the firing. */
function markJob(s: JournalStore, fired: string[], fail = new Set<string>()): TimerJob {
  return {
    name: 'mark',
    *due(st, now) {
      for (const t of st.all('meta'))
        if (t.id.startsWith('task:') && !t._deleted && !t.doneAt && Number(t.dueAt) <= now) yield t.id.slice(5);
    },
    async fire(key, now) {
      if (fail.has(key)) throw new Error(`cannot fire ${key}`);
      const { value } = await s.transaction((read) => {
        const t = read.get('meta', `task:${key}`);
        if (!t || t.doneAt) return { writes: [], value: false };
        return { writes: [{ collection: 'meta', doc: { ...t, doneAt: now } }], value: true };
      });
      if (value) fired.push(key);
    },
  };
}

const gig = (id: string, dueAt: number) => ({
  collection: 'meta' as const,
  doc: { id: `task:${id}`, dueAt, _deleted: false },
});

describe('timers', () => {
  it('fire what is due from stored dates, once, and leave what is not due yet', async () => {
    const s = await openStore();
    let now = 1_000;
    await s.commit([gig('a', 500), gig('b', 1_000), gig('c', 5_000)]);
    const fired: string[] = [];
    const scheduler = new Scheduler(s, [markJob(s, fired)], {
      intervalMs: 60_000,
      now: () => now,
      log: () => {},
      instance: 'one',
    });
    expect(await scheduler.runDue()).toBe(2);
    expect(fired.sort()).toEqual(['a', 'b']);
    expect(await scheduler.runDue()).toBe(0);
    now = 5_000;
    expect(await scheduler.runDue()).toBe(1);
    expect(fired.sort()).toEqual(['a', 'b', 'c']);
  });

  it('let one of two instances looking at once claim a key; a claim that lapsed is taken by the other', async () => {
    const s = await openStore();
    let now = 10_000;
    await s.commit([gig('x', 0)]);
    const fired: string[] = [];
    const failing = new Set(['x']);
    const opts = (instance: string) => ({
      intervalMs: 60_000,
      claimMs: 1_000,
      now: () => now,
      log: () => {},
      instance,
    });
    // The first instance claims x and fails (it "crashed" mid-way): x stays due.
    const first = new Scheduler(s, [markJob(s, fired, failing)], opts('first'));
    const second = new Scheduler(s, [markJob(s, fired)], opts('second'));
    expect(await first.runDue()).toBe(0);
    // Within the claim the other instance leaves it alone …
    expect(await second.runDue()).toBe(0);
    expect(fired).toEqual([]);
    // … once it lapsed, it fires it.
    now += 1_001;
    expect(await second.runDue()).toBe(1);
    expect(fired).toEqual(['x']);
  });

  it('keep looking after a failure and fire the key when it succeeds', async () => {
    const s = await openStore();
    await s.commit([gig('y', 0)]);
    const fired: string[] = [];
    const failing = new Set(['y']);
    const logged: string[] = [];
    const scheduler = new Scheduler(s, [markJob(s, fired, failing)], {
      intervalMs: 60_000,
      now: () => 1,
      log: (m) => logged.push(m),
      instance: 'one',
    });
    expect(await scheduler.runDue()).toBe(0);
    expect(logged).toEqual(['timers: mark failed for y']);
    failing.clear();
    expect(await scheduler.runDue()).toBe(1);
    expect(fired).toEqual(['y']);
  });

  it('give a call made during a look the next look, after it, with the clock as it is then', async () => {
    const s = await openStore();
    let now = 1_000;
    await s.commit([gig('early', 1_000), gig('late', 5_000)]);
    const fired: string[] = [];
    const scheduler = new Scheduler(s, [markJob(s, fired)], {
      intervalMs: 60_000,
      now: () => now,
      log: () => {},
      instance: 'one',
    });
    const first = scheduler.runDue();
    // The clock moves while the first look is under way: a look that started before it would miss `late`.
    now = 5_000;
    const second = scheduler.runDue();
    const third = scheduler.runDue();
    expect(second).toBe(third);
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(fired).toEqual(['early', 'late']);
  });
});
