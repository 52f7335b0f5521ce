import { EventEmitter } from 'node:events';
import type { Config } from './config';
import { LOGIN_GUARD, LoginGuard } from './auth/login-guard';
import { RateLimiter } from './http/rate-limit';
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
    /** Per-user write quotas on pushes. */
    writes: WriteQuotas;
  };
  log: (message: string, err?: unknown) => void;
  /** 'session-revoked' (sessionId): open streams and sockets of that session close. */
  events: EventEmitter;
};

export function createContext(config: Config, store: Store, now: () => number = Date.now): AppContext {
  const on = config.rateLimits;
  const minute = 60_000;
  return {
    config,
    store,
    now,
    limits: {
      login: new LoginGuard(on, LOGIN_GUARD, now),
      loginPerIp: new RateLimiter(50, 15 * minute, on, now),
      signupPerIp: new RateLimiter(20, 60 * minute, on, now),
      waitlistPerIp: new RateLimiter(20, 60 * minute, on, now),
      writes: createWriteQuotas(on, now),
    },
    events: new EventEmitter().setMaxListeners(0),
    log:
      config.logLevel === 'silent'
        ? () => {}
        : (message, err) => console.error(`[server] ${message}`, err ?? ''),
  };
}
