import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hashToken, SESSION_TTL_MS } from '../../../sync-server/auth/sessions';
import { PASSWORD, signUp, uniqueEmail } from '../../support/fixtures';
import { TestClient } from '../../support/http-client';
import { startTestServer } from '../../support/in-process-server';
import { creds, filesUnder, ok, sidOf, tokenOf, useSecurityServer } from '../../support/security-checks';

const security = useSecurityServer('session-cookie');

describe('2. the session cookie', () => {
  function expectCookieFlags(label: string, cookie: string | undefined, secure: boolean) {
    expect(cookie, label).toBeDefined();
    const attrs = cookie!
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attrs, label).toContain('httponly');
    expect(attrs, label).toContain('samesite=lax');
    expect(attrs, label).toContain('path=/');
    expect(attrs.includes('secure'), label).toBe(secure);
    expect(
      attrs.some((a) => a.startsWith('domain=')),
      label,
    ).toBe(false);
    ok(`cookie flags: ${label}`);
  }

  function expectLiveCookie(label: string, cookie: string | undefined, secure: boolean) {
    expectCookieFlags(label, cookie, secure);
    const maxAge = /max-age=(\d+)/i.exec(cookie!)?.[1];
    expect(Number(maxAge), label).toBe(SESSION_TTL_MS / 1000);
    expect(SESSION_TTL_MS).toBe(30 * 24 * 3600 * 1000);
    const expires = Date.parse(/expires=([^;]+)/i.exec(cookie!)![1]!);
    expect(Math.abs(expires - (Date.now() + SESSION_TTL_MS))).toBeLessThan(5 * 60_000);
    // A random 256-bit token: 43 base64url characters.
    expect(tokenOf(cookie!), label).toMatch(/^[A-Za-z0-9_-]{43}$/);
    ok(`cookie lifetime and token: ${label}`);
  }

  for (const secure of [false, true]) {
    it(`HttpOnly, SameSite=Lax, Path=/, 30 days, Secure ${secure ? 'with' : 'without'} COOKIE_SECURE=true, on signup, login and logout`, async () => {
      const on = secure ? await startTestServer({ LOG_LEVEL: 'silent', COOKIE_SECURE: 'true' }) : security.server;
      try {
        const client = new TestClient(on.url);
        const email = uniqueEmail();
        const signup = await client.post('/api/auth/signup', {
          name: 'Ada',
          email,
          password: PASSWORD,
          confirmPassword: PASSWORD,
          termsAccepted: true,
        });
        expect(signup.status).toBe(201);
        expectLiveCookie(`signup (secure=${secure})`, sidOf(signup), secure);
        const login = await new TestClient(on.url).post('/api/auth/login', { email, password: PASSWORD });
        expect(login.status).toBe(200);
        expectLiveCookie(`login (secure=${secure})`, sidOf(login), secure);
        const logout = await client.post('/api/auth/logout');
        const cleared = sidOf(logout);
        expectCookieFlags(`logout clearing (secure=${secure})`, cleared, secure);
        expect(tokenOf(cleared!)).toBe('');
        expect(cleared).toMatch(/expires=thu, 01 jan 1970|max-age=0/i);
        ok(`logout clears the cookie (secure=${secure})`);
      } finally {
        if (secure) await on.cleanup();
      }
    });
  }

  it('is stored only as its hash: the token is in no store file', async () => {
    const client = new TestClient(security.server.url);
    const res = await client.post('/api/auth/signup', {
      name: 'Ada',
      email: uniqueEmail(),
      password: PASSWORD,
      confirmPassword: PASSWORD,
      termsAccepted: true,
    });
    const token = tokenOf(sidOf(res)!);
    expect(security.server.ctx.store.get('sessions', token)).toBeUndefined();
    expect(security.server.ctx.store.get('sessions', hashToken(token))).toMatchObject({ _deleted: false });
    for (const file of await filesUnder(security.server.dataDir))
      expect((await fs.readFile(file)).includes(token), file).toBe(false);
    ok('session token stored hashed only');
  });

  it('slides: a session in use gets its 30 days back, in the store and in the cookie', async () => {
    const client = new TestClient(security.server.url);
    await signUp(client);
    const token = client.sessionToken()!;
    // Fresh: no rewrite and no new cookie on every request.
    const fresh = await client.get('/api/auth/session');
    expect(fresh.status).toBe(200);
    expect(sidOf(fresh)).toBeUndefined();
    // As if the session was last extended two hours ago.
    const stored = security.server.ctx.store.get('sessions', hashToken(token))!;
    await security.server.ctx.store.commit([
      { collection: 'sessions', doc: { ...stored, expiresAt: Date.now() + SESSION_TTL_MS - 2 * 3600_000 } },
    ]);
    const slid = await client.get('/api/sync/gigs/pull?seq=0');
    expect(slid.status).toBe(200);
    expect(
      Math.abs(
        (security.server.ctx.store.get('sessions', hashToken(token))!.expiresAt as number) -
          (Date.now() + SESSION_TTL_MS),
      ),
    ).toBeLessThan(5 * 60_000);
    const cookie = sidOf(slid);
    expect(cookie && tokenOf(cookie)).toBe(token);
    expectLiveCookie('renewed on a request after the session slid', cookie, false);
  });

  it('slides once when many requests of one session find it due together: every one is answered', async () => {
    const client = new TestClient(security.server.url);
    await signUp(client);
    const id = hashToken(client.sessionToken()!);
    const stored = security.server.ctx.store.get('sessions', id)!;
    await security.server.ctx.store.commit([
      { collection: 'sessions', doc: { ...stored, expiresAt: Date.now() + SESSION_TTL_MS - 2 * 3600_000 } },
    ]);
    const writes: number[] = [];
    const stop = security.server.ctx.store.onDurable((changes) => {
      for (const c of changes)
        if (c.collection === 'sessions' && c.doc.id === id) writes.push(c.doc.expiresAt as number);
    });
    try {
      // A device coming back after a while: its replications and screens ask at once.
      const answers = await Promise.all(Array.from({ length: 50 }, () => client.get('/api/auth/session')));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      // Extended once, not once per request (fifty writes of one document contend on PostgreSQL).
      await expect.poll(() => writes.length).toBe(1);
      expect(Math.abs(writes[0]! - (Date.now() + SESSION_TTL_MS))).toBeLessThan(5 * 60_000);
    } finally {
      stop();
    }
  });

  it('a new session id at every login; a cookie carried or planted into a login never stays a session', async () => {
    const client = new TestClient(security.server.url);
    const user = await signUp(client);
    const tokens = new Set([client.sessionToken()!]);
    for (let i = 0; i < 4; i++) {
      const res = await new TestClient(security.server.url).post('/api/auth/login', creds(user));
      expect(res.status).toBe(200);
      tokens.add(tokenOf(sidOf(res)!));
    }
    expect(tokens.size).toBe(5);
    ok('five logins, five session ids');

    // Logging in again on a browser that still has a live session: a new id, the old one is revoked.
    const carried = client.cookieHeader();
    const again = await client.post('/api/auth/login', creds(user));
    expect(again.status).toBe(200);
    expect(client.cookieHeader()).not.toBe(carried);
    expect((await TestClient.withSession(security.server.url, tokenOf(carried)).get('/api/auth/session')).status).toBe(
      401,
    );
    expect((await client.get('/api/auth/session')).status).toBe(200);
    ok('a session carried into a login is replaced and revoked');

    // Session fixation: an attacker plants a cookie value before the victim logs in.
    const victim = new TestClient(security.server.url);
    const planted = 'A'.repeat(43);
    victim.setCookie('sid', planted);
    const login = await victim.post('/api/auth/login', creds(user));
    expect(login.status).toBe(200);
    expect(tokenOf(sidOf(login)!)).not.toBe(planted);
    const attacker = new TestClient(security.server.url);
    attacker.setCookie('sid', planted);
    expect((await attacker.get('/api/auth/session')).status).toBe(401);
    ok('a planted cookie never becomes a session');
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Logout revokes the session
