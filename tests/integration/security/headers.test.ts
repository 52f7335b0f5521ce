import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationIdFor } from '../../../shared/ids';
import {
  applicationDoc,
  gigDoc,
  PASSWORD,
  signUp,
  signUpWithProfile,
  uniqueEmail,
  write,
} from '../../support/fixtures';
import { TestClient, type JsonResponse } from '../../support/http-client';
import { startTestServer } from '../../support/in-process-server';
import {
  ASSET,
  STYLE,
  expectHardened,
  rawStream,
  refusedUpgrade,
  revalidate,
  useSecurityServer,
} from '../../support/security-checks';

const security = useSecurityServer('headers');

describe('1. security headers and a content security policy on every response', () => {
  it('pages, the SPA fallback, built assets and their revalidation, HEAD and OPTIONS', async () => {
    for (const p of ['/', '/landing', '/gig/abc123', '/login?next=%2Fsettings']) {
      const res = await fetch(security.server.url + p);
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
      const res = await fetch(security.server.url + p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(type);
      expectHardened(`static ${p}`, res.headers);
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await revalidate(security.server.url + p, etag!);
      expect(again.status).toBe(304);
      expectHardened(`304 ${p}`, again.headers);
    }
    const head = await fetch(security.server.url + '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expectHardened('HEAD /', head.headers);
    const options = await fetch(security.server.url + '/api/auth/login', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(options.status).toBeLessThan(500);
    expectHardened('OPTIONS /api/auth/login from another origin', options.headers);
  });

  it('API JSON, every kind of API error, redirects and the simulated payment pages', async () => {
    const anon = new TestClient(security.server.url);
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
          new TestClient(security.server.url, 'https://evil.example').post('/api/auth/login', {
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

    const me = new TestClient(security.server.url);
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
    const page = await me.get<string>(connect.body.accountLink.slice(security.server.url.length));
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
    const index = path.join(security.distDir, 'index.html');
    await fs.rename(index, `${index}.away`);
    try {
      const res = await fetch(security.server.url + '/landing');
      expect(res.status).toBe(503);
      expectHardened('503 client not built', res.headers);
    } finally {
      await fs.rename(`${index}.away`, index);
    }
  });

  it('the change stream, and its refusal', async () => {
    const me = new TestClient(security.server.url);
    await signUp(me);
    const stream = await rawStream(security.server.url, me.cookieHeader());
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expectHardened('SSE stream', stream.headers);
    } finally {
      await stream.close();
    }
    const refused = await fetch(`${security.server.url}/api/sync/stream`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(401);
    expectHardened('401 SSE stream', refused.headers);
  });

  it('chat upgrade refusals (401, 400, 403, 404)', async () => {
    const a = new TestClient(security.server.url);
    const aUser = await signUpWithProfile(a);
    const b = new TestClient(security.server.url);
    const bUser = await signUpWithProfile(b);
    const c = new TestClient(security.server.url);
    const cUser = await signUpWithProfile(c);
    const linked = (await write(a, 'gigs', gigDoc())).master!;
    expect((await write(b, 'applications', applicationDoc(linked.id as string, bUser.id))).refusal).toBeUndefined();
    const room = conversationIdFor(aUser.id, bUser.id);
    const cases: [string, string, { cookie?: string; origin?: string }, number][] = [
      ['signed out', `/api/chat/${room}`, { origin: security.server.url }, 401],
      [
        'with oneself',
        `/api/chat/${conversationIdFor(aUser.id, aUser.id)}`,
        { cookie: a.cookieHeader(), origin: security.server.url },
        400,
      ],
      ['malformed id', '/api/chat/not-a-room', { cookie: a.cookieHeader(), origin: security.server.url }, 400],
      ['another origin', `/api/chat/${room}`, { cookie: a.cookieHeader(), origin: 'https://evil.example' }, 403],
      ['not a participant', `/api/chat/${room}`, { cookie: c.cookieHeader(), origin: security.server.url }, 403],
      [
        'no linking application',
        `/api/chat/${conversationIdFor(aUser.id, cUser.id)}`,
        { cookie: a.cookieHeader(), origin: security.server.url },
        403,
      ],
      ['not a chat path', '/api/sync/stream', { cookie: a.cookieHeader(), origin: security.server.url }, 404],
    ];
    for (const [label, p, headers, status] of cases) {
      const res = await refusedUpgrade(security.server.url, p, headers);
      expect({ label, status: res.status }).toEqual({ label, status });
      expect(typeof res.body.error).toBe('string');
      expectHardened(`chat upgrade ${status} ${label}`, res.headers);
    }
  });

  it('HSTS and upgrade-insecure-requests only when served over HTTPS (COOKIE_SECURE=true)', async () => {
    const secure = await startTestServer({ DIST_DIR: security.distDir, LOG_LEVEL: 'silent', COOKIE_SECURE: 'true' });
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
