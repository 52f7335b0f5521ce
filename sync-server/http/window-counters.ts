/**
 * Fixed-window counters by key: what rate limits and quotas remember. In memory for one server
 * process (a cache it may lose on restart), or in the database when several instances must count
 * as one (sync-server/store/postgres/pg-window-counters.ts).
 */

/** A key's current window: when it began and what it has counted. */
export type CounterWindow = { start: number; count: number };

export type AddOptions = {
  /** Clock reading for this call. */
  now: number;
  /** A window lasts this long; the first count after it starts a new one. */
  windowMs: number;
  /** All or none: nothing is added when the count would pass this. */
  limit?: number;
};

export interface WindowCounters {
  /**
   * Adds `n` to `key`'s current window and returns it as it is after, with `added` false when a
   * `limit` kept the count from passing it (then nothing was added). `n = 0` reads the window.
   */
  add(key: string, n: number, options: AddOptions): Promise<CounterWindow & { added: boolean }>;
  /**
   * Changes the count of `key`'s current window by `delta` (never below 0), or clears the key:
   * a success takes back its reserved failure, a refused batch gives back what it took.
   */
  adjust(key: string, delta: number | 'clear'): Promise<void>;
  /** Forgets windows that began more than `olderThanMs` before `now`. */
  prune(now: number, olderThanMs: number): Promise<void>;
}

export class MemoryWindowCounters implements WindowCounters {
  private readonly windows = new Map<string, CounterWindow>();

  constructor(private readonly maxKeys = 100_000) {}

  add(key: string, n: number, { now, windowMs, limit }: AddOptions): Promise<CounterWindow & { added: boolean }> {
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > this.maxKeys) this.pruneNow(now, windowMs);
    }
    const added = limit === undefined || w.count + n <= limit;
    if (added) w.count += n;
    return Promise.resolve({ start: w.start, count: w.count, added });
  }

  adjust(key: string, delta: number | 'clear'): Promise<void> {
    if (delta === 'clear') this.windows.delete(key);
    else {
      const w = this.windows.get(key);
      if (w) w.count = Math.max(0, w.count + delta);
    }
    return Promise.resolve();
  }

  prune(now: number, olderThanMs: number): Promise<void> {
    this.pruneNow(now, olderThanMs);
    return Promise.resolve();
  }

  private pruneNow(now: number, olderThanMs: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= olderThanMs) this.windows.delete(k);
  }
}
