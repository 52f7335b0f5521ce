import pg from 'pg';
import { afterEach, expect } from 'vitest';
import * as Y from 'yjs';
import { CHAT_STAMPS_MAP } from '../../../shared/chat-doc';
import { conversationIdFor } from '../../../shared/ids';
import { applicationDoc, gigDoc, person, write, type Person } from '../fixtures';
import { TestClient } from '../http-client';
import { startTestServer, type TestServer } from '../in-process-server';
import { openChat, storedRoom, type ChatClient } from '../yjs-client';

/**
 * Several server instances on one database, for the tests of chat across instances: servers and
 * chat clients made through `useInstances` are closed after each test.
 */
export function useInstances(databaseUrl: () => string) {
  const servers: TestServer[] = [];
  const chats: ChatClient[] = [];
  afterEach(async () => {
    for (const c of chats.splice(0)) c.destroy();
    await Promise.all(servers.splice(0).map((s) => s.cleanup()));
  });
  return {
    /** A server on the database (`url`, by default the one given). */
    async instance(env: Record<string, string> = {}, url = databaseUrl()): Promise<TestServer> {
      const server = await startTestServer({ DATABASE_URL: url, ...env });
      servers.push(server);
      return server;
    },
    chat(http: TestClient, room: string, options?: Parameters<typeof openChat>[2]): ChatClient {
      const c = openChat(http, room, options);
      chats.push(c);
      return c;
    },
    /** Forgets a client already destroyed by its test. */
    forget(c: ChatClient): void {
      chats.splice(chats.indexOf(c), 1);
    },
  };
}

/** The same signed-in session on another instance (a load balancer sent the request there). */
export const on = (who: Person, server: { url: string }) => TestClient.withSession(server.url, who.http.sessionToken());

/** A buyer who signs up and posts a gig on `first`, a seller who signs up and applies on `second`. */
export async function scene(first: { url: string }, second: { url: string }) {
  const buyer = await person(first.url, { name: 'Bea Buyer' });
  const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Poster design' }))).master!;
  const seller = await person(second.url, { name: 'Sam Seller' });
  const applied = await write(seller.http, 'applications', applicationDoc(gig.id as string, seller.user.id));
  expect(applied.refusal).toBeUndefined();
  return { buyer, seller, gig, room: conversationIdFor(buyer.user.id, seller.user.id) };
}

export const stamped = (c: ChatClient) => c.shown().filter((m) => !m.pending);
export const stampedContents = (c: ChatClient) => stamped(c).map((m) => m.content);

/** A room's log as the database at `url` holds it, entry by entry in log order. */
export async function databaseLog(url: string, room: string): Promise<Uint8Array[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ update: Buffer }>(
      'SELECT update FROM chat_updates WHERE room = $1 ORDER BY pos',
      [room],
    );
    return rows.map((r) => new Uint8Array(r.update));
  } finally {
    await client.end();
  }
}

/**
 * Checks the log read in order: each entry's new stamps come after every stamp before it (a
 * stamp is decided on the room's true tail), no stamp is given twice, no message appears twice.
 * Returns the room as the log holds it.
 */
export function checkLogOrder(log: Uint8Array[]): ReturnType<typeof storedRoom> {
  const doc = new Y.Doc();
  const stamps = doc.getMap<number>(CHAT_STAMPS_MAP);
  let newest = -1;
  for (const [i, entry] of log.entries()) {
    const before = new Set(stamps.keys());
    Y.applyUpdate(doc, entry);
    const added = [...stamps.entries()].filter(([id]) => !before.has(id)).map(([, t]) => t);
    if (added.length > 0) {
      expect(Math.min(...added), `entry ${i} stamps before an earlier entry's`).toBeGreaterThan(newest);
      newest = Math.max(...added);
    }
  }
  expect(doc.store.pendingStructs).toBeNull();
  const room = storedRoom([Y.encodeStateAsUpdate(doc)]);
  const ids = room.messages.map((m) => m.id);
  expect(new Set(ids).size).toBe(ids.length);
  const times = [...room.stamps.values()];
  expect(new Set(times).size).toBe(times.length);
  return room;
}
