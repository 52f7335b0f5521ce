import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChangesEvent } from '../../shared/sync/protocol';
import { startChildServer, type ChildServer } from '../support/spawn-server';
import { TestClient } from '../support/http-client';
import { applicationDoc, gigDoc, pullAll, signUpWithProfile, write } from '../support/fixtures';
import { openStream } from '../support/sse';
import { startTestServer } from '../support/in-process-server';
import { ON_POSTGRES } from '../support/store-under-test';
import { waitFor } from '../support/wait';

describe('change stream', () => {
  it("a change by one session reaches another session's stream, filtered to what that user may see", async () => {
    const server = await startTestServer();
    try {
      const buyer = new TestClient(server.url);
      await signUpWithProfile(buyer);
      const seller = new TestClient(server.url);
      const sellerUser = await signUpWithProfile(seller);
      const stranger = new TestClient(server.url);
      await signUpWithProfile(stranger);
      const sellerStream = await openStream(server.url + '/api/sync/stream', seller.cookieHeader());
      const strangerStream = await openStream(server.url + '/api/sync/stream', stranger.cookieHeader());
      expect(sellerStream.status).toBe(200);
      await sellerStream.waitFor((e) => e.event === 'hello');

      const gig = (await write(buyer, 'gigs', gigDoc({ title: 'Live gig' }))).master!;
      const seen = await sellerStream.waitFor(
        (e) => e.event === 'changes' && (e.data as ChangesEvent).documents.some((d) => d.id === gig.id),
      );
      expect((seen.data as ChangesEvent).collection).toBe('gigs');

      await write(seller, 'applications', applicationDoc(gig.id as string, sellerUser.id));
      await sellerStream.waitFor((e) => (e.data as ChangesEvent).collection === 'applications');
      await strangerStream.waitFor((e) => (e.data as ChangesEvent).documents?.some((d) => d.id === gig.id));
      expect(strangerStream.events.some((e) => (e.data as ChangesEvent).collection === 'applications')).toBe(false);
      expect(strangerStream.events.some((e) => (e.data as ChangesEvent).collection === 'notifications')).toBe(false);
      sellerStream.close();
      strangerStream.close();
    } finally {
      await server.cleanup();
    }
  });

  it('logout ends the session’s stream', async () => {
    const server = await startTestServer();
    try {
      const client = new TestClient(server.url);
      await signUpWithProfile(client);
      const stream = await openStream(server.url + '/api/sync/stream', client.cookieHeader());
      await stream.waitFor((e) => e.event === 'hello');
      await client.post('/api/auth/logout');
      await stream.ended;
      const reopened = await openStream(server.url + '/api/sync/stream', client.cookieHeader());
      expect(reopened.status).toBe(401);
    } finally {
      await server.cleanup();
    }
  });
});

describe('durability', () => {
  it('a restart keeps every account, gig, application and session', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-restart-'));
    let server = await startTestServer({}, dir);
    const client = new TestClient(server.url);
    const user = await signUpWithProfile(client);
    const gig = (await write(client, 'gigs', gigDoc({ title: 'Survives restarts' }))).master!;
    await server.close();

    server = await startTestServer({}, dir);
    const again = new TestClient(server.url);
    again.setCookie('sid', client.cookieHeader().replace('sid=', ''));
    const session = await again.get<{ user: { id: string } }>('/api/auth/session');
    expect(session.body.user.id).toBe(user.id);
    expect((await pullAll(again, 'gigs')).documents.find((g) => g.id === gig.id)).toMatchObject({
      title: 'Survives restarts',
    });
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('a server killed with SIGKILL during concurrent writes loses no acknowledged write and restarts cleanly', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-kill-'));
    const acknowledged: string[] = [];
    for (let round = 0; round < 3; round++) {
      const child = await startChildServer({
        dataDir: dir,
        env: { SCRYPT_LOG_N: '10', LOG_LEVEL: 'info', DIST_DIR: path.resolve('dist'), SNAPSHOT_EVERY_COMMITS: '50' },
        ipc: false,
      });
      const client = new TestClient(child.url);
      await signUpWithProfile(client);
      let stop = false;
      const writers = Array.from({ length: 20 }, async () => {
        while (!stop) {
          const gig = gigDoc();
          try {
            const { master } = await write(client, 'gigs', gig);
            if (master && !master._deleted) acknowledged.push(gig.id as string);
          } catch {
            return; // the server died mid-request: not acknowledged
          }
        }
      });
      // Killed at a random moment once writes flow. (On PostgreSQL the twenty first pushes,
      // sent at once, are answered together once the last has committed: over a second on a busy
      // machine, where a fixed delay killed the server before anything was acknowledged.)
      const before = acknowledged.length;
      await waitFor('writes are acknowledged', () => acknowledged.length - before >= 10, 20_000);
      await new Promise((r) => setTimeout(r, Math.random() * 700));
      const killed = child.kill();
      stop = true;
      await Promise.all(writers);
      await killed;
    }
    expect(acknowledged.length).toBeGreaterThan(20);
    const server = await startTestServer({}, dir);
    for (const id of acknowledged) expect(server.ctx.store.get('gigs', id), id).toBeDefined();
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
});

// The embedded store's data folder: on PostgreSQL any number of instances share one database.
describe.runIf(!ON_POSTGRES)('one server per data folder', () => {
  it('a server started on a folder another server process owns refuses with a clear message', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-lock-'));
    let other: ChildServer | undefined;
    try {
      other = await startChildServer({ dataDir: dir, env: { LOG_LEVEL: 'error' }, ipc: false });
      await expect(startTestServer({}, dir)).rejects.toThrow(
        /Another server process \(pid \d+\) is using the data folder/,
      );
    } finally {
      await other?.stop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
