import { tooManyRequests } from './errors';

/**
 * A fixed-window counter per key, in memory. It is a cache the server can lose on restart (and
 * that each instance would keep for itself behind a load balancer), which is acceptable for
 * throttling abuse.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly enabled = true,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit for `key`; throws a 429 when the key is over its limit. */
  hit(key: string, message: string): void {
    if (!this.enabled) return;
    const w = this.current(key);
    w.count += 1;
    if (w.count > this.limit) {
      throw tooManyRequests(message, Math.ceil((w.start + this.windowMs - this.now()) / 1000));
    }
  }

  /**
   * Counts `n` hits for `key` at once, all or none: throws a 429 (and counts nothing) when they
   * would take the key over its limit, so a refused batch can be sent again as it is later.
   */
  take(key: string, n: number, message: string): void {
    this.check(key, n, message);
    if (this.enabled && n > 0) this.current(key).count += n;
  }

  /** Throws the 429 `take` would throw, without counting anything. */
  check(key: string, n: number, message: string): void {
    if (!this.enabled || n <= 0) return;
    const w = this.current(key);
    if (w.count + n > this.limit) {
      throw tooManyRequests(message, Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000)));
    }
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string) {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.prune(t);
    }
    return w;
  }

  private prune(t: number) {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}
