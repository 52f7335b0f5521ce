import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { conversationIdFor } from '../../shared/ids';
import { applicationDoc, gigDoc, person, pullAll, write } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';
import { chatMessage, openChat, storedRoom, tryChatSocket, updateFrame, type ChatClient } from '../support/yjs-client';
import { chatLogOf } from '../support/store-under-test';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.cleanup();
});

const opened: ChatClient[] = [];
afterEach(() => {
  for (const c of opened.splice(0)) c.destroy();
});
function chat(http: TestClient, room: string, headers?: Parameters<typeof openChat>[2]): ChatClient {
  const c = openChat(http, room, headers);
  opened.push(c);
  return c;
}

/** A buyer with a gig and a seller who applied to it (an application links them), and a stranger. */
async function scene(on: TestServer = server) {
  const buyer = await person(on.url, { name: 'Bea Buyer' });
  const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Poster design' }))).master!;
  const seller = await person(on.url, { name: 'Sam Seller' });
  const applied = await write(seller.http, 'applications', applicationDoc(gig.id as string, seller.user.id));
  expect(applied.refusal).toBeUndefined();
  const stranger = await person(on.url, { name: 'Stan Stranger' });
  const room = conversationIdFor(buyer.user.id, seller.user.id);
  return { buyer, seller, stranger, gig, room };
}

const contents = (c: ChatClient) => c.shown().map((m) => m.content);
const stampedContents = (c: ChatClient) =>
  c
    .shown()
    .filter((m) => !m.pending)
    .map((m) => m.content);

describe('docs/product.md §5 Chat access: who may open a chat socket', () => {
  it("refuses a signed-out visitor with 401 'Please log in to start a conversation'", async () => {
    const { room } = await scene();
    const res = await tryChatSocket(server.url, room, { origin: server.url });
    expect(res).toEqual({ status: 401, body: { error: 'Please log in to start a conversation' } });
  });

  it('refuses a socket opened from another origin (403), even with a valid session', async () => {
    const { buyer, room } = await scene();
    const res = await tryChatSocket(server.url, room, {
      cookie: buyer.http.cookieHeader(),
      origin: 'http://evil.example',
    });
    expect(res.status).toBe(403);
    const none = await tryChatSocket(server.url, room, { cookie: buyer.http.cookieHeader(), origin: null });
    expect(none.status).toBe(403);
  });

  it("'Only the participants of a conversation may read it': a third user gets 403 and is sent to /applications", async () => {
    const { stranger, room } = await scene();
    const res = await tryChatSocket(server.url, room, { cookie: stranger.http.cookieHeader(), origin: server.url });
    expect(res).toMatchObject({ status: 403, body: { redirectTo: '/applications' } });
  });

  it("'A conversation may be created only if an application links the two users': 403 with a redirect to /applications", async () => {
    const { buyer, stranger } = await scene();
    const room = conversationIdFor(buyer.user.id, stranger.user.id);
    const res = await tryChatSocket(server.url, room, { cookie: buyer.http.cookieHeader(), origin: server.url });
    expect(res).toEqual({
      status: 403,
      body: { error: 'A conversation needs an application linking the two users.', redirectTo: '/applications' },
    });
  });

  it("'A user cannot converse with themselves': 400 'You cannot converse with yourself'", async () => {
    const { buyer } = await scene();
    const room = `${buyer.user.id}_${buyer.user.id}`;
    const res = await tryChatSocket(server.url, room, { cookie: buyer.http.cookieHeader(), origin: server.url });
    expect(res).toEqual({ status: 400, body: { error: 'You cannot converse with yourself' } });
  });

  it('refuses an id that is not the two ids sorted and joined by an underscore (400)', async () => {
    const { buyer, seller } = await scene();
    const [a, b] = [buyer.user.id, seller.user.id].sort();
    const res = await tryChatSocket(server.url, `${b}_${a}`, { cookie: buyer.http.cookieHeader(), origin: server.url });
    expect(res.status).toBe(400);
  });

  it('opens the socket for a linked participant', async () => {
    const { seller, room } = await scene();
    const res = await tryChatSocket(server.url, room, { cookie: seller.http.cookieHeader(), origin: server.url });
    expect(res.status).toBe(101);
    if ('socket' in res) res.socket.close();
  });
});

