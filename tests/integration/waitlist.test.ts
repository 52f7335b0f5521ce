import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { uniqueEmail } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

const entry = (o: Record<string, unknown> = {}) => ({
  name: 'Kemi',
  email: uniqueEmail(),
  city: 'Lagos',
  location: 'NG',
  ...o,
});
const rows = () => [...server.ctx.store.all('waitlist')];

describe('POST /api/waitlist', () => {
  it("stores the entry with submittedAt and status 'pending', without a session", async () => {
    const body = entry();
    const res = await new TestClient(server.url).post('/api/waitlist', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true });
    const row = rows().find((r) => r.email === body.email)!;
    expect(row).toMatchObject({ name: 'Kemi', city: 'Lagos', location: 'NG', status: 'pending' });
    expect(typeof row.submittedAt).toBe('number');
  });

  it('answers a repeated email with success and no second row', async () => {
    const body = entry();
    await new TestClient(server.url).post('/api/waitlist', body);
    const before = rows().length;
    const again = await new TestClient(server.url).post('/api/waitlist', { ...body, email: body.email.toUpperCase() });
    expect(again.status).toBe(201);
    expect(rows().length).toBe(before);
  });

  it.each([['name'], ['email'], ['city'], ['location']])('requires %s and writes nothing without it', async (field) => {
    const before = rows().length;
    const res = await new TestClient(server.url).post('/api/waitlist', entry({ [field]: '' }));
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(rows().length).toBe(before);
  });

  it('refuses extra fields, wrong types and prototype keys', async () => {
    const client = new TestClient(server.url);
    for (const body of [
      { ...entry(), admin: true },
      { ...entry(), name: 42 },
      JSON.parse(`{"name":"a","email":"${uniqueEmail()}","city":"c","location":"CA","__proto__":{"polluted":true}}`),
      [entry()],
      'null',
    ]) {
      const res = await client.post('/api/waitlist', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
