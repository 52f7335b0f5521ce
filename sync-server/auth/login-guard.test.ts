import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors';
import { LOGIN_GUARD, LOGIN_MESSAGES, LoginGuard, type LoginAttempt } from './login-guard';

/** A guard on a clock of its own; `slept` records each delay an attempt waited. */
function guard() {
  let t = 1_000_000;
  const slept: number[] = [];
  const g = new LoginGuard(
    true,
    LOGIN_GUARD,
    () => t,
    async (ms) => {
      slept.push(ms);
      await Promise.resolve();
    },
  );
  return { g, slept, advance: (ms: number) => (t += ms) };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError && err.status === 429) return err.message;
    throw err;
  }
  throw new Error('admitted');
}

const fail = async (g: LoginGuard, email: string, address: string) => (await g.admit(email, address)).failed();

describe('the login guard', () => {
  it('10 failures from 10 addresses do not lock the email: a right password from another address gets through after a short wait', async () => {
    const { g, slept } = guard();
    for (let i = 0; i < 10; i++) await fail(g, 'victim@x.co', `10.0.0.${i}`);
    expect(slept).toEqual([]);
    const attempt = await g.admit('victim@x.co', '192.168.1.1');
    expect(slept).toEqual([1000]);
    attempt.succeeded();
  });

  it('one address: 10 guesses checked, then refused even with the right password, for 15 minutes', async () => {
    const { g, advance } = guard();
    for (let i = 0; i < 10; i++) await fail(g, 'victim@x.co', '10.0.0.1');
    expect(await refusal(g.admit('victim@x.co', '10.0.0.1'))).toBe(LOGIN_MESSAGES.addressLocked);
    advance(LOGIN_GUARD.windowMs);
    (await g.admit('victim@x.co', '10.0.0.1')).succeeded();
  });

  it('a success clears its address’s failures, not the email’s', async () => {
    const { g, slept } = guard();
    for (let i = 0; i < 9; i++) await fail(g, 'a@x.co', '10.0.0.1');
    (await g.admit('a@x.co', '10.0.0.1')).succeeded();
    await fail(g, 'a@x.co', '10.0.0.1');
    expect(slept).toEqual([]);
    // The email has 10 failures, so this attempt waits in the lane; its address has only one
    // since the success, so it is let in.
    (await g.admit('a@x.co', '10.0.0.1')).succeeded();
    expect(slept).toEqual([1000]);
  });

  it('under attack, attempts are slowed down more with each failure and one address gets 3 guesses', async () => {
    const { g, slept } = guard();
    for (let i = 0; i < 10; i++) await fail(g, 'victim@x.co', `10.0.0.${i}`);
    for (let i = 0; i < 6; i++) await fail(g, 'victim@x.co', `10.0.1.${i}`);
    expect(slept).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000]);
    for (let i = 0; i < 3; i++) await fail(g, 'victim@x.co', '10.0.2.1');
    expect(await refusal(g.admit('victim@x.co', '10.0.2.1'))).toBe(LOGIN_MESSAGES.addressLocked);
  });

  it('a concurrent burst from 40 addresses: 10 at once, 3 in the lane one after the other, the rest refused', async () => {
    const { g } = guard();
    // Each admitted guess fails once admitted, which lets the next one in the lane through.
    const settled = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => g.admit('victim@x.co', `10.0.0.${i}`).then((a) => (a.failed(), a))),
    );
    const admitted = settled.filter((s): s is PromiseFulfilledResult<LoginAttempt> => s.status === 'fulfilled');
    expect(admitted).toHaveLength(10 + LOGIN_GUARD.laneSize);
    const refused = settled.filter((s) => s.status === 'rejected');
    expect(refused.map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(
      Array(27).fill(LOGIN_MESSAGES.laneFull),
    );
  });

  it('the lane lets one attempt check its password at a time', async () => {
    const { g } = guard();
    for (let i = 0; i < 10; i++) await fail(g, 'victim@x.co', `10.0.0.${i}`);
    const order: string[] = [];
    const first = g.admit('victim@x.co', '10.0.1.1').then((a) => (order.push('first in'), a));
    const second = g.admit('victim@x.co', '10.0.1.2').then((a) => (order.push('second in'), a));
    const a = await first;
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['first in']);
    order.push('first out');
    a.failed();
    (await second).succeeded();
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });

  it('does nothing with RATE_LIMITS=off', async () => {
    const g = new LoginGuard(false);
    for (let i = 0; i < 50; i++) await fail(g, 'a@x.co', '10.0.0.1');
    (await g.admit('a@x.co', '10.0.0.1')).succeeded();
  });
});
