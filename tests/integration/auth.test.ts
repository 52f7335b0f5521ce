import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TestClient } from '../support/http-client';
import { PASSWORD, signUp, uniqueEmail } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

const signupBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ada Painter',
  email: uniqueEmail(),
  password: PASSWORD,
  confirmPassword: PASSWORD,
  termsAccepted: true,
  ...overrides,
});

describe('POST /api/auth/signup', () => {
  it('creates the account, signs the user in with an httpOnly SameSite=Lax cookie, and answers the own record', async () => {
    const client = new TestClient(server.url);
    const email = uniqueEmail();
    const res = await client.post<{ user: Record<string, unknown> }>(
      '/api/auth/signup',
      signupBody({ email: email.toUpperCase() }),
    );
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ name: 'Ada Painter', email, termsAccepted: true });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const session = await client.get<{ user: { email: string } }>('/api/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(email);
  });

  it.each([
    [{ name: '' }, 'Name is required'],
    [{ email: '' }, 'Email is required'],
    [{ email: 'not-an-email' }, 'Email is invalid'],
    [{ password: '', confirmPassword: '' }, 'Password is required'],
    [{ password: 'Abc123', confirmPassword: 'Abc123' }, 'Password must be at least 8 characters long'],
    [
      { password: 'alllowercase1', confirmPassword: 'alllowercase1' },
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    [{ confirmPassword: '' }, 'Please confirm your password'],
    [{ confirmPassword: 'Different123' }, 'Passwords do not match'],
    [{ termsAccepted: false }, 'You must accept the terms and conditions'],
  ])('refuses %j with the docs/product.md message', async (overrides, message) => {
    const client = new TestClient(server.url);
    const res = await client.post('/api/auth/signup', signupBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('refuses an email that is already registered, whatever its case', async () => {
    const email = uniqueEmail();
    await signUp(new TestClient(server.url), { email });
    const res = await new TestClient(server.url).post('/api/auth/signup', signupBody({ email: email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/already exists/);
  });

  it('refuses a cross-origin request and a form-encoded body', async () => {
    const evil = new TestClient(server.url, 'https://evil.example');
    expect((await evil.post('/api/auth/signup', signupBody())).status).toBe(403);
    const noOrigin = new TestClient(server.url, null);
    expect((await noOrigin.post('/api/auth/signup', signupBody())).status).toBe(403);
    const form = await new TestClient(server.url).post('/api/auth/signup', 'name=a&email=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
  });

  it('stores the password as a scrypt hash with the configured cost, never in clear', async () => {
    const email = uniqueEmail();
    await signUp(new TestClient(server.url), { email });
    const creds = server.ctx.store.byIndex('credentials', 'email', email)[0]!;
    expect(creds.passwordHash).toMatch(/^scrypt\$12\$8\$1\$/);
    expect(JSON.stringify(creds)).not.toContain(PASSWORD);
  });
});

describe('POST /api/auth/login and logout', () => {
  it('signs in with a new session id each time, and logout revokes the session', async () => {
    const email = uniqueEmail();
    const first = new TestClient(server.url);
    await signUp(first, { email });
    const signupCookie = first.cookieHeader();

    const client = new TestClient(server.url);
    const res = await client.post<{ user: { email: string } }>('/api/auth/login', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(email);
    expect(client.cookieHeader()).not.toBe(signupCookie);

    const stolen = client.cookieHeader();
    expect((await client.post('/api/auth/logout')).body).toEqual({ ok: true });
    expect((await client.get('/api/auth/session')).status).toBe(401);
    const replay = new TestClient(server.url);
    replay.setCookie('sid', stolen.replace('sid=', ''));
    expect((await replay.get('/api/auth/session')).status).toBe(401);
  });

  it('GET /api/auth/me answers a visitor 200 with no user (not an error), and a signed-in user their own record', async () => {
    const visitor = await new TestClient(server.url).get<{ user: unknown }>('/api/auth/me');
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual({ user: null });
    expect(visitor.headers.get('cache-control')).toBe('no-store');
    const client = new TestClient(server.url);
    const user = await signUp(client);
    const me = await client.get<{ user: { id: string; email: string } }>('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: user.id, email: user.email });
    await client.post('/api/auth/logout');
    expect((await client.get('/api/auth/me')).body).toEqual({ user: null });
  });

  it.each([
    [{ email: '', password: 'x' }, 'Email is required'],
    [{ email: 'nope', password: 'x' }, 'Email is invalid'],
    [{ email: 'a@b.co', password: '' }, 'Password is required'],
  ])('validates %j', async (body, message) => {
    const res = await new TestClient(server.url).post('/api/auth/login', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it("answers a wrong password or unknown email with 'Invalid email or password. Please try again.'", async () => {
    const email = uniqueEmail();
    await signUp(new TestClient(server.url), { email });
    for (const body of [
      { email, password: 'Wrong12345' },
      { email: uniqueEmail(), password: PASSWORD },
    ]) {
      const res = await new TestClient(server.url).post('/api/auth/login', body);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Invalid email or password. Please try again.');
    }
  });

  it('rate limits failed logins per email with a 429 and a clear message', async () => {
    const server = await startTestServer({ RATE_LIMITS: 'on' });
    onTestFinished(() => server.cleanup());
    const email = uniqueEmail();
    await signUp(new TestClient(server.url), { email });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await new TestClient(server.url).post('/api/auth/login', { email, password: 'Wrong12345' })).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await new TestClient(server.url).post('/api/auth/login', { email, password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/Too many/);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  it('rate limits a burst of sign-ups from one network', async () => {
    const server = await startTestServer({ RATE_LIMITS: 'on' });
    onTestFinished(() => server.cleanup());
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push((await new TestClient(server.url).post('/api/auth/signup', signupBody({ name: '' }))).status);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });
});

describe('security headers', () => {
  it('sends a content security policy and the usual hardening headers on API and page responses', async () => {
    for (const path of ['/api/health', '/', '/landing']) {
      const res = await fetch(server.url + path);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(res.headers.get('content-security-policy')).toMatch(/https:\/\/js\.stripe\.com/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });
});
