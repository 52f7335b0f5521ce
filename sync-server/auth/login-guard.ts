import { tooManyRequests } from '../http/errors';

/**
 * Bounds password guessing without handing strangers a way to lock someone out
 * (docs/decisions/012). Per network address the login route has its own limit; here:
 *
 * - per (email, address): at most `pairLimit` failures in the window, then that address gets
 *   429 for that email, even with the right password;
 * - per email: past `emailThreshold` failures in the window the email is "under attack": its
 *   attempts are no longer refused for the email's sake but slowed down. They go one at a time
 *   through a lane, each after a delay that doubles with every failure past the threshold (up to
 *   `maxDelayMs`); only `laneSize` may be in the lane at once, and an address with
 *   `pairLimitUnderAttack` failures on the email is refused. So a right password from an address
 *   that has not failed gets through after a short wait, while a distributed attack gets about
 *   one guess per `maxDelayMs` per email.
 *
 * Attempts are counted before the password is checked (a reservation, kept as a failure or
 * released on success): a burst sent at once cannot pass the counts while the first guesses are
 * still being hashed. A success clears its address's failures but not the email's, so the
 * victim logging in does not give the attacker a fresh allowance. In memory, like the other
 * rate limits.
 */
export type LoginGuardOptions = {
  windowMs: number;
  pairLimit: number;
  emailThreshold: number;
  pairLimitUnderAttack: number;
  laneSize: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

export const LOGIN_GUARD: LoginGuardOptions = {
  windowMs: 15 * 60_000,
  pairLimit: 10,
  emailThreshold: 10,
  pairLimitUnderAttack: 3,
  laneSize: 3,
  baseDelayMs: 1000,
  maxDelayMs: 15_000,
};

export const LOGIN_MESSAGES = {
  addressLocked: 'Too many failed login attempts for this account. Please try again later.',
  laneFull: 'Too many login attempts for this account right now. Please try again in a minute.',
} as const;

type Window = { start: number; count: number };
type Lane = { tail: Promise<void>; admitted: number };

/** One admitted attempt: report its outcome with `succeeded()` or `failed()`, exactly once. */
export type LoginAttempt = { succeeded(): void; failed(): void };

const NOOP: LoginAttempt = { succeeded() {}, failed() {} };

export class LoginGuard {
  private pairs = new Map<string, Window>();
  private emails = new Map<string, Window>();
  private lanes = new Map<string, Lane>();

  constructor(
    private readonly enabled = true,
    private readonly options: LoginGuardOptions = LOGIN_GUARD,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Resolves when the attempt may check its password (maybe after a delay); throws a 429 when it may not. */
  async admit(email: string, address: string): Promise<LoginAttempt> {
    if (!this.enabled) return NOOP;
    const o = this.options;
    const pair = this.window(this.pairs, `${email}\n${address}`);
    const perEmail = this.window(this.emails, email);
    const retryAfter = Math.ceil((pair.start + o.windowMs - this.now()) / 1000);
    if (pair.count >= o.pairLimit) throw tooManyRequests(LOGIN_MESSAGES.addressLocked, retryAfter);
    if (perEmail.count < o.emailThreshold) return this.reserve(pair, perEmail);

    // Under attack: slowed down, one at a time.
    if (pair.count >= o.pairLimitUnderAttack) throw tooManyRequests(LOGIN_MESSAGES.addressLocked, retryAfter);
    const lane = this.lanes.get(email) ?? { tail: Promise.resolve(), admitted: 0 };
    if (lane.admitted >= o.laneSize) throw tooManyRequests(LOGIN_MESSAGES.laneFull, 60);
    this.lanes.set(email, lane);
    lane.admitted += 1;
    const over = perEmail.count - o.emailThreshold;
    const attempt = this.reserve(pair, perEmail);
    const previous = lane.tail;
    let release!: () => void;
    lane.tail = new Promise((resolve) => (release = resolve));
    await previous;
    await this.sleep(Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.min(over, 20)));
    const leave = () => {
      release();
      lane.admitted -= 1;
      if (lane.admitted === 0 && this.lanes.get(email) === lane) this.lanes.delete(email);
    };
    return {
      succeeded: () => (leave(), attempt.succeeded()),
      failed: () => (leave(), attempt.failed()),
    };
  }

  private reserve(pair: Window, perEmail: Window): LoginAttempt {
    pair.count += 1;
    perEmail.count += 1;
    let settled = false;
    return {
      succeeded: () => {
        if (settled) return;
        settled = true;
        pair.count = 0;
        perEmail.count = Math.max(0, perEmail.count - 1);
      },
      failed: () => {
        settled = true;
      },
    };
  }

  private window(map: Map<string, Window>, key: string): Window {
    const t = this.now();
    let w = map.get(key);
    if (!w || t - w.start >= this.options.windowMs) {
      w = { start: t, count: 0 };
      map.set(key, w);
      if (map.size > 100_000) for (const [k, old] of map) if (t - old.start >= this.options.windowMs) map.delete(k);
    }
    return w;
  }
}
