/**
 * A token bucket: `rate` tokens a second up to `burst`. `take` may overdraw (the debt is repaid
 * before anything else passes), so one large frame is never refused for its size alone.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.at) / 1000) * this.rate);
    this.at = t;
  }

  /** Ms until `take` may pass (0: now). */
  wait(): number {
    this.refill();
    return this.tokens > 0 ? 0 : Math.ceil(((1 - this.tokens) / this.rate) * 1000);
  }

  take(amount: number): void {
    this.refill();
    this.tokens -= amount;
  }

  get full(): boolean {
    this.refill();
    return this.tokens >= this.burst;
  }
}

/** What one user may send into one room: frames and bytes, over all their sockets there. */
export class SendBudget {
  private readonly frames: TokenBucket;
  private readonly bytes: TokenBucket;

  constructor(
    limits: { framesPerSecond: number; frameBurst: number; bytesPerSecond: number; byteBurst: number },
    now: () => number,
  ) {
    this.frames = new TokenBucket(limits.framesPerSecond, limits.frameBurst, now);
    this.bytes = new TokenBucket(limits.bytesPerSecond, limits.byteBurst, now);
  }

  /** Charges a frame of `size` bytes and returns 0, or returns the ms to wait before it may pass. */
  charge(size: number): number {
    const wait = Math.max(this.frames.wait(), this.bytes.wait());
    if (wait > 0) return wait;
    this.frames.take(1);
    this.bytes.take(size);
    return 0;
  }

  get idle(): boolean {
    return this.frames.full && this.bytes.full;
  }
}
