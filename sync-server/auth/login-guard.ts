import { tooManyRequests } from '../http/errors';
import { MemoryWindowCounters, type WindowCounters } from '../http/window-counters';

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
 * victim logging in does not give the attacker a fresh allowance.
 *
 * The counts live in `counters` (in memory, or in the database so that several instances count as
 * one). The lane's one-at-a-time order is kept per process; across instances the number of
 * attempts in an email's lane is still at most `laneSize` (docs/decisions/023).
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

type Lane = { tail: Promise<void> };

/** One admitted attempt: report its outcome with `succeeded()` or `failed()`, exactly once. */
export type LoginAttempt = { succeeded(): void; failed(): void };

const NOOP: LoginAttempt = { succeeded() {}, failed() {} };

/** A lane's count of admitted attempts resets after this long, should an instance die holding some. */
const LANE_WINDOW_MS = 10 * 60_000;

export class LoginGuard {
  /** This process's lanes: one attempt at a time per email, in arrival order. */
  private lanes = new Map<string, Lane>();

  constructor(
    private readonly enabled = true,
    private readonly options: LoginGuardOptions = LOGIN_GUARD,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    private readonly counters: WindowCounters = new MemoryWindowCounters(),
  ) {}

  /** Resolves when the attempt may check its password (maybe after a delay); throws a 429 when it may not. */
  async admit(email: string, address: string): Promise<LoginAttempt> {
    if (!this.enabled) return NOOP;
    const o = this.options;
    const now = this.now();
    const window = { now, windowMs: o.windowMs };
    const keys = {
      pair: `login-pair\n${email}\n${address}`,
      email: `login-email\n${email}`,
      lane: `login-lane\n${email}`,
    };
    // Reserved before the password is checked; a refusal below gives the reservations back.
    const pair = await this.counters.add(keys.pair, 1, { ...window, limit: o.pairLimit });
    const retryAfter = Math.ceil((pair.start + o.windowMs - now) / 1000);
    if (!pair.added) throw tooManyRequests(LOGIN_MESSAGES.addressLocked, retryAfter);
    const failuresBefore = (await this.counters.add(keys.email, 1, window)).count - 1;
    const attempt = this.reservation(keys.pair, keys.email);
    if (failuresBefore < o.emailThreshold) return attempt;

    // Under attack: slowed down, one at a time. A refused attempt keeps its reservations: it was
    // an attempt, and giving them back would let a concurrent burst's refusals lower the count
    // others are admitted by (on several instances the order of their counts is not theirs).
    if (pair.count - 1 >= o.pairLimitUnderAttack) throw tooManyRequests(LOGIN_MESSAGES.addressLocked, retryAfter);
    const inLane = await this.counters.add(keys.lane, 1, { now, windowMs: LANE_WINDOW_MS, limit: o.laneSize });
    if (!inLane.added) throw tooManyRequests(LOGIN_MESSAGES.laneFull, 60);
    const lane = this.lanes.get(email) ?? { tail: Promise.resolve() };
    this.lanes.set(email, lane);
    const previous = lane.tail;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    lane.tail = mine;
    await previous;
    await this.sleep(Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.min(failuresBefore - o.emailThreshold, 20)));
    const leave = () => {
      release();
      if (this.lanes.get(email)?.tail === mine) this.lanes.delete(email);
      this.background(this.counters.adjust(keys.lane, -1));
    };
    return {
      succeeded: () => (leave(), attempt.succeeded()),
      failed: () => (leave(), attempt.failed()),
    };
  }

  /** The attempt's reserved failure: kept when it fails; on success the address's failures are cleared and the email's reservation given back. */
  private reservation(pairKey: string, emailKey: string): LoginAttempt {
    let settled = false;
    return {
      succeeded: () => {
        if (settled) return;
        settled = true;
        this.background(this.counters.adjust(pairKey, 'clear').then(() => this.counters.adjust(emailKey, -1)));
      },
      failed: () => {
        settled = true;
      },
    };
  }

  /** Bookkeeping after the answer: a failure to record it only leaves a count higher than it should be. */
  private background(p: Promise<void>): void {
    p.catch(() => undefined);
  }
}
