import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as encoding from 'lib0/encoding';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { WebSocket } from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { conversationIdFor } from '../../shared/ids';
import { LOGIN_GUARD } from '../../sync-server/auth/login-guard';
import { OWASP_SCRYPT, parseHashParams, verifyPassword } from '../../sync-server/auth/password';
import { hashToken, SESSION_TTL_MS } from '../../sync-server/auth/sessions';
import { readConfig } from '../../sync-server/config';
import { REPLICATED } from '../../sync-server/replication/visibility';
import {
  applicationDoc,
  createPayoutAccount,
  gigDoc,
  offerAndAccept,
  ownUser,
  PASSWORD,
  pullAll,
  signUp,
  signUpWithProfile,
  uniqueEmail,
  write,
  type SignedUpUser,
} from '../support/fixtures';
import { TestClient, type JsonResponse } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';
import { chatMessage, chatSocketBase, openChat, tryChatSocket } from '../support/yjs-client';

/**
 * Issue 9, suite 5: the security checklist, in one place. Each line says where it is checked; the
 * lines marked "here" are checked in this file, the others by the test named (not repeated here).
 *
 * 1. Security headers and a content security policy on EVERY response — here: HTML pages and the
 *    SPA fallback, built static assets (a tiny fake DIST_DIR) and their 304s, HEAD and OPTIONS,
 *    API JSON, API errors (400, 401, 403, 404, 413, 415, 429, 503), redirects, the simulated
 *    payment pages, the SSE stream, chat upgrade refusals (401, 400, 403, 404); HSTS and
 *    upgrade-insecure-requests only when COOKIE_SECURE=true. (auth.test.ts "security headers"
 *    checks the CSP names Stripe.)
 * 2. Session cookie — here: HttpOnly, SameSite=Lax, Path=/, Max-Age of 30 days, no Domain, Secure
 *    exactly when COOKIE_SECURE=true (on signup, login and the logout clearing); sliding: a session
 *    in use is extended in the store and its cookie is sent again with 30 days; a 256-bit random
 *    token stored only as its hash; a NEW id at every login, and a cookie planted or carried into
 *    a login never becomes (or stays) a session. (auth.test.ts: HttpOnly and SameSite on signup,
 *    login id differs from the signup one.)
 * 3. Logout revokes the session — here: the old cookie then gets 401 on the session, pull, push,
 *    stream and chat socket, the stored session is a tombstone, the user's other session lives on.
 *    (auth.test.ts: session 401 after logout; stream-and-restart.test.ts: an open stream ends;
 *    chat-server.test.ts: an open chat socket closes with 4401.)
 * 4. Password hashing — here: the default configuration is OWASP's scrypt (N=2^17, r=8, p=1) and a
 *    server on defaults stores exactly that; a configured cost is what is stored; salts are
 *    unique; hashes made at another cost still verify after the setting changes.
 *    (auth.test.ts: the configured test cost is stored, never the password in clear.)
 * 5. Rate limits under a burst — here: concurrent bursts on signup, login (per network) and
 *    waitlist get exactly the limit through, then 429 with `{ error }` and Retry-After, and the
 *    bursts create nothing; other networks, and signed-in users of the same network on the other
 *    routes, are not locked out. Failed logins for an email never refuse its owner's right
 *    password from an address that has not failed: one address gets 10 guesses, past 10 failures
 *    an email's guesses go one at a time with a doubling delay, 3 per address, and a concurrent
 *    burst from many addresses gets at most 13 checked; an attacked email keeps its live sessions.
 *    (auth.test.ts: 10 failed logins lock an email from that address; a sequential sign-up burst.)
 * 6. Emails and payout ids (stripeAccountId) — here: two users with both, linked by an application
 *    through the whole offer → payment → chat → completion flow, with a third user watching:
 *    every byte each receives (HTTP answers, pulls, the change stream, the chat room) is scanned.
 *    Another user's payout id never appears; another user's email appears only in the linked
 *    application's `creatorEmail` / `applicantEmail` once the offer is accepted, not before
 *    (docs/decisions/003), and never to the third.
 *    (replication-applications.test.ts: a stranger's pulls and a public profile carry no email.)
 */

const passed: string[] = [];
/** Records one check as passed; called after the check's assertions. */
const ok = (label: string) => passed.push(label);

let server: TestServer;
let distDir: string;
const ASSET = '/assets/index-3f9a1c2b.js';
const STYLE = '/assets/index-7d2e8f01.css';