describe('docs/product.md Chat: live messages with server time', () => {
  it('A and B exchange messages live, each stamped by the server, shown in ascending time order', async () => {
    const { buyer, seller, room } = await scene();
    const a = chat(buyer.http, room);
    const b = chat(seller.http, room);
    await Promise.all([a.synced(), b.synced()]);

    a.send(chatMessage(buyer.user.id, seller.user.id, 'Hello Sam, is the poster on track?'));
    await waitFor('B sees the stamped message', () => stampedContents(b).length === 1);
    b.send(chatMessage(seller.user.id, buyer.user.id, 'Yes, sketches tomorrow.'));
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Great!'));
    const expected = ['Hello Sam, is the poster on track?', 'Yes, sketches tomorrow.', 'Great!'];
    await waitFor(
      'both see all three stamped',
      () => stampedContents(a).length === 3 && stampedContents(b).length === 3,
    );

    expect(stampedContents(a)[0]).toBe(expected[0]);
    expect(new Set(stampedContents(a))).toEqual(new Set(expected));
    expect(stampedContents(b)).toEqual(stampedContents(a));
    const times = a.shown().map((m) => m.timestamp!);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(new Set(times).size).toBe(3);
    expect(a.shown().every((m) => Math.abs(m.timestamp! - Date.now()) < 60_000)).toBe(true);
  });

  it('a message sent before the other side connects reaches it on sync, with its stamp', async () => {
    const { buyer, seller, room } = await scene();
    const a = chat(buyer.http, room);
    await a.synced();
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Are you there?'));
    await waitFor('A sees its stamp', () => stampedContents(a).length === 1);
    const b = chat(seller.http, room);
    await waitFor('B gets the history', () => stampedContents(b).length === 1);
    expect(b.shown()[0]).toMatchObject({ content: 'Are you there?', senderId: buyer.user.id, pending: false });
  });

  it('updates the conversation record and keeps ONE unread new_message notification for the receiver', async () => {
    const { buyer, seller, room, gig } = await scene();
    const a = chat(buyer.http, room);
    await a.synced();
    a.send(chatMessage(buyer.user.id, seller.user.id, 'First message'));
    await waitFor('first stamp', () => stampedContents(a).length === 1);
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Second message'));
    await waitFor('second stamp', () => stampedContents(a).length === 2);
    const secondStamp = a.shown()[1]!.timestamp;

    const conversation = await waitFor('the conversation record names the second message', async () => {
      const docs = (await pullAll(seller.http, 'conversations')).documents;
      return docs.find((d) => d.id === room && d.lastMessage === 'Second message');
    });
    expect(conversation).toMatchObject({
      participants: [buyer.user.id, seller.user.id].sort(),
      lastMessage: 'Second message',
      lastMessageTimestamp: secondStamp,
      lastSenderId: buyer.user.id,
      lastMessageRead: false,
      gigId: gig.id,
      gigTitle: 'Poster design',
      creatorId: buyer.user.id,
      isCreatorInitiated: true,
    });

    const notes = (await pullAll(seller.http, 'notifications')).documents.filter(
      (n) => n.type === 'new_message' && n.conversationId === room,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      userId: seller.user.id,
      read: false,
      senderId: buyer.user.id,
      senderName: 'Bea Buyer',
      message: 'New message from “Bea Buyer”: Second message',
    });
    const buyerNotes = (await pullAll(buyer.http, 'notifications')).documents.filter((n) => n.type === 'new_message');
    expect(buyerNotes).toHaveLength(0);
  });
});

