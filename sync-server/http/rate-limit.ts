import { tooManyRequests } from './errors';
import { MemoryWindowCounters, type WindowCounters } from './window-counters';

/**
 * A fixed-window limit per key. Its counts live in `counters`: in memory for one process (a
 * cache the server may lose on restart, acceptable for throttling abuse), or in the database when
 * several instances must count as one. `name` keeps the keys of different limits apart there.
 */
export class RateLimiter {
  constructor(
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly enabled = true,
    private readonly now: () => number = Date.now,
    private readonly counters: WindowCounters = new MemoryWindowCounters(),
  ) {}

  /** Counts one hit for `key`; throws a 429 when the key is over its limit. */
  async hit(key: string, message: string): Promise<void> {
    if (!this.enabled) return;
    const now = this.now();
    const w = await this.counters.add(this.key(key), 1, { now, windowMs: this.windowMs });
    if (w.count > this.limit) throw tooManyRequests(message, Math.ceil((w.start + this.windowMs - now) / 1000));
  }

  /**
   * Counts `n` hits for `key` at once, all or none: throws a 429 (and counts nothing) when they
   * would take the key over its limit, so a refused batch can be sent again as it is later.
   */
  async take(key: string, n: number, message: string): Promise<void> {
    if (!this.enabled || n <= 0) return;
    const now = this.now();
    const w = await this.counters.add(this.key(key), n, { now, windowMs: this.windowMs, limit: this.limit });
    if (!w.added) throw tooManyRequests(message, this.retryAfter(w.start, now));
  }

  /** Throws the 429 `take` would throw, without counting anything. */
  async check(key: string, n: number, message: string): Promise<void> {
    if (!this.enabled || n <= 0) return;
    const now = this.now();
    const w = await this.counters.add(this.key(key), 0, { now, windowMs: this.windowMs });
    if (w.count + n > this.limit) throw tooManyRequests(message, this.retryAfter(w.start, now));
  }

  /** Gives back `n` hits taken for `key` (a batch refused by another limit after this one took it). */
  async giveBack(key: string, n: number): Promise<void> {
    if (this.enabled && n > 0) await this.counters.adjust(this.key(key), -n);
  }

  async reset(key: string): Promise<void> {
    await this.counters.adjust(this.key(key), 'clear');
  }

  private key(key: string): string {
    return `${this.name}\n${key}`;
  }

  private retryAfter(start: number, now: number): number {
    return Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
  }
}
