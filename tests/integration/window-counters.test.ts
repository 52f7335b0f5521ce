import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_GUARD, LOGIN_MESSAGES, LoginGuard } from '../../sync-server/auth/login-guard';
import { RateLimiter } from '../../sync-server/http/rate-limit';
import { MemoryWindowCounters, type WindowCounters } from '../../sync-server/http/window-counters';
import { migrate } from '../../sync-server/store/postgres/migrations';
import { PgWindowCounters } from '../../sync-server/store/postgres/pg-window-counters';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';

// The rate limits' counters, in memory and in PostgreSQL: the same contract, the same tests; then
// the limits built on them, shared by several instances.

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 20 });
  await migrate(pool);
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

const MINUTE = 60_000;

describe.each([
  ['in memory', () => new MemoryWindowCounters()],
  ['in PostgreSQL', () => new PgWindowCounters(pool)],
] as const)('window counters %s', (_name, make: () => WindowCounters) => {
  const key = (k: string) => `${_name}:${k}:${Math.random()}`;

  it('count within a window and start a new one once it has passed', async () => {
    const c = make();
    const k = key('w');
    expect(await c.add(k, 1, { now: 1_000, windowMs: MINUTE })).toEqual({ start: 1_000, count: 1, added: true });
    expect(await c.add(k, 2, { now: 30_000, windowMs: MINUTE })).toEqual({ start: 1_000, count: 3, added: true });
    expect(await c.add(k, 1, { now: 61_000, windowMs: MINUTE })).toEqual({ start: 61_000, count: 1, added: true });
    expect(await c.add(k, 0, { now: 62_000, windowMs: MINUTE })).toEqual({ start: 61_000, count: 1, added: true });
  });

  it('add all or none under a limit', async () => {
    const c = make();
    const k = key('limit');
    expect((await c.add(k, 4, { now: 0, windowMs: MINUTE, limit: 5 })).added).toBe(true);
    expect(await c.add(k, 2, { now: 1, windowMs: MINUTE, limit: 5 })).toEqual({ start: 0, count: 4, added: false });
    expect(await c.add(k, 1, { now: 2, windowMs: MINUTE, limit: 5 })).toEqual({ start: 0, count: 5, added: true });
    // A batch larger than the limit never fits, even in a fresh window.
    expect(await c.add(key('big'), 6, { now: 0, windowMs: MINUTE, limit: 5 })).toMatchObject({
      count: 0,
      added: false,
    });
  });

  it('let no more than the limit through when many take at once', async () => {
    const c = make();
    const k = key('burst');
    const results = await Promise.all(
      Array.from({ length: 40 }, () => c.add(k, 1, { now: 5, windowMs: MINUTE, limit: 10 })),
    );
    expect(results.filter((r) => r.added)).toHaveLength(10);
    expect((await c.add(k, 0, { now: 6, windowMs: MINUTE })).count).toBe(10);
  });

  it('adjust a count, never below zero, clear a key, and prune old windows', async () => {
    const c = make();
    const k = key('adjust');
    await c.add(k, 3, { now: 0, windowMs: MINUTE });
    await c.adjust(k, -1);
    expect((await c.add(k, 0, { now: 1, windowMs: MINUTE })).count).toBe(2);
    await c.adjust(k, -5);
    expect((await c.add(k, 0, { now: 1, windowMs: MINUTE })).count).toBe(0);
    await c.add(k, 2, { now: 1, windowMs: MINUTE });
    await c.adjust(k, 'clear');
    expect(await c.add(k, 0, { now: 2, windowMs: MINUTE })).toEqual({ start: 2, count: 0, added: true });

    const old = key('old');
    await c.add(old, 1, { now: 0, windowMs: 10 * MINUTE });
    await c.prune(5 * MINUTE, MINUTE);
    // Pruned: a new window starts although the old one had not ended.
    expect(await c.add(old, 0, { now: 5 * MINUTE, windowMs: 10 * MINUTE })).toMatchObject({
      start: 5 * MINUTE,
      count: 0,
    });
  });
});

describe('limits shared by three instances through PostgreSQL', () => {
  it('limit a login burst spread over them as if it hit one: 10 checked at once, 3 in the lane, the rest refused', async () => {
    const counters = new PgWindowCounters(pool);
    // The lane's delay lasts until every attempt outside it has been answered, as a real delay
    // (a second or more) would: attempts are not let into a lane freed by a quick neighbour.
    let answered = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const settle = () => ++answered === 40 - LOGIN_GUARD.laneSize && open();
    const guards = [0, 1, 2].map(() => new LoginGuard(true, LOGIN_GUARD, Date.now, () => gate, counters));
    const email = `victim-${Math.random()}@x.co`;
    const settled = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        guards[i % 3]!.admit(email, `10.0.0.${i}`).then(
          (a) => (settle(), a.failed(), a),
          (err: unknown) => {
            settle();
            throw err;
          },
        ),
      ),
    );
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(10 + LOGIN_GUARD.laneSize);
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(refused.map((r) => (r.reason as Error).message)).toEqual(Array(27).fill(LOGIN_MESSAGES.laneFull));
  });

  it('let a per-address limit through exactly its count whichever instance is hit', async () => {
    const counters = new PgWindowCounters(pool);
    const limiters = [0, 1, 2].map(() => new RateLimiter('login-ip', 50, 15 * MINUTE, true, Date.now, counters));
    const ip = `192.0.2.${Math.floor(Math.random() * 200)}-${Math.random()}`;
    const results = await Promise.allSettled(
      Array.from({ length: 80 }, (_, i) =>
        limiters[i % 3]!.hit(ip, 'Too many login attempts. Please try again later.'),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(50);
  });
});
