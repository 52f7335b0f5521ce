import type http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, SESSION_TTL_MS } from '../../sync-server/auth/sessions';
import { SYNC_ERRORS } from '../../shared/sync/protocol';
import { gigDoc, person, type Person } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { rawRequest, type RawAnswer } from '../support/raw-request';

/**
 * A replication push is served on a path of its own, outside Express (decision 008), with Express
 * as the reference: every request below gets the same answer (status, `{ error }`, the security
 * headers, a slid session's cookie) from a server whose pushes go through Express
 * (`pushPath: false`), whether the push path takes it or hands it on.
 */

/** A raw request: every header as given (fetch would set Host and Content-Length itself). */
function send(url: string, path: string, headers: Record<string, string | number>, body?: Buffer | string) {
  const { hostname, port } = new URL(url);
  return rawRequest({ host: hostname, port, path, method: 'POST', headers }, body);
}

/** The headers an answer's meaning depends on (not its date, length, connection or Express's ETag). */
function meaningful(headers: http.IncomingHttpHeaders): Record<string, unknown> {
  const skip = new Set(['date', 'content-length', 'connection', 'keep-alive', 'etag', 'set-cookie']);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !skip.has(name))
      // Each server's own port, in the chat socket's source of its policy.
      .map(([name, value]) => [name, typeof value === 'string' ? value.replace(/:\d{2,5}\b/g, ':port') : value]),
  );
}