describe("the receiver's new_message notice", () => {
  const notices = async (receiver: { http: TestClient }, room: string) =>
    (await pullAll(receiver.http, 'notifications')).documents.filter(
      (n) => n.type === 'new_message' && n.conversationId === room,
    );

  it('once read, stays read: the next message brings a new unread notice, which the one after updates', async () => {
    const { buyer, seller, room } = await scene();
    const a = chat(buyer.http, room);
    await a.synced();
    a.send(chatMessage(buyer.user.id, seller.user.id, 'First message'));
    const [first] = await waitFor('the seller is notified', async () => {
      const notes = await notices(seller, room);
      return notes.length === 1 ? notes : undefined;
    });
    expect((await write(seller.http, 'notifications', { ...first, read: true }, first)).refusal).toBeUndefined();

    a.send(chatMessage(buyer.user.id, seller.user.id, 'Second message'));
    await waitFor('a second notice', async () => (await notices(seller, room)).length === 2);
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Third message'));
    const notes = await waitFor('the unread notice names the third message', async () => {
      const all = await notices(seller, room);
      return all.some((n) => n.read === false && String(n.message).endsWith('Third message')) ? all : undefined;
    });
    expect(notes).toHaveLength(2);
    expect(notes.find((n) => n.id === first!.id)).toMatchObject({
      read: true,
      message: 'New message from “Bea Buyer”: First message',
    });
    expect(notes.find((n) => n.id !== first!.id)).toMatchObject({
      read: false,
      message: 'New message from “Bea Buyer”: Third message',
    });
  });

  it("is the conversation's own among the receiver's other unread notices", async () => {
    const { buyer, seller, room } = await scene();
    // The seller also talks with a second buyer, whose notice stays unread.
    const other = await person(server.url, { name: 'Otto Other' });
    const otherGig = (await write(other.http, 'gigs', gigDoc({ title: 'Zine layout' }))).master!;
    expect(
      (await write(seller.http, 'applications', applicationDoc(otherGig.id as string, seller.user.id))).refusal,
    ).toBeUndefined();
    const otherRoom = conversationIdFor(other.user.id, seller.user.id);
    const o = chat(other.http, otherRoom);
    const a = chat(buyer.http, room);
    await Promise.all([o.synced(), a.synced()]);
    o.send(chatMessage(other.user.id, seller.user.id, 'Hello from Otto'));
    await waitFor('the seller is notified by Otto', async () => (await notices(seller, otherRoom)).length === 1);

    a.send(chatMessage(buyer.user.id, seller.user.id, 'Hello from Bea'));
    await waitFor('the seller is notified by Bea', async () => (await notices(seller, room)).length === 1);
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Bea again'));
    await waitFor('Bea’s notice names her second message', async () =>
      (await notices(seller, room)).some((n) => String(n.message).endsWith('Bea again')),
    );
    expect(await notices(seller, room)).toEqual([
      expect.objectContaining({
        read: false,
        senderId: buyer.user.id,
        message: 'New message from “Bea Buyer”: Bea again',
      }),
    ]);
    expect(await notices(seller, otherRoom)).toEqual([
      expect.objectContaining({
        read: false,
        senderId: other.user.id,
        message: 'New message from “Otto Other”: Hello from Otto',
      }),
    ]);
  });
});