beforeAll(async () => {
  // A tiny stand-in for the Vite build: the server serves whatever DIST_DIR holds.
  distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-security-dist-'));
  await fs.mkdir(path.join(distDir, 'assets'));
  await fs.mkdir(path.join(distDir, 'icons'));
  await fs.writeFile(
    path.join(distDir, 'index.html'),
    `<!doctype html><html><head><link rel="stylesheet" href="${STYLE}"><script type="module" src="${ASSET}"></script></head><body><div id="root"></div></body></html>`,
  );
  await fs.writeFile(path.join(distDir, ASSET), "console.log('app');\n");
  await fs.writeFile(path.join(distDir, STYLE), 'body{margin:0}\n');
  await fs.writeFile(path.join(distDir, 'sw.js'), "self.addEventListener('fetch', () => {});\n");
  await fs.writeFile(path.join(distDir, 'manifest.webmanifest'), JSON.stringify({ name: 'Creative Gigs' }));
  await fs.writeFile(path.join(distDir, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  server = await startTestServer({ DIST_DIR: distDir, LOG_LEVEL: 'silent' });
});

afterAll(async () => {
  await server.cleanup();
  await fs.rm(distDir, { recursive: true, force: true });
  console.log(`security checks: ${passed.length} checks passed`);
});

// ---------------------------------------------------------------------------------------------
// Helpers

/** What is missing or wrong in a response's security headers (empty when all is well). */
function headerProblems(h: Headers, https = false): string[] {
  const problems: string[] = [];
  const csp = h.get('content-security-policy');
  if (!csp) return ['no content-security-policy'];
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values] as const),
  );
  const has = (name: string, value: string) => directives.get(name)?.includes(value) ?? false;
  if (!has('default-src', "'self'") || directives.get('default-src')!.length !== 1)
    problems.push(`default-src ${String(directives.get('default-src'))}`);
  const scripts = directives.get('script-src') ?? [];
  if (
    scripts.length === 0 ||
    scripts.some((v) => ["'unsafe-inline'", "'unsafe-eval'", '*', 'http:', 'https:', 'data:'].includes(v))
  )
    problems.push(`script-src ${scripts.join(' ')}`);
  // The chat socket's origin only: the app's own host over ws:/wss:, never any host.
  const connect = directives.get('connect-src') ?? [];
  const foreign = connect.filter(
    (v) =>
      !["'self'", 'https://api.stripe.com'].includes(v) && !/^wss?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(v),
  );
  if (!connect.includes("'self'") || foreign.length) problems.push(`connect-src ${connect.join(' ')}`);
  if (!has('object-src', "'none'")) problems.push('object-src is not none');
  if (!has('frame-ancestors', "'none'")) problems.push('frame-ancestors is not none');
  if (!has('base-uri', "'self'")) problems.push('base-uri is not self');
  if (!has('form-action', "'self'")) problems.push('form-action is not self');
  if (directives.has('upgrade-insecure-requests') !== https)
    problems.push(`upgrade-insecure-requests ${https ? 'missing' : 'sent over http'}`);
  const expect1 = (name: string, pattern: RegExp) => {
    const value = h.get(name);
    if (value === null || !pattern.test(value)) problems.push(`${name}: ${value}`);
  };
  expect1('x-content-type-options', /^nosniff$/);
  expect1('x-frame-options', /^(DENY|SAMEORIGIN)$/);
  expect1('referrer-policy', /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
  expect1('cross-origin-opener-policy', /^same-origin$/);
  expect1('cross-origin-resource-policy', /^same-origin$/);
  expect1('x-permitted-cross-domain-policies', /^none$/);
  if (https) expect1('strict-transport-security', /max-age=(\d{8,}|[2-9]\d{7}|3[1-9]\d{6}|1[6-9]\d{6})/);
  else if (h.get('strict-transport-security') !== null) problems.push('HSTS sent over http');
  if (h.get('x-powered-by') !== null) problems.push(`x-powered-by: ${h.get('x-powered-by')}`);
  if (h.get('access-control-allow-origin') !== null)
    problems.push(`access-control-allow-origin: ${h.get('access-control-allow-origin')}`);
  return problems;
}

function expectHardened(label: string, h: Headers, https = false): void {
  expect({ label, problems: headerProblems(h, https) }).toEqual({ label, problems: [] });
  ok(`headers: ${label}`);
}

/**
 * A conditional GET as a browser revalidates a cached file. Not fetch(): it adds
 * `Cache-Control: no-cache` to conditional requests, which makes a server answer 200.
 */
function revalidate(url: string, etag: string): Promise<{ status: number; headers: Headers }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'if-none-match': etag } }, (res) => {
        res.resume();
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') h.set(name, value);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: h }));
      })
      .on('error', reject);
  });
}

type Upgrade = { status: number; headers: Headers; body: Record<string, unknown> };

/** Asks for a chat socket and answers the server's refusal, headers included (fails if it opens). */
function refusedUpgrade(
  baseUrl: string,
  urlPath: string,
  headers: { cookie?: string; origin?: string; host?: string } = {},
): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${urlPath}`, {
      headers: {
        ...(headers.cookie ? { cookie: headers.cookie } : {}),
        ...(headers.host ? { host: headers.host } : {}),
      },
      ...(headers.origin ? { origin: headers.origin } : {}),
    });
    socket.on('open', () => {
      socket.terminate();
      reject(new Error(`${urlPath} opened`));
    });
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') h.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers: h, body: JSON.parse(text) as Record<string, unknown> });
      });
    });
    socket.on('error', reject);
  });
}

/** The change stream read as raw text, every byte kept. */
async function rawStream(baseUrl: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/sync/stream`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  let text = '';
  const decoder = new TextDecoder();
  const done = (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        text += decoder.decode(chunk, { stream: true });
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    text: () => text,
    async close() {
      controller.abort();
      await done;
    },
  };
}

/** A chat room joined as a second tab that only listens: every byte the server sends is kept. */
function chatRecorder(http: TestClient, room: string) {
  const frames: Buffer[] = [];
  const socket = new WebSocket(`${chatSocketBase(http.baseUrl)}/${room}`, {
    headers: { cookie: http.cookieHeader() },
    origin: http.baseUrl,
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => {
      // Sync step 1 with an empty state vector: the server answers the whole room.
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 0);
      syncProtocol.writeSyncStep1(e, new Y.Doc());
      socket.send(encoding.toUint8Array(e));
      resolve();
    });
    socket.on('error', reject);
  });
  socket.on('message', (data: Buffer) => frames.push(Buffer.from(data)));
  return { opened, bytes: () => Buffer.concat(frames), close: () => socket.close() };
}

