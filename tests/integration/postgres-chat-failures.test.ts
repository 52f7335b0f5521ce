import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { ChatDocMessage } from '../../shared/chat-doc';
import { pullAll } from '../support/fixtures';
import {
  checkLogOrder,
  databaseLog,
  on,
  scene,
  stamped,
  stampedContents,
  useInstances,
} from '../support/postgres/chat-instances';
import { startTestCluster, type TestCluster } from '../support/postgres/cluster';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';
import { LOAD_ENV, startChildServer, type ChildServer } from '../support/spawn-server';
import { waitFor } from '../support/wait';
import { chatMessage, tryChatSocket } from '../support/yjs-client';

/**
 * Issue 14, chat across instances when something fails: an instance killed with SIGKILL loses no
 * stamped message and the others carry on; PostgreSQL restarting makes chat refuse clearly and
 * recover by itself (docs/decisions/023-postgres-instances.md, "Chat across instances").
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
const { instance, chat, forget } = useInstances(() => db.url);

describe('an instance killed mid-conversation', () => {
  const children: ChildServer[] = [];
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.stop()));
  });

  it('loses no message that was stamped; the other instance carries on, and takes the rest', async () => {
    const env = { ...LOAD_ENV, DATABASE_URL: db.url, SCRYPT_LOG_N: '10' };
    const [one, two] = [await startChildServer({ env }), await startChildServer({ env })];
    children.push(one, two);
    const { buyer, seller, room } = await scene(one, two);
    const a = chat(on(buyer, one), room);
    const b = chat(on(seller, two), room);
    await Promise.all([a.synced(), b.synced()]);

    const written: ChatDocMessage[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const m = chatMessage(buyer.user.id, seller.user.id, `message ${written.length}`);
        written.push(m);
        a.send(m);
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    await waitFor('a conversation under way', () => stamped(a).length >= 20);
    await one.kill();
    writing = false;
    await writer;
    // What A saw stamped is what the server acknowledged.
    const acked = new Map(stamped(a).map((m) => [m.id, m.timestamp]));
    expect(acked.size).toBeGreaterThanOrEqual(20);

    await waitFor('B, on the instance still running, has every acknowledged message', () =>
      [...acked.keys()].every((id) => b.stamps.has(id)),
    );
    for (const [id, t] of acked) expect(b.stamps.get(id)).toBe(t);

    // A's tab moves to the other instance with what it still holds: the rest gets in, stamped once.
    const held = Y.encodeStateAsUpdate(a.doc);
    forget(a);
    a.destroy();
    const moved = new Y.Doc();
    Y.applyUpdate(moved, held);
    const again = chat(on(buyer, two), room, { doc: moved });
    await waitFor('every message A wrote is stamped', () => written.every((m) => again.stamps.has(m.id)), 15_000);
    for (const [id, t] of acked) expect(again.stamps.get(id)).toBe(t);
    b.send(chatMessage(seller.user.id, buyer.user.id, 'Still with you'));
    await waitFor('the conversation goes on', () => stampedContents(again).includes('Still with you'));
    const log = checkLogOrder(await databaseLog(db.url, room));
    expect(log.messages).toHaveLength(written.length + 1);
    // The record follows the newest message, on the instance still running.
    const newest = Math.max(...log.stamps.values());
    await waitFor('the conversation record names the newest message', async () => {
      const docs = (await pullAll(on(seller, two), 'conversations')).documents;
      return docs.find((d) => d.id === room)?.lastMessageTimestamp === newest;
    });
  });
});

describe('PostgreSQL restarting', () => {
  let cluster: TestCluster;
  let own: TestDatabase;
  beforeAll(async () => {
    // A cluster of this test's own: stopping the shared one would stop every other test file.
    cluster = await startTestCluster({ ownServer: true });
    own = await createTestDatabase(cluster.adminUrl);
  }, 60_000);
  afterAll(async () => {
    await own?.drop().catch(() => {});
    await cluster?.stop();
  });

  it('makes chat refuse clearly while it is down (503 on upgrade, 1013 on a socket) and recover by itself', async () => {
    const [one, two] = [await instance({}, own.url), await instance({}, own.url)];
    const { buyer, seller, room } = await scene(one, two);
    const later = await scene(one, two);
    const a = chat(on(buyer, one), room);
    const b = chat(on(seller, two), room);
    const closes: { code: number; reason: string }[] = [];
    a.provider.on('connection-close', (event) => event && closes.push({ code: event.code, reason: event.reason }));
    await Promise.all([a.synced(), b.synced()]);
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Before the restart'));
    await waitFor('B has it', () => stampedContents(b).includes('Before the restart'));

    await cluster.stopServer();
    try {
      // A room not loaded yet cannot be read: the upgrade is refused with a message and Retry-After.
      const refused = await tryChatSocket(one.url, later.room, {
        cookie: on(later.buyer, one).cookieHeader(),
        origin: one.url,
      });
      expect(refused).toEqual({
        status: 503,
        body: { error: 'The service is briefly unavailable. Please try again in a moment.' },
      });
      // A message sent now cannot be saved: the socket closes with a code the client retries.
      a.send(chatMessage(buyer.user.id, seller.user.id, 'During the restart'));
      const closed = await waitFor('A told to come back', () => closes[0], 10_000);
      expect(closed).toEqual({ code: 1013, reason: 'The chat is briefly unavailable; reconnecting' });
      expect(a.closedWith()).toBeUndefined(); // not a refusal: the client reconnects
    } finally {
      await cluster.startServer();
    }

    // Back: the client's reconnect sends what was not saved; the other instance hears it live.
    await waitFor(
      'the message sent during the restart reaches B, stamped',
      () => stampedContents(b).includes('During the restart'),
      20_000,
    );
    // And A sees its own message stamped: through its instance, which may answer after B's heard it.
    await waitFor('A has its message stamped', () => stampedContents(a).includes('During the restart'), 10_000);
    b.send(chatMessage(seller.user.id, buyer.user.id, 'After the restart'));
    await waitFor('A hears B live again', () => stampedContents(a).includes('After the restart'), 10_000);
    const opened = await tryChatSocket(one.url, later.room, {
      cookie: on(later.buyer, one).cookieHeader(),
      origin: one.url,
    });
    expect(opened.status).toBe(101);
    if ('socket' in opened) opened.socket.close();
    checkLogOrder(await databaseLog(own.url, room));
  });
});