describe('forged updates are refused (close code 4403) and change nothing; the room carries on', () => {
  /** An honest pair in a room with one message, and a third socket of the buyer to misbehave on. */
  async function forgeryScene() {
    const s = await scene();
    const honestA = chat(s.buyer.http, s.room);
    const b = chat(s.seller.http, s.room);
    const forger = chat(s.buyer.http, s.room);
    await Promise.all([honestA.synced(), b.synced(), forger.synced()]);
    honestA.send(chatMessage(s.buyer.user.id, s.seller.user.id, 'The only real message so far'));
    await waitFor('everyone has the first message stamped', () =>
      [honestA, b, forger].every((c) => stampedContents(c).length === 1),
    );
    return { ...s, honestA, b, forger };
  }

  const forgeries: [string, (f: Awaited<ReturnType<typeof forgeryScene>>) => void, string][] = [
    [
      'a message in the name of the other user',
      (f) => f.forger.send(chatMessage(f.seller.user.id, f.buyer.user.id, 'I will pay double')),
      'signed-in user',
    ],
    ['the deletion of a message', (f) => f.forger.messages.delete(0, 1), 'deleted'],
    ['an empty message', (f) => f.forger.send(chatMessage(f.buyer.user.id, f.seller.user.id, '')), 'empty'],
    [
      'a whitespace-only message',
      (f) => f.forger.send(chatMessage(f.buyer.user.id, f.seller.user.id, '  \n\t ')),
      'empty',
    ],
    [
      'a message over 5000 characters',
      (f) => f.forger.send(chatMessage(f.buyer.user.id, f.seller.user.id, 'x'.repeat(5001))),
      '5000',
    ],
    ['a write to another shared type', (f) => f.forger.doc.getText('draft').insert(0, 'sneaky'), 'Only messages'],
    ['a write to stamps', (f) => f.forger.stamps.set(f.forger.messages.get(0).id, 1), 'server writes stamps'],
  ];

  it.each(forgeries)('refuses %s', async (_case, forge, reason) => {
    const f = await forgeryScene();
    const storedBefore = storedRoom(await chatLogOf(server.ctx.store, f.room));
    forge(f);
    const closed = await waitFor('the forger is disconnected', () => f.forger.closedWith());
    expect(closed.code).toBe(4403);
    expect(closed.reason).toContain(reason);

    // The honest clients keep talking, and never saw the forgery.
    f.b.send(chatMessage(f.seller.user.id, f.buyer.user.id, 'Still here'));
    await waitFor('A gets B’s reply', () => stampedContents(f.honestA).includes('Still here'));
    f.honestA.send(chatMessage(f.buyer.user.id, f.seller.user.id, 'Me too'));
    await waitFor('B gets A’s answer', () => stampedContents(f.b).includes('Me too'));
    for (const c of [f.honestA, f.b]) {
      expect(contents(c)).toEqual(['The only real message so far', 'Still here', 'Me too']);
      expect([...c.doc.share.keys()].sort()).toEqual(['messages', 'stamps']);
      expect([...c.stamps.values()].every((t) => t > 1)).toBe(true);
    }

    // The stored room holds the three real messages and nothing else.
    const stored = storedRoom(await chatLogOf(server.ctx.store, f.room));
    expect(stored.types.sort()).toEqual(['messages', 'stamps']);
    expect(stored.messages.map((m) => m.content)).toEqual([
      ...storedBefore.messages.map((m) => m.content),
      'Still here',
      'Me too',
    ]);
    expect(stored.stamps.size).toBe(3);
  });

  it('refuses an update with missing dependencies instead of holding it pending', async () => {
    const f = await forgeryScene();
    // The forger writes two messages while cut off, then sends only the second one raw.
    f.forger.provider.disconnect();
    f.forger.send(chatMessage(f.buyer.user.id, f.seller.user.id, 'one'));
    const mid = Y.encodeStateVector(f.forger.doc);
    f.forger.send(chatMessage(f.buyer.user.id, f.seller.user.id, 'two'));
    const onlySecond = Y.encodeStateAsUpdate(f.forger.doc, mid);
    const res = await tryChatSocket(server.url, f.room, { cookie: f.buyer.http.cookieHeader(), origin: server.url });
    if (!('socket' in res)) throw new Error(`expected a socket, got ${res.status}`);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      res.socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    res.socket.send(updateFrame(onlySecond));
    expect(await closed).toEqual({ code: 4403, reason: 'The update depends on changes the server does not have' });

    f.b.send(chatMessage(f.seller.user.id, f.buyer.user.id, 'Carrying on'));
    await waitFor('A still gets messages', () => stampedContents(f.honestA).includes('Carrying on'));
    expect(contents(f.honestA)).toEqual(['The only real message so far', 'Carrying on']);
  });
});

