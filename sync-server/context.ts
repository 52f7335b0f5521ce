import { EventEmitter } from 'node:events';
import type { Config } from './config';
import { LOGIN_GUARD, LoginGuard } from './auth/login-guard';
import { RateLimiter } from './http/rate-limit';
import { MemoryWindowCounters, type WindowCounters } from './http/window-counters';
import { createWriteQuotas, type WriteQuotas } from './replication/quotas';
import type { Store } from './store/store';

/** Everything a route needs, passed explicitly: no module-level state besides rebuildable caches. */
export type AppContext = {
  config: Config;
  store: Store;
  now: () => number;
  limits: {
    /** Per email and per (email, address): failed logins bounded, slowed down past a threshold. */
    login: LoginGuard;
    loginPerIp: RateLimiter;
    signupPerIp: RateLimiter;
    waitlistPerIp: RateLimiter;
    /** Public profile pages a user may read (reviews/profile-routes.ts). */
    profiles: RateLimiter;
    /** Per-user write quotas on pushes. */
    writes: WriteQuotas;
  };
  log: (message: string, err?: unknown) => void;
  /** 'session-revoked' (sessionId): open streams and sockets of that session close. */
  events: EventEmitter;
};

/**
 * `counters` holds the rate limits' and quotas' counts: in memory by default, in the database when
 * several instances must count as one.
 */
export function createContext(
  config: Config,
  store: Store,
  now: () => number = Date.now,
  counters: WindowCounters = new MemoryWindowCounters(),
): AppContext {
  const on = config.rateLimits;
  const minute = 60_000;
  return {
    config,
    store,
    now,
    limits: {
      login: new LoginGuard(on, LOGIN_GUARD, now, undefined, counters),
      loginPerIp: new RateLimiter('login-ip', 50, 15 * minute, on, now, counters),
      signupPerIp: new RateLimiter('signup-ip', 20, 60 * minute, on, now, counters),
      waitlistPerIp: new RateLimiter('waitlist-ip', 20, 60 * minute, on, now, counters),
      profiles: new RateLimiter('profiles', 120, minute, on, now, counters),
      writes: createWriteQuotas(on, now, counters),
    },
    events: new EventEmitter().setMaxListeners(0),
    log: config.logLevel === 'silent' ? () => {} : (message, err) => console.error(`[server] ${message}`, err ?? ''),
  };
}
