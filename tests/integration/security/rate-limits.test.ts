import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { LOGIN_GUARD } from '../../../sync-server/auth/login-guard';
import { gigDoc, PASSWORD, signUp, signUpWithProfile, uniqueEmail, write } from '../../support/fixtures';
import { TestClient, type JsonResponse } from '../../support/http-client';
import { startTestServer, type TestServer } from '../../support/in-process-server';
import { creds, expectHardened, ok, rawStream, reportChecks } from '../../support/security-checks';

reportChecks('rate-limits');

describe('5. rate limits hold under a burst', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ LOG_LEVEL: 'silent', RATE_LIMITS: 'on' });
  });
  afterAll(async () => {
    await limited.cleanup();
  });

  /** A client on a given network: the server trusts X-Forwarded-For from its loopback proxy. */
  class NetworkClient extends TestClient {
    constructor(
      baseUrl: string,
      private readonly ip: string,
    ) {
      super(baseUrl);
    }
    override request<T = Record<string, unknown>>(
      method: string,
      urlPath: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      return super.request<T>(method, urlPath, body, { 'x-forwarded-for': this.ip, ...headers });
    }
  }

  function expect429(label: string, res: JsonResponse<unknown>) {
    expect(res.status, label).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof (res.body as { error?: unknown }).error).toBe('string');
    expect((res.body as { error: string }).error).toMatch(/Too many/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expectHardened(`429 ${label}`, res.headers);
  }

  const signupBody = () => ({
    name: 'Burst',
    email: uniqueEmail('burst'),
    password: PASSWORD,
    confirmPassword: PASSWORD,
    termsAccepted: true,
  });
  const waitlistBody = () => ({ name: 'Burst', email: uniqueEmail('wait'), city: 'Lagos', location: 'NG' });
  const count = (collection: 'credentials' | 'waitlist') => [...limited.ctx.store.all(collection)].length;

  it('signup, login and waitlist bursts from one network: the limit gets through, the rest 429 and create nothing; other networks and routes carry on', async () => {
    const burstIp = '203.0.113.7';
    const net = (ip = burstIp) => new NetworkClient(limited.url, ip);
    // A real user on the bursting network, signed in before the burst.
    const resident = net();
    const residentUser = await signUpWithProfile(resident);
    const accountsBefore = count('credentials');

    // Sign-ups: 20 an hour per network; this burst is 26 at once (the resident used one).
    const signups = await Promise.all(Array.from({ length: 26 }, () => net().post('/api/auth/signup', signupBody())));
    const signupStatuses = signups.map((r) => r.status);
    expect(signupStatuses.filter((s) => s === 201)).toHaveLength(19);
    expect(signupStatuses.filter((s) => s === 429)).toHaveLength(7);
    expect(count('credentials') - accountsBefore).toBe(19);
    expect429(
      'signup burst',
      signups.find((r) => r.status === 429)!,
    );
    ok('signup burst: 20 per network, then 429, no account beyond');

    // Logins: 50 per 15 minutes per network; a burst of 56 wrong attempts spread over many emails.
    const logins = await Promise.all(
      Array.from({ length: 56 }, () =>
        net().post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'Wrong12345' }),
      ),
    );
    const loginStatuses = logins.map((r) => r.status);
    expect(loginStatuses.filter((s) => s === 401)).toHaveLength(50);
    expect(loginStatuses.filter((s) => s === 429)).toHaveLength(6);
    expect429(
      'login burst',
      logins.find((r) => r.status === 429)!,
    );
    const rightPassword = await net().post('/api/auth/login', creds(residentUser));
    expect429('login with the right password from the flooded network', rightPassword);
    ok('login burst: 50 per network, then 429 even for a right password');

    // Waitlist: 20 an hour per network.
    const entriesBefore = count('waitlist');
    const joins = await Promise.all(Array.from({ length: 25 }, () => net().post('/api/waitlist', waitlistBody())));
    expect(joins.filter((r) => r.status === 201)).toHaveLength(20);
    expect(joins.filter((r) => r.status === 429)).toHaveLength(5);
    expect(count('waitlist') - entriesBefore).toBe(20);
    expect429(
      'waitlist burst',
      joins.find((r) => r.status === 429)!,
    );
    ok('waitlist burst: 20 per network, then 429, no row beyond');

    // The signed-in resident of that network is not locked out of anything else.
    expect((await resident.get('/api/auth/session')).status).toBe(200);
    expect((await resident.get('/api/sync/gigs/pull?seq=0')).status).toBe(200);
    const gig = await write(resident, 'gigs', gigDoc());
    expect(gig.refusal).toBeUndefined();
    expect((await resident.get('/api/health')).status).toBe(200);
    const stream = await rawStream(limited.url, resident.cookieHeader());
    expect(stream.status).toBe(200);
    await stream.close();
    ok('a signed-in user on the flooded network keeps session, pull, push and stream');

    // Another network is untouched by the burst.
    const elsewhere = net('198.51.100.23');
    expect((await elsewhere.post('/api/auth/signup', signupBody())).status).toBe(201);
    expect((await net('198.51.100.23').post('/api/auth/login', creds(residentUser))).status).toBe(200);
    expect((await net('198.51.100.23').post('/api/waitlist', waitlistBody())).status).toBe(201);
    ok('another network can still sign up, log in and join the waitlist');
  });

  /** `count` wrong guesses at `email`, one after the other, each from its own address `prefix.<n>`. */
  async function wrongGuesses(email: string, prefix: string, count: number, from = 1) {
    for (let i = from; i < from + count; i++) {
      const res = await new NetworkClient(limited.url, `${prefix}.${i}`).post('/api/auth/login', {
        email,
        password: 'Wrong12345',
      });
      expect(res.status).toBe(401);
    }
  }

  it('10 wrong passwords for an email from 10 addresses do not lock its owner out: the right one from another address logs in', async () => {
    const victim = await signUp(new NetworkClient(limited.url, '198.18.0.1'));
    await wrongGuesses(victim.email, '198.18.1', 10);
    const owner = new NetworkClient(limited.url, '198.18.2.1');
    const login = await owner.post('/api/auth/login', creds(victim));
    expect(login.status).toBe(200);
    expect((await owner.get('/api/auth/session')).status).toBe(200);
    ok('failed logins from strangers never refuse the owner’s right password');
  });

  it('a brute force from one address: 10 passwords checked, then 429 there even for the right one; the owner elsewhere logs in', async () => {
    const victim = await signUp(new NetworkClient(limited.url, '198.18.10.1'));
    const attacker = () => new NetworkClient(limited.url, '198.18.11.1');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await attacker().post('/api/auth/login', { email: victim.email, password: `Wrong${i}Guess` })).status,
      );
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    expect429('right password from the guessing address', await attacker().post('/api/auth/login', creds(victim)));
    ok('one address: 10 guesses checked, then 429');
    expect((await new NetworkClient(limited.url, '198.18.12.1').post('/api/auth/login', creds(victim))).status).toBe(
      200,
    );
    ok('the owner logs in from another address');
  });

  it('a distributed attack is slowed down: past 10 failures each guess waits longer, one at a time, and an address gets 3', async () => {
    const victim = await signUp(new NetworkClient(limited.url, '198.18.20.1'));
    await wrongGuesses(victim.email, '198.18.21', 10);
    const waited: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const started = performance.now();
      expect(
        (
          await new NetworkClient(limited.url, `198.18.22.${i}`).post('/api/auth/login', {
            email: victim.email,
            password: 'Wrong12345',
          })
        ).status,
      ).toBe(401);
      waited.push(performance.now() - started);
    }
    // 1 s, 2 s, 4 s: about one guess per 15 s once the delay is at its longest.
    expect(waited[0]).toBeGreaterThanOrEqual(950);
    expect(waited[1]).toBeGreaterThanOrEqual(1950);
    expect(waited[2]).toBeGreaterThanOrEqual(3950);
    ok('past the threshold, each guess at the email waits longer');
    // Another email under attack: one address's guesses (1 s, 2 s, 4 s) stop at three.
    const other = await signUp(new NetworkClient(limited.url, '198.18.20.2'));
    await wrongGuesses(other.email, '198.18.24', 10);
    const one = () => new NetworkClient(limited.url, '198.18.23.1');
    for (let i = 0; i < 3; i++)
      expect((await one().post('/api/auth/login', { email: other.email, password: 'Wrong12345' })).status).toBe(401);
    expect429(
      'a fourth guess from one address while the email is under attack',
      await one().post('/api/auth/login', creds(other)),
    );
    ok('under attack, one address gets 3 guesses');
  }, 60_000);

  it('a concurrent burst of 40 guesses from 40 addresses gets at most 10 checked at once and 3 more one at a time; the email’s live sessions and other emails carry on', async () => {
    // A costlier hash than elsewhere, so the guesses are all in the server at once, as in an attack.
    const slow = await startTestServer({ LOG_LEVEL: 'silent', RATE_LIMITS: 'on', SCRYPT_LOG_N: '15' });
    onTestFinished(() => slow.cleanup());
    const victim = new NetworkClient(slow.url, '192.0.2.50');
    const victimUser = await signUpWithProfile(victim);
    // Watches (without changing) the server's scrypt runs: one per password the server checked.
    const scrypt = vi.spyOn(crypto, 'scrypt');
    onTestFinished(() => scrypt.mockRestore());
    const guesses = [...Array.from({ length: 39 }, (_, i) => `Wrong${i}Guess`), PASSWORD];
    const attempts = await Promise.all(
      guesses.map((password, i) =>
        new NetworkClient(slow.url, `192.0.2.${100 + i}`).post('/api/auth/login', {
          email: victimUser.email,
          password,
        }),
      ),
    );
    const evaluated = scrypt.mock.calls.length;
    scrypt.mockRestore();
    const statuses = attempts.map((r) => r.status);
    expect(evaluated, `passwords checked in a burst of 40: ${statuses.join(',')}`).toBeLessThanOrEqual(
      10 + LOGIN_GUARD.laneSize,
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - 10 - LOGIN_GUARD.laneSize);
    expect(statuses.filter((s) => s === 200).length + statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(
      10 + LOGIN_GUARD.laneSize,
    );
    expect429(
      'email under attack',
      attempts.find((r) => r.status === 429)!,
    );
    ok('a burst of 40 guesses at one email: at most 13 passwords checked, the rest 429');
    expect((await victim.get('/api/auth/session')).status).toBe(200);
    expect((await victim.get('/api/sync/users/pull?seq=0')).status).toBe(200);
    ok('the attacked email’s live session keeps working');
    const neighbour = new NetworkClient(slow.url, '192.0.2.100');
    const neighbourUser = await signUp(neighbour);
    expect(
      (await new NetworkClient(slow.url, '192.0.2.100').post('/api/auth/login', creds(neighbourUser))).status,
    ).toBe(200);
    ok('another email logs in from the same network');
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// 6. Emails and payout ids
