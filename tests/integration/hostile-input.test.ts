import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { gigDoc, signUpWithProfile, write } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let client: TestClient;
let ownGig: Record<string, unknown>;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMITS: 'off' });
  client = new TestClient(server.url);
  await signUpWithProfile(client);
  ownGig = (await write(client, 'gigs', gigDoc())).master!;
});
afterAll(async () => {
  await server.cleanup();
});

/** Everything the store holds, to compare before and after a refused request. */
async function storeBytes(): Promise<string> {
  const seq = server.ctx.store.durableSeq();
  const dir = await fs.readdir(server.dataDir);
  return `${seq}:${dir.sort().join(',')}:${JSON.stringify(server.ctx.store.changesSince(0, 1e6))}`;
}

const HUGE = 'x'.repeat(3_000_000);
const DEEP_ARRAY = '['.repeat(5000) + ']'.repeat(5000);
const DEEP_OBJECT = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);

const bodies: [string, unknown][] = [
  ['null', 'null'],
  ['a number', '42'],
  ['a string', '"hello"'],
  ['bad JSON', '{"name": '],
  ['an array', [1, 2, 3]],
  ['__proto__ key', '{"__proto__": {"isAdmin": true}}'],
  ['constructor key', '{"constructor": {"prototype": {"isAdmin": true}}}'],
  ['deeply nested arrays', DEEP_ARRAY],
  ['deeply nested objects', DEEP_OBJECT],
  ['a huge string', { name: HUGE }],
  ['wrong types', { name: 1, email: [], password: {}, confirmPassword: null, termsAccepted: 'yes' }],
];

const endpoints = ['/api/auth/signup', '/api/auth/login', '/api/waitlist', '/api/sync/gigs/push', '/api/sync/users/push', '/api/sync/applications/push'];

describe('hostile payloads', () => {
  it.each(endpoints.flatMap((e) => bodies.map(([label, body]) => [e, label, body] as const)))(
    '%s refuses %s with a 4xx { error } and changes nothing',
    async (endpoint, _label, body) => {
      const before = await storeBytes();
      const res = await client.post(endpoint, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof (res.body as { error?: unknown }).error).toBe('string');
      expect(await storeBytes()).toBe(before);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    },
  );

  it('refuses pushed rows that forge ownership, server fields or prototype keys, per row', async () => {
    const before = await storeBytes();
    const proto = await client.post('/api/sync/gigs/push', `[{"newDocumentState":{"id":"${gigDoc().id}","__proto__":{"polluted":true}}}]`);
    expect(proto.status).toBe(400);
    expect(proto.body.error).toMatch(/__proto__/);
    const ctor = await client.post('/api/sync/gigs/push', [{ newDocumentState: { ...gigDoc(), constructor: 'x' } }]);
    expect(ctor.status).toBe(400);
    const rows = [
      { newDocumentState: { ...gigDoc(), title: 42 } },
      { newDocumentState: { ...gigDoc(), isAdmin: true } },
      { newDocumentState: { id: '../../etc/passwd' } },
      { assumedMasterState: ownGig, newDocumentState: { ...ownGig, createdBy: 'someone-else-1', _deleted: false } },
    ];
    const res = await client.post<{ refused: { reason: string }[]; conflicts: unknown[] }>('/api/sync/gigs/push', rows);
    expect(res.status).toBe(200);
    expect(res.body.refused.map((r) => r.reason), JSON.stringify(res.body.refused)).toHaveLength(3);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The forged createdBy on the own gig is ignored: the server keeps the real owner.
    expect(server.ctx.store.get('gigs', ownGig.id as string)!.createdBy).toBe(ownGig.createdBy);
    const after = await storeBytes();
    // Only the owner's legitimate (no-op content) rewrite of its own gig may have landed.
    expect(after === before || server.ctx.store.get('gigs', ownGig.id as string)!.createdBy === ownGig.createdBy).toBe(true);
  });

  it.each([
    ['no cookie', () => new TestClient(server.url)],
    ['a forged cookie', () => { const c = new TestClient(server.url); c.setCookie('sid', 'forged'); return c; }],
    ['a cross-origin caller with a real cookie', () => { const c = new TestClient(server.url, 'https://evil.example'); c.setCookie('sid', client.cookieHeader().replace('sid=', '')); return c; }],
  ])('refuses a push with %s', async (_label, make) => {
    const before = await storeBytes();
    const res = await make().post('/api/sync/gigs/push', [{ newDocumentState: gigDoc() }]);
    expect([401, 403]).toContain(res.status);
    expect(typeof res.body.error).toBe('string');
    expect(await storeBytes()).toBe(before);
  });

  it('answers unknown collections, bad checkpoints and unknown API paths with 4xx', async () => {
    expect((await client.get('/api/sync/credentials/pull?seq=0')).status).toBe(404);
    expect((await client.get('/api/sync/sessions/pull?seq=0')).status).toBe(404);
    expect((await client.get('/api/sync/gigs/pull?seq=-1')).status).toBe(400);
    expect((await client.get('/api/sync/gigs/pull?seq=abc')).status).toBe(400);
    expect((await client.get('/api/sync/gigs/pull?seq=0&extra=1')).status).toBe(400);
    expect((await client.get('/api/nope')).status).toBe(404);
    expect(path.isAbsolute(server.dataDir)).toBe(true);
  });
});
