import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { gigDoc, signUp, signUpWithProfile, write } from '../support/fixtures';
import { startNodeClient } from '../support/node-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

describe('the client data layer against the real server', () => {
  it('a gig written locally by A goes out, and reaches B live through the change stream', async () => {
    const httpA = new TestClient(server.url);
    const a = await signUpWithProfile(httpA, { name: 'Ada' });
    const httpB = new TestClient(server.url);
    const b = await signUpWithProfile(httpB, { name: 'Ben' });
    const clientA = await startNodeClient(httpA, a.id);
    const clientB = await startNodeClient(httpB, b.id);
    try {
      await clientB.sync.awaitInSync();
      const gig = gigDoc({ title: 'Written offline-first' });
      clientA.outbox.track('gigs', gig.id as string);
      await clientA.db.gigs.insert(gig as never);
      expect(clientA.sync.status.pending).toBe(1);

      await waitFor('the gig on the server', () => server.ctx.store.get('gigs', gig.id as string), 10_000);
      await waitFor("A's outbox emptied", () => clientA.outbox.count === 0, 10_000);
      // The server's stamped fields come back to the writer.
      const mine = await waitFor(
        "the server's fields back at A",
        async () => {
          const d = await clientA.db.gigs.findOne(gig.id as string).exec();
          return d?.createdBy === a.id ? d : undefined;
        },
        10_000,
      );
      expect(mine.creatorName).toBe('Ada');
      const seen = await waitFor('the gig at B', () => clientB.db.gigs.findOne(gig.id as string).exec(), 10_000);
      expect(seen.title).toBe('Written offline-first');
    } finally {
      await clientA.close();
      await clientB.close();
    }
  });

  it('a refused write is kept with its reason and content, and the local copy follows the server', async () => {
    const http = new TestClient(server.url);
    const user = await signUp(http); // no profile: creating a gig is refused
    const client = await startNodeClient(http, user.id);
    try {
      const gig = gigDoc({ title: 'Refused gig' });
      client.outbox.track('gigs', gig.id as string);
      await client.db.gigs.insert(gig as never);
      const problem = await waitFor('a sync problem', () => client.db.syncproblems.findOne().exec(), 10_000);
      expect(problem.reason).toBe('Please complete your profile before creating a gig');
      expect(JSON.parse(problem.content)).toMatchObject({ title: 'Refused gig' });
      await waitFor(
        'the refused gig gone locally',
        async () => (await client.db.gigs.findOne(gig.id as string).exec()) === null,
        10_000,
      );
      expect(client.outbox.count).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('reports a session the server no longer knows', async () => {
    const http = new TestClient(server.url);
    const user = await signUpWithProfile(http);
    const client = await startNodeClient(http, user.id);
    try {
      await client.sync.awaitInSync();
      await http.post('/api/auth/logout');
      http.setCookie('sid', 'revoked-session-token');
      await client.db.gigs.insert(gigDoc() as never);
      await client.unauthorized;
    } finally {
      await client.close();
    }
  });

  it('a pull whose answer never comes (a connection that died without closing) is given up and made again: the gigs arrive', async () => {
    const httpA = new TestClient(server.url);
    await signUpWithProfile(httpA, { name: 'Ada' });
    const gig = gigDoc({ title: 'Behind a dead connection' });
    expect((await write(httpA, 'gigs', gig)).refusal).toBeUndefined();

    const httpB = new TestClient(server.url);
    const b = await signUpWithProfile(httpB, { name: 'Ben' });
    let swallowed = 0;
    // The device's first gigs pull goes out and nothing ever comes back, not even an error.
    const deadFirstPull: typeof fetch = (input, init) => {
      if (String(input).includes('/api/sync/gigs/pull') && swallowed === 0) {
        swallowed++;
        return new Promise<Response>(() => {});
      }
      return fetch(input, init);
    };
    const client = await startNodeClient(httpB, b.id, { fetch: deadFirstPull, requestTimeoutMs: 500 });
    try {
      const seen = await waitFor('the gig at B', () => client.db.gigs.findOne(gig.id as string).exec(), 10_000);
      expect(seen.title).toBe('Behind a dead connection');
      expect(swallowed).toBe(1);
    } finally {
      await client.close();
    }
  });
});