/** A TestClient that keeps every answer it receives: status line, headers and body. */
class RecordingClient extends TestClient {
  readonly received: string[] = [];
  override async request<T = Record<string, unknown>>(
    method: string,
    urlPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse<T>> {
    const res = await super.request<T>(method, urlPath, body, headers);
    this.received.push(`${res.status} ${method} ${urlPath}`);
    for (const [name, value] of res.headers) this.received.push(`${name}: ${value}`);
    this.received.push(typeof res.body === 'string' ? res.body : JSON.stringify(res.body));
    return res;
  }
}

/** How often `secret` occurs in `text` once the allowed JSON fields carrying it are taken out. */
function occurrences(text: string, secret: string, allowedFields: readonly string[] = []): number {
  let rest = text;
  for (const field of allowedFields) rest = rest.split(`"${field}":${JSON.stringify(secret)}`).join('');
  return rest.split(secret).length - 1;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

const sidOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith('sid='));
const tokenOf = (cookie: string) => cookie.split(';')[0]!.slice('sid='.length);
const creds = (u: SignedUpUser) => ({ email: u.email, password: PASSWORD });

// ---------------------------------------------------------------------------------------------
// 1. Security headers on every response

describe('1. security headers and a content security policy on every response', () => {
  it('pages, the SPA fallback, built assets and their revalidation, HEAD and OPTIONS', async () => {
    for (const p of ['/', '/landing', '/gig/abc123', '/login?next=%2Fsettings']) {
      const res = await fetch(server.url + p);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      expectHardened(`page ${p}`, res.headers);
    }
    for (const [p, type] of [
      [ASSET, /javascript/],
      [STYLE, /css/],
      ['/sw.js', /javascript/],
      ['/manifest.webmanifest', /manifest\+json|json/],
      ['/icons/icon-192.png', /image\/png/],
    ] as const) {
      const res = await fetch(server.url + p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(type);
      expectHardened(`static ${p}`, res.headers);
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await revalidate(server.url + p, etag!);
      expect(again.status).toBe(304);
      expectHardened(`304 ${p}`, again.headers);
    }
    const head = await fetch(server.url + '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expectHardened('HEAD /', head.headers);
    const options = await fetch(server.url + '/api/auth/login', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(options.status).toBeLessThan(500);
    expectHardened('OPTIONS /api/auth/login from another origin', options.headers);
  });

  it('API JSON, every kind of API error, redirects and the simulated payment pages', async () => {
    const anon = new TestClient(server.url);
    const cases: [string, () => Promise<JsonResponse<unknown>>, number][] = [
      ['GET /api/health', () => anon.get('/api/health'), 200],
      ['GET /api/public-config', () => anon.get('/api/public-config'), 200],
      ['signed-out session', () => anon.get('/api/auth/session'), 401],
      ['signed-out pull', () => anon.get('/api/sync/gigs/pull?seq=0'), 401],
      ['unknown API path', () => anon.get('/api/no/such/thing'), 404],
      ['invalid login body', () => anon.post('/api/auth/login', { email: '', password: '' }), 400],
      ['malformed JSON', () => anon.post('/api/auth/login', '{"email":', { 'content-type': 'application/json' }), 400],
      [
        'cross-origin POST',
        () =>
          new TestClient(server.url, 'https://evil.example').post('/api/auth/login', {
            email: 'a@b.co',
            password: 'x',
          }),
        403,
      ],
      [
        'form-encoded POST',
        () => anon.post('/api/waitlist', 'name=a', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
      ],
      [
        'body too large',
        () => anon.post('/api/waitlist', { name: 'x'.repeat(70_000), email: uniqueEmail(), city: 'c', location: 'CA' }),
        413,
      ],
      ['unknown email login', () => anon.post('/api/auth/login', { email: uniqueEmail(), password: PASSWORD }), 401],
      ['signed-out payout link refresh', () => anon.get('/api/stripe/account-link/refresh'), 303],
    ];
    for (const [label, send, status] of cases) {
      const res = await send();
      expect({ label, status: res.status }).toEqual({ label, status });
      if (status >= 400) expect(typeof (res.body as { error?: unknown }).error).toBe('string');
      expectHardened(`${status} ${label}`, res.headers);
    }

    const me = new TestClient(server.url);
    const user = await signUpWithProfile(me);
    const signedIn: [string, () => Promise<JsonResponse<unknown>>, number][] = [
      ['session', () => me.get('/api/auth/session'), 200],
      ['pull', () => me.get('/api/sync/users/pull?seq=0'), 200],
      ['push', () => me.post('/api/sync/gigs/push', []), 200],
      ['unknown collection', () => me.get('/api/sync/credentials/pull?seq=0'), 404],
      ['bad checkpoint', () => me.get('/api/sync/gigs/pull?seq=-1'), 400],
      [
        'payout account of another user',
        () =>
          me.post('/api/stripe/create-connect-account', {
            email: user.email,
            userId: 'someone-else',
            hostname: 'localhost',
          }),
        403,
      ],
    ];
    for (const [label, send, status] of signedIn) {
      const res = await send();
      expect({ label, status: res.status }).toEqual({ label, status });
      expectHardened(`${status} ${label}`, res.headers);
    }
    const connect = await me.post<{ accountLink: string }>('/api/stripe/create-connect-account', {
      email: user.email,
      userId: user.id,
      hostname: 'localhost',
    });
    expect(connect.status).toBe(200);
    expectHardened('create-connect-account', connect.headers);
    const page = await me.get<string>(connect.body.accountLink.slice(server.url.length));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expectHardened('simulated onboarding page (HTML)', page.headers);
    const script = await me.get('/api/payments/simulated/page.js');
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expectHardened('simulated page script', script.headers);
    const stylesheet = await me.get('/api/payments/simulated/page.css');
    expect(stylesheet.headers.get('content-type')).toMatch(/text\/css/);
    expectHardened('simulated page stylesheet', stylesheet.headers);
  });

  it('503 while the client is not built', async () => {
    const index = path.join(distDir, 'index.html');
    await fs.rename(index, `${index}.away`);
    try {
      const res = await fetch(server.url + '/landing');
      expect(res.status).toBe(503);
      expectHardened('503 client not built', res.headers);
    } finally {
      await fs.rename(`${index}.away`, index);
    }
  });

  it('the change stream, and its refusal', async () => {
    const me = new TestClient(server.url);
    await signUp(me);
    const stream = await rawStream(server.url, me.cookieHeader());
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expectHardened('SSE stream', stream.headers);
    } finally {
      await stream.close();
    }
    const refused = await fetch(`${server.url}/api/sync/stream`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(401);
    expectHardened('401 SSE stream', refused.headers);
  });

  it('chat upgrade refusals (401, 400, 403, 404)', async () => {
    const a = new TestClient(server.url);
    const aUser = await signUpWithProfile(a);
    const b = new TestClient(server.url);
    const bUser = await signUpWithProfile(b);
    const c = new TestClient(server.url);
    const cUser = await signUpWithProfile(c);
    const linked = (await write(a, 'gigs', gigDoc())).master!;
    expect((await write(b, 'applications', applicationDoc(linked.id as string, bUser.id))).refusal).toBeUndefined();
    const room = conversationIdFor(aUser.id, bUser.id);
    const cases: [string, string, { cookie?: string; origin?: string }, number][] = [
      ['signed out', `/api/chat/${room}`, { origin: server.url }, 401],
      [
        'with oneself',
        `/api/chat/${conversationIdFor(aUser.id, aUser.id)}`,
        { cookie: a.cookieHeader(), origin: server.url },
        400,
      ],
      ['malformed id', '/api/chat/not-a-room', { cookie: a.cookieHeader(), origin: server.url }, 400],
      ['another origin', `/api/chat/${room}`, { cookie: a.cookieHeader(), origin: 'https://evil.example' }, 403],
      ['not a participant', `/api/chat/${room}`, { cookie: c.cookieHeader(), origin: server.url }, 403],
      [
        'no linking application',
        `/api/chat/${conversationIdFor(aUser.id, cUser.id)}`,
        { cookie: a.cookieHeader(), origin: server.url },
        403,
      ],
      ['not a chat path', '/api/sync/stream', { cookie: a.cookieHeader(), origin: server.url }, 404],
    ];
    for (const [label, p, headers, status] of cases) {
      const res = await refusedUpgrade(server.url, p, headers);
      expect({ label, status: res.status }).toEqual({ label, status });
      expect(typeof res.body.error).toBe('string');
      expectHardened(`chat upgrade ${status} ${label}`, res.headers);
    }
  });

  it('HSTS and upgrade-insecure-requests only when served over HTTPS (COOKIE_SECURE=true)', async () => {
    const secure = await startTestServer({ DIST_DIR: distDir, LOG_LEVEL: 'silent', COOKIE_SECURE: 'true' });
    try {
      for (const p of ['/', ASSET, '/api/health', '/api/auth/session', '/api/nope']) {
        expectHardened(`https ${p}`, (await fetch(secure.url + p)).headers, true);
      }
      const refusal = await refusedUpgrade(secure.url, '/api/chat/a_b', { origin: secure.url });
      expect(refusal.status).toBe(401);
      expectHardened('https chat upgrade 401', refusal.headers, true);
    } finally {
      await secure.cleanup();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Session cookie

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
      const on = secure ? await startTestServer({ LOG_LEVEL: 'silent', COOKIE_SECURE: 'true' }) : server;
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
    const client = new TestClient(server.url);
    const res = await client.post('/api/auth/signup', {
      name: 'Ada',
      email: uniqueEmail(),
      password: PASSWORD,
      confirmPassword: PASSWORD,
      termsAccepted: true,
    });
    const token = tokenOf(sidOf(res)!);
    expect(server.ctx.store.get('sessions', token)).toBeUndefined();
    expect(server.ctx.store.get('sessions', hashToken(token))).toMatchObject({ _deleted: false });
    for (const file of await filesUnder(server.dataDir))
      expect((await fs.readFile(file)).includes(token), file).toBe(false);
    ok('session token stored hashed only');
  });

  it('slides: a session in use gets its 30 days back, in the store and in the cookie', async () => {
    const client = new TestClient(server.url);
    await signUp(client);
    const token = client.sessionToken()!;
    // Fresh: no rewrite and no new cookie on every request.
    const fresh = await client.get('/api/auth/session');
    expect(fresh.status).toBe(200);
    expect(sidOf(fresh)).toBeUndefined();
    // As if the session was last extended two hours ago.
    const stored = server.ctx.store.get('sessions', hashToken(token))!;
    await server.ctx.store.commit([
      { collection: 'sessions', doc: { ...stored, expiresAt: Date.now() + SESSION_TTL_MS - 2 * 3600_000 } },
    ]);
    const slid = await client.get('/api/sync/gigs/pull?seq=0');
    expect(slid.status).toBe(200);
    expect(
      Math.abs(
        (server.ctx.store.get('sessions', hashToken(token))!.expiresAt as number) - (Date.now() + SESSION_TTL_MS),
      ),
    ).toBeLessThan(5 * 60_000);
    const cookie = sidOf(slid);
    expect(cookie && tokenOf(cookie)).toBe(token);
    expectLiveCookie('renewed on a request after the session slid', cookie, false);
  });

  it('a new session id at every login; a cookie carried or planted into a login never stays a session', async () => {
    const client = new TestClient(server.url);
    const user = await signUp(client);
    const tokens = new Set([client.sessionToken()!]);
    for (let i = 0; i < 4; i++) {
      const res = await new TestClient(server.url).post('/api/auth/login', creds(user));
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
    expect((await TestClient.withSession(server.url, tokenOf(carried)).get('/api/auth/session')).status).toBe(401);
    expect((await client.get('/api/auth/session')).status).toBe(200);
    ok('a session carried into a login is replaced and revoked');

    // Session fixation: an attacker plants a cookie value before the victim logs in.
    const victim = new TestClient(server.url);
    const planted = 'A'.repeat(43);
    victim.setCookie('sid', planted);
    const login = await victim.post('/api/auth/login', creds(user));
    expect(login.status).toBe(200);
    expect(tokenOf(sidOf(login)!)).not.toBe(planted);
    const attacker = new TestClient(server.url);
    attacker.setCookie('sid', planted);
    expect((await attacker.get('/api/auth/session')).status).toBe(401);
    ok('a planted cookie never becomes a session');
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Logout revokes the session

describe('3. logout revokes the session everywhere', () => {
  it('the old cookie then gets 401 on the session, pull, push, stream and chat socket; other sessions live on', async () => {
    const partner = new TestClient(server.url);
    const partnerUser = await signUpWithProfile(partner);
    const gig = (await write(partner, 'gigs', gigDoc())).master!;
    const me = new TestClient(server.url);
    const meUser = await signUpWithProfile(me);
    expect((await write(me, 'applications', applicationDoc(gig.id as string, meUser.id))).refusal).toBeUndefined();
    const otherDevice = new TestClient(server.url);
    expect((await otherDevice.post('/api/auth/login', creds(meUser))).status).toBe(200);
    const room = conversationIdFor(meUser.id, partnerUser.id);
    const cookie = me.cookieHeader();
    const token = me.sessionToken()!;
    const sessionId = hashToken(token);

    // Before: the cookie works everywhere.
    const old = () => TestClient.withSession(server.url, token);
    expect((await old().get('/api/auth/session')).status).toBe(200);
    expect((await old().get('/api/sync/gigs/pull?seq=0')).status).toBe(200);
    const before = await tryChatSocket(server.url, room, { cookie, origin: server.url });
    expect(before.status).toBe(101);
    if ('socket' in before) before.socket.close();

    expect((await me.post('/api/auth/logout')).body).toEqual({ ok: true });
    expect(server.ctx.store.get('sessions', sessionId)).toMatchObject({ _deleted: true });

    expect((await old().get('/api/auth/session')).status).toBe(401);
    ok('logout: session 401');
    expect((await old().get('/api/sync/gigs/pull?seq=0')).status).toBe(401);
    expect((await old().get('/api/sync/users/pull?seq=0')).status).toBe(401);
    ok('logout: pull 401');
    const pushed = await old().post('/api/sync/gigs/push', [{ assumedMasterState: null, newDocumentState: gigDoc() }]);
    expect(pushed.status).toBe(401);
    ok('logout: push 401');
    const stream = await rawStream(server.url, cookie);
    expect(stream.status).toBe(401);
    await stream.close();
    ok('logout: stream 401');
    const after = await tryChatSocket(server.url, room, { cookie, origin: server.url });
    expect(after).toEqual({ status: 401, body: { error: 'Please log in to start a conversation' } });
    ok('logout: chat socket 401');

    expect((await otherDevice.get('/api/auth/session')).status).toBe(200);
    expect((await otherDevice.get('/api/sync/gigs/pull?seq=0')).status).toBe(200);
    ok('logout: the user’s other session lives on');
  });
});

// ---------------------------------------------------------------------------------------------
// 4. Password hashing

describe('4. scrypt parameters', () => {
  const SCRYPT_HASH = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;
  const credentialsOf = (on: TestServer, email: string) =>
    on.ctx.store.byIndex('credentials', 'email', email)[0]!.passwordHash as string;

  it('the default configuration is OWASP’s scrypt, and a server on defaults stores N=2^17, r=8, p=1', async () => {
    expect(OWASP_SCRYPT).toEqual({ logN: 17, r: 8, p: 1 });
    expect(readConfig({}).scryptLogN).toBe(17);
    ok('default SCRYPT_LOG_N is 17');
    // startTestServer lowers the cost; here the setting is removed so the default applies.
    const defaults = await startTestServer({ LOG_LEVEL: 'silent', SCRYPT_LOG_N: undefined } as unknown as Record<
      string,
      string
    >);
    try {
      expect(defaults.config.scryptLogN).toBe(17);
      const email = uniqueEmail();
      await signUp(new TestClient(defaults.url), { email });
      const stored = credentialsOf(defaults, email);
      expect(parseHashParams(stored)).toEqual({ logN: 17, r: 8, p: 1 });
      expect(stored.startsWith('scrypt$17$8$1$')).toBe(true);
      expect(await verifyPassword(PASSWORD, stored)).toBe(true);
      ok('a server on defaults stores scrypt$17$8$1');
    } finally {
      await defaults.cleanup();
    }
  }, 120_000);

  it('stores the configured cost with a unique 128-bit salt and a 512-bit key; older hashes verify after the setting changes', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-security-scrypt-'));
    try {
      let on = await startTestServer({ LOG_LEVEL: 'silent', SCRYPT_LOG_N: '13' }, dataDir);
      const first = uniqueEmail();
      const second = uniqueEmail();
      try {
        await signUp(new TestClient(on.url), { email: first });
        await signUp(new TestClient(on.url), { email: second });
        const [a, b] = [credentialsOf(on, first), credentialsOf(on, second)];
        for (const hash of [a, b]) {
          const m = SCRYPT_HASH.exec(hash)!;
          expect(m.slice(1, 4)).toEqual(['13', '8', '1']);
          expect(Buffer.from(m[4]!, 'base64')).toHaveLength(16);
          expect(Buffer.from(m[5]!, 'base64')).toHaveLength(64);
        }
        expect(SCRYPT_HASH.exec(a)![4]).not.toBe(SCRYPT_HASH.exec(b)![4]);
        ok('configured SCRYPT_LOG_N=13 is what is stored, salts unique');
      } finally {
        await on.cleanup();
      }
      on = await startTestServer({ LOG_LEVEL: 'silent', SCRYPT_LOG_N: '14' }, dataDir);
      try {
        expect(
          (await new TestClient(on.url).post('/api/auth/login', { email: first, password: PASSWORD })).status,
        ).toBe(200);
        expect(
          (await new TestClient(on.url).post('/api/auth/login', { email: first, password: 'Wrong12345' })).status,
        ).toBe(401);
        const third = uniqueEmail();
        await signUp(new TestClient(on.url), { email: third });
        expect(parseHashParams(credentialsOf(on, third))).toEqual({ logN: 14, r: 8, p: 1 });
        expect(parseHashParams(credentialsOf(on, first))).toEqual({ logN: 13, r: 8, p: 1 });
        ok('a hash made at another cost still verifies; new ones use the new cost');
      } finally {
        await on.cleanup();
      }
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Rate limits

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

describe('6. emails and payout ids never reach another user', () => {
  it(
    'scans every byte a linked user and a stranger receive through a whole gig: HTTP, pulls, stream, chat',
    { timeout: 60_000 },
    async () => {
      const buyer = new RecordingClient(server.url);
      const buyerUser = await signUpWithProfile(buyer, { name: 'Bea Buyer' });
      const seller = new RecordingClient(server.url);
      const sellerUser = await signUpWithProfile(seller, { name: 'Sam Seller' });
      const stranger = new RecordingClient(server.url);
      const strangerUser = await signUpWithProfile(stranger, { name: 'Stan Stranger' });
      const streams = {
        buyer: await rawStream(server.url, buyer.cookieHeader()),
        seller: await rawStream(server.url, seller.cookieHeader()),
        stranger: await rawStream(server.url, stranger.cookieHeader()),
      };

      /** Creates the payout account and completes the simulated onboarding. */
      const connectPayouts = async (client: RecordingClient, user: SignedUpUser) => {
        const res = await createPayoutAccount(client, user);
        expect(res.status).toBe(200);
        expect((await client.post(res.body.accountLink.slice(server.url.length), {})).status).toBe(200);
        return res.body.accountId;
      };

      // The buyer has a payout account before the link, the seller gets one after it (so the change
      // to the seller's record flows to the buyer's stream as a public profile).
      const buyerAccount = await connectPayouts(buyer, buyerUser);
      const gig = (await write(buyer, 'gigs', gigDoc({ title: 'Leak check mural' }))).master!;
      const applied = (await write(seller, 'applications', applicationDoc(gig.id as string, sellerUser.id))).master!;
      const sellerAccount = await connectPayouts(seller, sellerUser);
      const sellerOwn = await ownUser(seller, sellerUser.id);
      expect(
        (await write(seller, 'users', { ...sellerOwn, bio: 'Printmaker and muralist' }, sellerOwn)).refusal,
      ).toBeUndefined();

      // Until an offer is accepted the application links them but shares neither email (decision 003):
      // applying costs nothing, so it must not be a way to collect creators' emails.
      for (const client of [buyer, seller]) await pullAll(client, 'applications');
      await waitFor('both streams saw the application', () =>
        [streams.buyer, streams.seller].every((s) => s.text().includes(applied.id as string)),
      );
      const beforeAcceptance = {
        buyer: occurrences(buyer.received.join('\n') + streams.buyer.text(), sellerUser.email),
        seller: occurrences(seller.received.join('\n') + streams.seller.text(), buyerUser.email),
      };
      expect(beforeAcceptance).toEqual({ buyer: 0, seller: 0 });
      ok('before an offer is accepted: neither email reaches the other side (answers, pulls, stream)');

      const accepted = await offerAndAccept(buyer, seller, applied, 30_000);
      expect(accepted.status).toBe('PENDING_PAYMENT');
      const checkout = await buyer.post<{ sessionId: string }>('/api/payments/checkout', { applicationId: applied.id });
      expect(checkout.status).toBe(200);
      expect((await buyer.post(`/api/payments/simulated/checkout/${checkout.body.sessionId}/pay`, {})).status).toBe(
        200,
      );
      expect(
        (await buyer.post('/api/payments/confirm', { applicationId: applied.id, sessionId: checkout.body.sessionId }))
          .status,
      ).toBe(200);

      const room = conversationIdFor(buyerUser.id, sellerUser.id);
      expect(
        (
          await write(buyer, 'conversations', {
            id: room,
            participants: [buyerUser.id, sellerUser.id].sort(),
            lastMessageRead: true,
          })
        ).refusal,
      ).toBeUndefined();
      const recorders = { buyer: chatRecorder(buyer, room), seller: chatRecorder(seller, room) };
      await Promise.all([recorders.buyer.opened, recorders.seller.opened]);
      const chats = { buyer: openChat(buyer, room), seller: openChat(seller, room) };
      await Promise.all([chats.buyer.synced(), chats.seller.synced()]);
      chats.buyer.provider.awareness.setLocalState({ user: { id: buyerUser.id, name: buyerUser.name }, typing: true });
      chats.seller.provider.awareness.setLocalState({
        user: { id: sellerUser.id, name: sellerUser.name },
        typing: true,
      });
      chats.buyer.send(chatMessage(buyerUser.id, sellerUser.id, 'Payment is in, go ahead.'));
      chats.seller.send(chatMessage(sellerUser.id, buyerUser.id, 'Sketches attached, first pass.'));
      await waitFor('both messages stamped', () => chats.buyer.stamps.size === 2 && chats.seller.stamps.size === 2);
      await waitFor('the recorders saw both messages', () =>
        [recorders.buyer, recorders.seller].every(
          (r) => r.bytes().includes('go ahead.') && r.bytes().includes('first pass.'),
        ),
      );
      const strangerChat = await tryChatSocket(server.url, room, {
        cookie: stranger.cookieHeader(),
        origin: server.url,
      });
      expect(strangerChat.status).toBe(403);
      const strangerChatBytes = JSON.stringify(strangerChat);

      const done = await buyer.post('/api/gigs/complete-gig', {
        gigId: gig.id,
        applicationId: applied.id,
        userId: buyerUser.id,
        userType: 'buyer',
      });
      expect(done.body).toEqual({ success: true, payout: 'sent', amount: 27_000 });
      expect(server.ctx.store.get('ledger', `transfer:${applied.id as string}`)).toMatchObject({
        destination: sellerAccount,
      });

      // Every party pulls everything, and each stream catches up to a last public change.
      for (const client of [buyer, seller, stranger]) {
        for (const collection of REPLICATED) await pullAll(client, collection);
        await client.get('/api/auth/session');
      }
      const marker = (await write(stranger, 'gigs', gigDoc({ title: 'Marker' }))).master!;
      await waitFor('every stream saw the marker gig', () =>
        Object.values(streams).every((s) => s.text().includes(marker.id as string)),
      );
      for (const s of Object.values(streams)) await s.close();
      for (const c of Object.values(chats)) c.destroy();
      for (const r of Object.values(recorders)) r.close();

      const received = {
        buyer: {
          http: buyer.received.join('\n'),
          stream: streams.buyer.text(),
          chat: recorders.buyer.bytes().toString('latin1'),
        },
        seller: {
          http: seller.received.join('\n'),
          stream: streams.seller.text(),
          chat: recorders.seller.bytes().toString('latin1'),
        },
        stranger: { http: stranger.received.join('\n'), stream: streams.stranger.text(), chat: strangerChatBytes },
      };

      // The scan can see: each user's own email and payout id did reach them, and the linked
      // user's public profile (bio) reached the buyer through both pull and stream.
      for (const [who, user, account] of [
        ['buyer', buyerUser, buyerAccount],
        ['seller', sellerUser, sellerAccount],
      ] as const) {
        expect(occurrences(received[who].http, user.email)).toBeGreaterThan(0);
        expect(occurrences(received[who].http, account)).toBeGreaterThan(0);
      }
      expect(received.buyer.http).toContain('Printmaker and muralist');
      expect(received.buyer.stream).toContain('Printmaker and muralist');
      expect(received.buyer.stream).toContain(sellerUser.id);
      expect(occurrences(received.buyer.http, sellerUser.email)).toBeGreaterThan(0); // on the application
      ok('the scan sees own secrets and the linked public profile');

      const secrets = [
        { owner: 'seller', email: sellerUser.email, account: sellerAccount, linked: 'buyer' },
        { owner: 'buyer', email: buyerUser.email, account: buyerAccount, linked: 'seller' },
      ] as const;
      const applicationEmailFields = ['creatorEmail', 'applicantEmail'];
      for (const s of secrets) {
        for (const channel of ['http', 'stream', 'chat'] as const) {
          const linkedBytes = received[s.linked][channel];
          expect({ who: s.linked, channel, of: s.owner, account: occurrences(linkedBytes, s.account) }).toEqual({
            who: s.linked,
            channel,
            of: s.owner,
            account: 0,
          });
          expect({
            who: s.linked,
            channel,
            of: s.owner,
            email: occurrences(linkedBytes, s.email, applicationEmailFields),
          }).toEqual({ who: s.linked, channel, of: s.owner, email: 0 });
          ok(`${s.linked} ${channel}: no payout id of the ${s.owner}, the email only on the application`);
          const strangerBytes = received.stranger[channel];
          expect({
            who: 'stranger',
            channel,
            of: s.owner,
            email: occurrences(strangerBytes, s.email),
            account: occurrences(strangerBytes, s.account),
          }).toEqual({
            who: 'stranger',
            channel,
            of: s.owner,
            email: 0,
            account: 0,
          });
          ok(`stranger ${channel}: no email or payout id of the ${s.owner}`);
        }
      }
      // The stranger's own secrets stay theirs too.
      const strangerOwn = await ownUser(stranger, strangerUser.id);
      expect(strangerOwn.email).toBe(strangerUser.email);
      for (const who of ['buyer', 'seller'] as const) {
        for (const channel of ['http', 'stream', 'chat'] as const)
          expect(occurrences(received[who][channel], strangerUser.email)).toBe(0);
      }
      ok('nobody receives the stranger’s email');
    },
  );
});

// ---------------------------------------------------------------------------------------------
// 7. The app's origin when PUBLIC_ORIGIN is not set

describe('7. without PUBLIC_ORIGIN, the app is this machine on its port, not whatever the Host header says', () => {
  /** A request with a Host header of our choosing (a page on a rebound DNS name sends its own). */
  function asHost(method: string, urlPath: string, host: string, headers: Record<string, string> = {}, body?: unknown) {
    const u = new URL(server.url);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = http.request(
          {
            host: u.hostname,
            port: Number(u.port),
            method,
            path: urlPath,
            headers: {
              host,
              ...headers,
              ...(payload
                ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
                : {}),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(payload);
      },
    );
  }
  const port = () => new URL(server.url).port;

  it('a page on another name that resolves here (DNS rebinding) can neither post nor read the API', async () => {
    const rebound = `evil.example:${port()}`;
    const client = new TestClient(server.url);
    const user = await signUp(client);
    const login = await asHost('POST', '/api/auth/login', rebound, { origin: `http://${rebound}` }, creds(user));
    expect(login.status).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
    const waitlist = await asHost(
      'POST',
      '/api/waitlist',
      rebound,
      { origin: `http://${rebound}` },
      { name: 'Eve', email: uniqueEmail(), city: 'X', location: 'CA' },
    );
    expect(waitlist.status).toBe(403);
    ok('rebound host: POSTs refused');
    for (const p of ['/api/public-config', '/api/auth/session']) {
      const res = await asHost('GET', p, rebound);
      expect({ p, status: res.status, error: res.body.error }).toEqual({ p, status: 403, error: 'Unknown host' });
    }
    ok('rebound host: API reads refused');
    // The chat socket too: the same rebound name in Host and Origin is no origin of ours.
    const cookie = client.cookieHeader();
    const room = `/api/chat/${'a'.repeat(8)}_${'b'.repeat(8)}`;
    const chat = await refusedUpgrade(server.url, room, { cookie, host: rebound, origin: `http://${rebound}` });
    expect({ status: chat.status, error: chat.body.error }).toEqual({
      status: 403,
      error: 'Cross-origin requests are not allowed',
    });
    // With the name this machine is known by, the origin check passes and the room is judged.
    const local = await refusedUpgrade(server.url, room, {
      cookie,
      host: `127.0.0.1:${port()}`,
      origin: `http://127.0.0.1:${port()}`,
    });
    expect(local.body.error).not.toBe('Cross-origin requests are not allowed');
    ok('rebound host: chat socket refused');
    // The same origin check with the Host header this machine is known by: the usual answers.
    expect(
      (
        await asHost(
          'POST',
          '/api/auth/login',
          `127.0.0.1:${port()}`,
          { origin: `http://127.0.0.1:${port()}` },
          creds(user),
        )
      ).status,
    ).toBe(200);
  });

  it('localhost, 127.0.0.1 and [::1] on the listening port are the app; another port or a look-alike name is not', async () => {
    for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, `[::1]:${port()}`, `LOCALHOST:${port()}`]) {
      const res = await asHost(
        'POST',
        '/api/auth/login',
        host,
        { origin: `http://${host.toLowerCase()}` },
        { email: uniqueEmail(), password: PASSWORD },
      );
      expect({ host, status: res.status }).toEqual({ host, status: 401 });
      expect((await asHost('GET', '/api/public-config', host)).status).toBe(200);
    }
    ok('local names on the listening port accepted');
    for (const [host, origin] of [
      [`localhost:${port()}`, `http://localhost:${Number(port()) + 1}`],
      [`localhost:${port()}`, `http://localhost.evil.example:${port()}`],
      [`localhost:${port()}`, `http://127.0.0.2:${port()}`],
      [`localhost:${Number(port()) + 1}`, `http://localhost:${Number(port()) + 1}`],
      [`localhost.evil.example:${port()}`, `http://localhost.evil.example:${port()}`],
    ]) {
      const res = await asHost(
        'POST',
        '/api/auth/login',
        host!,
        { origin: origin! },
        { email: uniqueEmail(), password: PASSWORD },
      );
      expect({ host, origin, status: res.status }).toEqual({ host, origin, status: 403 });
    }
    ok('another port or name refused');
  });

  it('PUBLIC_ORIGIN replaces them all (HOST adding its name: sync-server/http/security.test.ts)', async () => {
    const configured = await startTestServer({ LOG_LEVEL: 'silent', PUBLIC_ORIGIN: 'https://gigs.example' });
    onTestFinished(() => configured.cleanup());
    const login = (on: TestServer, origin: string) =>
      new TestClient(on.url, origin).post('/api/auth/login', { email: uniqueEmail(), password: PASSWORD });
    expect((await login(configured, 'https://gigs.example')).status).toBe(401);
    expect((await login(configured, configured.url)).status).toBe(403);
    ok('PUBLIC_ORIGIN: only that origin');
    const csp = (await fetch(configured.url + '/')).headers.get('content-security-policy')!;
    expect(csp).toMatch(/connect-src 'self' wss:\/\/gigs\.example https:\/\/api\.stripe\.com/);
    ok('PUBLIC_ORIGIN: connect-src names its wss origin');
  });
});