describe('awareness: presence and typing', () => {
  it('relays a user’s own presence and drops presence claiming another user’s id', async () => {
    const { buyer, seller, room } = await scene();
    const a = chat(buyer.http, room);
    const b = chat(seller.http, room);
    await Promise.all([a.synced(), b.synced()]);

    a.provider.awareness.setLocalState({ user: { id: buyer.user.id, name: 'Bea Buyer' }, typing: true });
    await waitFor('B sees A typing', () => b.provider.awareness.getStates().get(a.doc.clientID)?.typing === true);

    a.provider.awareness.setLocalState({ user: { id: seller.user.id, name: 'Sam Seller' }, typing: false });
    // Anything A sends after the forged presence reaches B after it: a message marks the point.
    a.send(chatMessage(buyer.user.id, seller.user.id, 'marker'));
    await waitFor('B gets the marker', () => stampedContents(b).includes('marker'));
    const seen = b.provider.awareness.getStates().get(a.doc.clientID);
    expect(seen).toEqual({ user: { id: buyer.user.id, name: 'Bea Buyer' }, typing: true });
    expect(a.closedWith()).toBeUndefined();
  });

  it('removes a user’s presence when their socket closes', async () => {
    const { buyer, seller, room } = await scene();
    const a = chat(buyer.http, room);
    const b = chat(seller.http, room);
    await Promise.all([a.synced(), b.synced()]);
    a.provider.awareness.setLocalState({ user: { id: buyer.user.id, name: 'Bea Buyer' }, typing: false });
    await waitFor('B sees A', () => b.provider.awareness.getStates().has(a.doc.clientID));
    // A socket that drops without a goodbye: the server removes its presence for B.
    (a.provider.ws as unknown as { terminate(): void }).terminate();
    a.provider.shouldConnect = false;
    await waitFor('A gone for B', () => !b.provider.awareness.getStates().has(a.doc.clientID));
  });
});

describe('sessions', () => {
  it("closes a user's chat socket when they log out (4401)", async () => {
    const { buyer, room } = await scene();
    const a = chat(buyer.http, room);
    await a.synced();
    await buyer.http.post('/api/auth/logout');
    const closed = await waitFor('socket closed', () => a.closedWith());
    expect(closed).toEqual({ code: 4401, reason: 'Please log in to start a conversation' });
  });
});

