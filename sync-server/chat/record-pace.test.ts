import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StampedMessage } from './record';
import { RecordPace } from './record-pace';

const EVERY = 1_000;

function message(senderId: string, timestamp: number, content = `at ${timestamp}`): StampedMessage {
  return {
    id: `${senderId}-${timestamp}`,
    senderId,
    receiverId: senderId === 'ann' ? 'bob' : 'ann',
    content,
    clientTime: timestamp,
    timestamp,
  };
}

/** A pace over a record function that logs each record and finishes when the test says. */
function paced() {
  const records: { room: string; messages: StampedMessage[]; done: () => void }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const pace = new RecordPace(
    (room, messages) =>
      new Promise<void>((resolve) => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        records.push({
          room,
          messages,
          done: () => {
            inFlight--;
            resolve();
          },
        });
      }),
    EVERY,
  );
  const finishAll = () => {
    for (const r of records) r.done();
  };
  return { pace, records, finishAll, mostInFlight: () => mostInFlight };
}

/** Whether a promise has settled, after the microtasks now queued have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a busy room's record, paced", () => {
  it("records a room's first messages at once, and answers once that record is written", async () => {
    const { pace, records } = paced();
    const first = pace.stamped('ann_bob', [message('ann', 1)]);
    expect(records.map((r) => r.messages.map((m) => m.id))).toEqual([['ann-1']]);
    expect(await settled(first)).toBe(false);
    records[0]!.done();
    expect(await settled(first)).toBe(true);
  });

  it('keeps the messages of the rest of the second for one record at its end, with the newest of each sender', async () => {
    const { pace, records, finishAll } = paced();
    void pace.stamped('ann_bob', [message('ann', 1)]);
    finishAll();
    // Answered at once: nothing is written for them yet.
    expect(await settled(pace.stamped('ann_bob', [message('bob', 2), message('bob', 3)]))).toBe(true);
    expect(await settled(pace.stamped('ann_bob', [message('ann', 4)]))).toBe(true);
    expect(await settled(pace.stamped('ann_bob', [message('bob', 5), message('ann', 6)]))).toBe(true);
    expect(records).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(EVERY);
    expect(records).toHaveLength(2);
    expect(records[1]!.messages.map((m) => m.id).sort()).toEqual(['ann-6', 'bob-5']);
  });

  it('records a room at once again after a quiet second, and holds nothing for it meanwhile', async () => {
    const { pace, records, finishAll } = paced();
    void pace.stamped('ann_bob', [message('ann', 1)]);
    finishAll();
    expect(pace.size).toBe(1);
    await vi.advanceTimersByTimeAsync(EVERY);
    expect(records).toHaveLength(1); // nothing waited
    expect(pace.size).toBe(0);
    void pace.stamped('ann_bob', [message('bob', 2)]);
    expect(records).toHaveLength(2);
  });

  it('a room busy for several seconds is recorded once a second, and never has two records in flight', async () => {
    const { pace, records, mostInFlight } = paced();
    let t = 0;
    for (let second = 0; second < 3; second++) {
      for (let i = 0; i < 10; i++) {
        void pace.stamped('ann_bob', [message(i % 2 ? 'ann' : 'bob', ++t)]);
        await vi.advanceTimersByTimeAsync(EVERY / 10);
      }
    }
    // The records are slow (none finished yet): each waits for the one before it.
    expect(mostInFlight()).toBe(1);
    for (let i = 0; i < 4 && records.length > i; i++) {
      records[i]!.done();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records.length).toBeLessThanOrEqual(4);
    expect(mostInFlight()).toBe(1);
    // The last record has the newest message of each sender.
    await vi.advanceTimersByTimeAsync(EVERY);
    for (const r of records) r.done();
    await vi.advanceTimersByTimeAsync(0);
    const newest = records.at(-1)!.messages.map((m) => m.timestamp);
    expect(Math.max(...newest)).toBe(t);
  });

  it('rooms are paced apart, whatever their names', async () => {
    const { pace, records, finishAll } = paced();
    for (const room of ['toString', '__proto__', 'constructor', 'ann_bob'])
      void pace.stamped(room, [message('ann', 1)]);
    expect(records.map((r) => r.room)).toEqual(['toString', '__proto__', 'constructor', 'ann_bob']);
    finishAll();
    void pace.stamped('__proto__', [message('bob', 2)]);
    await vi.advanceTimersByTimeAsync(EVERY);
    expect(records.slice(4).map((r) => [r.room, r.messages[0]!.id])).toEqual([['__proto__', 'bob-2']]);
  });

  it('flush writes what waits now (a room unloading); close writes every room and then records at once', async () => {
    const { pace, records, finishAll } = paced();
    void pace.stamped('one', [message('ann', 1)]);
    void pace.stamped('two', [message('ann', 1)]);
    finishAll();
    void pace.stamped('one', [message('bob', 2)]);
    void pace.stamped('two', [message('bob', 3)]);

    const flushed = pace.flush('one');
    await vi.advanceTimersByTimeAsync(0);
    expect(records.slice(2).map((r) => [r.room, r.messages[0]!.id])).toEqual([['one', 'bob-2']]);
    expect(await settled(flushed)).toBe(false);
    finishAll();
    await flushed;

    const closed = pace.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(records.slice(3).map((r) => [r.room, r.messages[0]!.id])).toEqual([['two', 'bob-3']]);
    finishAll();
    await closed;
    expect(pace.size).toBe(0);
    void pace.stamped('two', [message('ann', 4)]);
    expect(records).toHaveLength(5);
    expect(pace.size).toBe(0);
  });
});