describe('a replication push answers the same on its own path as through Express', () => {
  let fast: TestServer;
  let reference: TestServer;
  const people = new Map<TestServer, Person>();

  beforeAll(async () => {
    fast = await startTestServer();
    reference = await startTestServer({}, undefined, { pushPath: false });
    for (const server of [fast, reference]) people.set(server, await person(server.url));
  });
  afterAll(async () => {
    await fast?.cleanup();
    await reference?.cleanup();
  });

  /** What a browser on the app sends with a push, for `server`'s signed-in person. */
  function browserHeaders(server: TestServer, body: Buffer | string): Record<string, string | number> {
    return {
      host: new URL(server.url).host,
      origin: server.url,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      cookie: people.get(server)!.http.cookieHeader(),
    };
  }

  /** The same request to both servers; both answers, checked to mean the same. */
  async function both(
    path: string,
    body: Buffer | string,
    change: (headers: Record<string, string | number>, server: TestServer) => void = () => {},
  ): Promise<RawAnswer> {
    const answers: RawAnswer[] = [];
    for (const server of [fast, reference]) {
      const headers = browserHeaders(server, body);
      change(headers, server);
      answers.push(await send(server.url, path, headers, body));
    }
    const [mine, theirs] = answers as [RawAnswer, RawAnswer];
    expect(mine.status).toBe(theirs.status);
    expect(mine.body).toEqual(theirs.body);
    expect(meaningful(mine.headers)).toEqual(meaningful(theirs.headers));
    // Every answer carries the security policy, refusals included.
    expect(mine.headers['content-security-policy']).toContain("default-src 'self'");
    return mine;
  }

  const rows = (doc: Record<string, unknown>) => JSON.stringify([{ assumedMasterState: null, newDocumentState: doc }]);

  it('a new gig: stored, and answered as the server keeps it', async () => {
    const doc = gigDoc({ title: 'Mural for a bakery wall' });
    const answers: RawAnswer[] = [];
    for (const server of [fast, reference]) {
      const body = rows(doc);
      answers.push(await send(server.url, '/api/sync/gigs/push', browserHeaders(server, body), body));
    }
    for (const [i, server] of [fast, reference].entries()) {
      expect(answers[i]!.status).toBe(200);
      expect(answers[i]!.body).toMatchObject({
        refused: [],
        conflicts: [{ id: doc.id, title: 'Mural for a bakery wall' }],
      });
      expect(server.ctx.store.get('gigs', doc.id as string)?.title).toBe('Mural for a bakery wall');
    }
    expect(meaningful(answers[0]!.headers)).toEqual(meaningful(answers[1]!.headers));
  });

  it('a document the policy refuses: answered with the reason, nothing stored', async () => {
    const doc = gigDoc({ title: '' });
    const answer = await both('/api/sync/gigs/push', rows(doc));
    expect(answer.status).toBe(200);
    expect((answer.body as { refused: unknown[] }).refused).toHaveLength(1);
    expect(fast.ctx.store.get('gigs', doc.id as string)).toBeUndefined();
  });

  it('refusals of the body: not JSON, forbidden keys, nested too deeply, not a list of rows', async () => {
    expect((await both('/api/sync/gigs/push', '[{"newDocumentState": ')).body).toEqual({
      error: 'Request body is not valid JSON',
    });
    expect((await both('/api/sync/gigs/push', '[{"newDocumentState":{"__proto__":{"admin":true}}}]')).status).toBe(400);
    expect((await both('/api/sync/gigs/push', '['.repeat(40) + ']'.repeat(40))).body).toEqual({
      error: 'Request body is nested too deeply',
    });
    expect((await both('/api/sync/gigs/push', '{"rows":[]}')).body).toEqual({ error: SYNC_ERRORS.badPushBody });
    expect((await both('/api/sync/gigs/push', 'null')).status).toBe(400);
    // A byte order mark is not part of the JSON.
    expect((await both('/api/sync/gigs/push', '\ufeff[]')).status).toBe(200);
  });

  it('collections: unknown ones, and names that are properties of every object', async () => {
    for (const name of ['nope', 'constructor', 'tostring', 'toString', '__proto__', 'sessions', 'hasOwnProperty']) {
      const answer = await both(`/api/sync/${name}/push`, '[]');
      expect(answer.status, name).toBe(404);
    }
    // Express decodes the path: an encoded name is the collection it spells.
    expect((await both('/api/sync/gig%73/push', '[]')).status).toBe(200);
    expect((await both('/api/sync/nope/push', '[]')).body).toEqual({ error: SYNC_ERRORS.unknownCollection });
  });

  it('who is asking: no session, an unknown token, a session that slid (its cookie comes back)', async () => {
    expect((await both('/api/sync/gigs/push', '[]', (h) => delete h.cookie)).body).toEqual({
      error: 'Please log in to continue',
    });
    expect((await both('/api/sync/gigs/push', '[]', (h) => (h.cookie = 'sid=not-a-session'))).status).toBe(401);

    const cookies: string[] = [];
    for (const server of [fast, reference]) {
      const token = people.get(server)!.http.sessionToken()!;
      const stored = server.ctx.store.get('sessions', hashToken(token))!;
      await server.ctx.store.commit([
        { collection: 'sessions', doc: { ...stored, expiresAt: Date.now() + SESSION_TTL_MS - 2 * 3600_000 } },
      ]);
      const answer = await send(server.url, '/api/sync/gigs/push', browserHeaders(server, '[]'), '[]');
      expect(answer.status).toBe(200);
      const cookie = answer.headers['set-cookie']?.[0] ?? '';
      expect(cookie.startsWith(`sid=${token};`)).toBe(true);
      expect(server.ctx.store.get('sessions', hashToken(token))!.expiresAt).toBeGreaterThan(stored.expiresAt as number);
      cookies.push(cookie.replace(token, '…').replace(/Expires=[^;]+/, 'Expires=…'));
    }
    expect(cookies[0]).toBe(cookies[1]);
  });

  it('requests it hands on: another origin or host, not JSON, too large, compressed, chunked, a query', async () => {
    expect((await both('/api/sync/gigs/push', '[]', (h) => (h.origin = 'https://evil.example'))).status).toBe(403);
    expect((await both('/api/sync/gigs/push', '[]', (h) => delete h.origin)).status).toBe(403);
    expect(
      (await both('/api/sync/gigs/push', '[]', (h) => (h.host = `evil.example:${String(h.host).split(':')[1]}`)))
        .status,
    ).toBe(403);
    expect((await both('/api/sync/gigs/push', '[]', (h) => (h['content-type'] = 'text/plain'))).status).toBe(415);
    const large = JSON.stringify([{ newDocumentState: { id: 'x', description: 'a'.repeat(2 * 1024 * 1024) } }]);
    expect((await both('/api/sync/gigs/push', large)).body).toEqual({ error: 'Request body is too large' });
    // A gzip body is read by Express's parser: the same push.
    const zipped = zlib.gzipSync('[]');
    expect((await both('/api/sync/gigs/push', zipped, (h) => (h['content-encoding'] = 'gzip'))).status).toBe(200);
    expect(
      (
        await both('/api/sync/gigs/push', '[]', (h) => {
          delete h['content-length'];
          h['transfer-encoding'] = 'chunked';
        })
      ).status,
    ).toBe(200);
    expect((await both('/api/sync/gigs/push?x=1', '[]')).status).toBe(200);
    expect((await both('/API/SYNC/gigs/push', '[]')).status).toBe(200);
  });

  it('the push path answers a burst of pushes of one person, each stored', async () => {
    const docs = Array.from({ length: 20 }, () => gigDoc());
    const answers = await Promise.all(
      docs.map((doc) => send(fast.url, '/api/sync/gigs/push', browserHeaders(fast, rows(doc)), rows(doc))),
    );
    expect(answers.map((a) => a.status)).toEqual(docs.map(() => 200));
    for (const doc of docs) expect(fast.ctx.store.get('gigs', doc.id as string)).toBeDefined();
  });
});