describe('persistence', () => {
  it('messages and stamps survive a server restart', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-chat-'));
    let first: TestServer | undefined = await startTestServer({}, dir);
    let second: TestServer | undefined;
    try {
      const { buyer, seller, room } = await scene(first);
      const a = chat(buyer.http, room);
      await a.synced();
      a.send(chatMessage(buyer.user.id, seller.user.id, 'Written before the restart'));
      await waitFor('stamped', () => stampedContents(a).length === 1);
      const stampBefore = a.shown()[0]!.timestamp;
      a.destroy();
      await first.close();
      first = undefined;

      second = await startTestServer({}, dir);
      // The same browser session, now talking to the restarted server on its new port.
      const sellerAgain = TestClient.withSession(second.url, seller.http.sessionToken());
      const b = chat(sellerAgain, room);
      await waitFor('history after restart', () => stampedContents(b).length === 1);
      expect(b.shown()[0]).toMatchObject({ content: 'Written before the restart', timestamp: stampBefore });
      b.send(chatMessage(seller.user.id, buyer.user.id, 'And after it'));
      await waitFor('new message stamped after the old one', () => stampedContents(b).length === 2);
      expect(stampedContents(b)).toEqual(['Written before the restart', 'And after it']);
    } finally {
      for (const c of opened.splice(0)) c.destroy();
      await first?.close();
      await second?.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("a busy room's log is merged as it grows, while the room is open: no entry lost", async () => {
    // A server whose rooms merge their log's tail past 100 small entries (1,000 by default).
    const own = await startTestServer({}, undefined, { chatCompactAfter: 100 });
    try {
      const { buyer, seller, room } = await scene(own);
      const a = chat(buyer.http, room);
      const b = chat(seller.http, room);
      await Promise.all([a.synced(), b.synced()]);
      // Each message, decided alone, is two log entries (the message and its stamp): 60 of them
      // pass the 100 newest small entries after which the log's tail is merged into one.
      for (let i = 1; i <= 60; i++) {
        a.send(chatMessage(buyer.user.id, seller.user.id, `Line ${i}`));
        await waitFor(`line ${i} stamped`, () => stampedContents(a).length === i);
      }
      await waitFor('B has every line', () => stampedContents(b).length === 60);
      const log = await chatLogOf(own.ctx.store, room);
      expect(log.length).toBeLessThan(50);
      expect(storedRoom(log).messages.map((m) => m.content)).toEqual(
        Array.from({ length: 60 }, (_, i) => `Line ${i + 1}`),
      );
    } finally {
      for (const c of opened.splice(0)) c.destroy();
      await own.cleanup();
    }
  });

  it('an idle room is compacted into one update and unloaded, then loads again on the next join', async () => {
    const quick = await startTestServer({ CHAT_ROOM_IDLE_MS: '20' });
    try {
      const { buyer, seller, room } = await scene(quick);
      const a = chat(buyer.http, room);
      await a.synced();
      for (const text of ['one', 'two', 'three']) a.send(chatMessage(buyer.user.id, seller.user.id, text));
      await waitFor('three stamped', () => stampedContents(a).length === 3);
      expect((await chatLogOf(quick.ctx.store, room)).length).toBeGreaterThan(1);
      a.destroy();
      await waitFor('room unloaded', () => !quick.chat.loadedRooms.includes(room));
      expect(await chatLogOf(quick.ctx.store, room)).toHaveLength(1);

      const b = chat(seller.http, room);
      await waitFor('history from the compacted log', () => stampedContents(b).length === 3);
      expect(contents(b)).toEqual(['one', 'two', 'three']);
    } finally {
      for (const c of opened.splice(0)) c.destroy();
      await quick.cleanup();
    }
  });

  it('a join and a message landing while the room unloads and compacts are kept through a restart', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-chat-'));
    // The room unloads (compacting its log) as soon as it is empty: every leave races the next join.
    let first: TestServer | undefined = await startTestServer({ CHAT_ROOM_IDLE_MS: '0' }, dir);
    let second: TestServer | undefined;
    try {
      const { buyer, seller, room } = await scene(first);
      const sent: string[] = [];
      let unloads = 0;
      for (let i = 0; i < 12; i++) {
        const [who, other] = i % 2 === 0 ? [buyer, seller] : [seller, buyer];
        const c = chat(who.http, room);
        await c.synced();
        const text = `turn ${i}`;
        c.send(chatMessage(who.user.id, other.user.id, text));
        sent.push(text);
        await waitFor(`${text} stamped`, () => stampedContents(c).includes(text));
        c.destroy();
        // Every third turn the room is dropped (compacted) before the next join; otherwise the
        // next join comes while the unload of this one settles, compacts and drops the room.
        if (i % 3 === 0) {
          await waitFor('the room unloaded', () => !first!.chat.loadedRooms.includes(room));
          unloads++;
        } else {
          await new Promise((r) => setTimeout(r, i % 3));
        }
      }
      await waitFor('the room unloaded', () => !first!.chat.loadedRooms.includes(room));
      expect(unloads).toBe(4);
      await first.close();
      first = undefined;

      second = await startTestServer({}, dir);
      const reader = chat(TestClient.withSession(second.url, seller.http.sessionToken()), room);
      await waitFor(
        'every message served, stamped, after the restart',
        () => stampedContents(reader).length === sent.length,
      );
      expect([...stampedContents(reader)].sort()).toEqual([...sent].sort());
    } finally {
      for (const c of opened.splice(0)) c.destroy();
      await first?.close();
      await second?.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
