import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, orderChatMessages } from '../../shared/chat-doc';
import { INDEXES } from '../../sync-server/indexes';
import { PgStore } from '../../sync-server/store/postgres/pg-store';
import { StoreUnavailableError } from '../../sync-server/store/store';
import { pullAll } from '../support/fixtures';
import { Rng } from '../support/rng';
import type { TestClient } from '../support/http-client';
import {
  checkLogOrder,
  databaseLog as logOf,
  on,
  scene,
  stamped,
  stampedContents,
  useInstances,
} from '../support/postgres/chat-instances';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';
import { writerElsewhere } from '../support/postgres/write-elsewhere';
import { chatLogOf } from '../support/store-under-test';
import { waitFor } from '../support/wait';
import { chatMessage, openChat, storedRoom, tryChatSocket, updateFrame, type ChatClient } from '../support/yjs-client';

/**
 * Issue 14, chat across instances: several servers on one PostgreSQL database, users on
 * different instances. Each update is judged against the room's true tail whichever instance
 * receives it, appended with its stamps, and relayed to the other instances' rooms
 * (docs/decisions/023-postgres-instances.md, "Chat across instances"). Instances killed and
 * PostgreSQL restarting: postgres-chat-failures.test.ts.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
const { instance, chat } = useInstances(() => db.url);
const databaseLog = (room: string) => logOf(db.url, room);

/** An update made by a fresh client on top of what `stored` holds, as the client `clientID`. */
function craft(stored: Uint8Array[], clientID: number, change: (doc: Y.Doc) => void): Uint8Array {
  const doc = new Y.Doc();
  if (stored.length > 0) Y.applyUpdate(doc, Y.mergeUpdates(stored));
  // Set after loading: Yjs takes another id when what it loads was written with its own.
  doc.clientID = clientID;
  const before = Y.encodeStateVector(doc);
  change(doc);
  const update = Y.encodeStateAsUpdate(doc, before);
  doc.destroy();
  return update;
}

/** Opens a raw socket as `http`'s user, sends `update`, and resolves with how the server closed it. */
async function sendRaw(server: { url: string }, http: TestClient, room: string, update: Uint8Array) {
  const res = await tryChatSocket(server.url, room, { cookie: http.cookieHeader(), origin: server.url });
  if (!('socket' in res)) throw new Error(`expected a socket, got ${res.status}`);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    res.socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  res.socket.send(updateFrame(update));
  return closed;
}

describe('chat logs held by several instances', () => {
  const stores: PgStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  const open = async (room: string) => {
    const store = await PgStore.open({ connectionString: db.url, indexes: INDEXES, idlePollMs: 200 });
    stores.push(store);
    await store.openChat(room);
    return store;
  };
  /** Successive updates of one writer, each pushing one message. */
  const writer = () => {
    const doc = new Y.Doc();
    return (text: string) => {
      const before = Y.encodeStateVector(doc);
      doc.getArray(CHAT_MESSAGES_ARRAY).push([chatMessage('u-a', 'u-b', text)]);
      return Y.encodeStateAsUpdate(doc, before);
    };
  };
  const texts = (log: Uint8Array[]) => storedRoom(log).messages.map((m) => m.content);
  /** Two instances holding a room, `a` having appended `appended` (one writer's messages) and `b` read them. */
  const twoHolding = async (room: string, appended: string[]) => {
    const [a, b] = [await open(room), await open(room)];
    const write = writer();
    for (const text of appended) await a.appendChatUpdate(room, write(text));
    await waitFor(`b has read the ${appended.length}`, () => b.chatUpdates(room).length === appended.length);
    return { a, b, write };
  };

  it('take a decision made on a log another instance appended to again, after handing over what it missed', async () => {
    const room = 'u-a_u-b-decide';
    const b = await open(room);
    const heard: string[] = [];
    b.onRemoteChat((r, updates) => r === room && heard.push(...texts(updates)));
    const write = writer();
    // Appended elsewhere and not announced (a notification lost, say): b has not heard of it when it decides.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('INSERT INTO chat_updates (room, pos, update) VALUES ($1, 1, $2)', [
      room,
      Buffer.from(write('first')),
    ]);
    await client.end();
    const second = write('second');
    const seen: number[] = [];
    const value = await b.chatTransaction(room, () => {
      seen.push(b.chatUpdates(room).length);
      return { append: [second], value: b.chatUpdates(room).length };
    });
    expect(seen).toEqual([0, 1]);
    expect(value).toBe(1);
    expect(heard).toEqual(['first']);
    expect(texts(b.chatUpdates(room))).toEqual(['first', 'second']);
    expect(texts(await databaseLog(room))).toEqual(['first', 'second']);
  });

  it('give up a decision another instance appended before at every attempt with StoreUnavailableError, appending nothing', async () => {
    const room = 'u-a_u-b-contended';
    const b = await open(room);
    const [write, writeElsewhere] = [writer(), writer()];
    const elsewhere = await writerElsewhere(db.url);
    let attempts = 0;
    try {
      const ours = write('ours');
      const decided = b.chatTransaction(room, () => {
        attempts++;
        // Another instance appends at the position this attempt will ask for, every time.
        const next = b.chatUpdates(room).length + 1;
        const theirs = Buffer.from(writeElsewhere(`elsewhere ${attempts}`)).toString('hex');
        elsewhere.run(
          `INSERT INTO chat_updates (room, pos, update) VALUES ('${room}', ${next}, decode('${theirs}', 'hex'))`,
        );
        return { append: [ours], value: null };
      });
      await expect(decided).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await elsewhere.close();
    }
    expect(attempts).toBe(100);
    const stored = texts(await databaseLog(room));
    expect(stored).toHaveLength(100);
    expect(stored).not.toContain('ours');
    // The log stays usable: the next decision appends.
    await b.appendChatUpdate(room, writeElsewhere('after'));
    expect(texts(await databaseLog(room)).at(-1)).toBe('after');
  });

  it('keep a log whole when another instance compacted the same entries first', async () => {
    const room = 'u-a_u-b-compact';
    const { a, b, write } = await twoHolding(room, ['one', 'two', 'three']);
    await b.compactChat(room, Y.mergeUpdates(b.chatUpdates(room)), { from: 0, to: 3 });
    // a merges the same entries: the database refuses, and a takes the merge b filed.
    await a.compactChat(room, Y.mergeUpdates(a.chatUpdates(room)), { from: 0, to: 3 });
    expect(a.chatUpdates(room)).toHaveLength(1);
    await a.appendChatUpdate(room, write('four'));
    expect(texts(a.chatUpdates(room))).toEqual(['one', 'two', 'three', 'four']);
    expect(await databaseLog(room)).toEqual(a.chatUpdates(room));
  });

  it('keep a log whole when a compaction starts at the position where another instance filed its merge', async () => {
    const room = 'u-a_u-b-compact-at-merge';
    const { a, b } = await twoHolding(room, ['one', 'two', 'three']);
    // b merges one and two, filed at position 2; a, which has not seen that merge, merges two and
    // three (positions 2 and 3): position 2 is there, but it holds b's merge, not two.
    await b.compactChat(room, Y.mergeUpdates(b.chatUpdates(room).slice(0, 2)), { from: 0, to: 2 });
    await a.compactChat(room, Y.mergeUpdates(a.chatUpdates(room).slice(1, 3)), { from: 1, to: 3 });
    expect(texts(await databaseLog(room))).toEqual(['one', 'two', 'three']);
    // Refused, a holds the database's entries from two on (its one is merged into b's entry too).
    expect(texts(a.chatUpdates(room))).toEqual(['one', 'two', 'three']);
    expect(a.chatUpdates(room).slice(1)).toEqual(await databaseLog(room));
  });

  it("hold what another instance's merge filed past a refused compaction's entries holds", async () => {
    const room = 'u-a_u-b-compact-past';
    const { a, b, write } = await twoHolding(room, ['one', 'two', 'three', 'four']);
    // b merges all four, filed at position 4; a merges the first three: refused, it reads the
    // database's entries again, and holds everything the room holds.
    await b.compactChat(room, Y.mergeUpdates(b.chatUpdates(room)), { from: 0, to: 4 });
    await a.compactChat(room, Y.mergeUpdates(a.chatUpdates(room).slice(0, 3)), { from: 0, to: 3 });
    expect(texts(a.chatUpdates(room))).toEqual(['one', 'two', 'three', 'four']);
    expect(await databaseLog(room)).toEqual(a.chatUpdates(room));
    await a.appendChatUpdate(room, write('five'));
    expect(texts(await databaseLog(room))).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(await databaseLog(room)).toEqual(a.chatUpdates(room));
  });

  it("hold what another instance's merge filed past the last position seen took, when a compaction is refused", async () => {
    const room = 'u-a_u-b-compact-unseen';
    const a = await open(room);
    const heard: string[] = [];
    a.onRemoteChat((r, updates) => r === room && heard.push(...texts(updates)));
    const write = writer();
    for (const text of ['one', 'two', 'three']) await a.appendChatUpdate(room, write(text));
    // Another instance appends four and merges all four into position 4, past the last a has
    // seen, without a's hearing of either: a's merge of its three is refused, and a takes that
    // merge at once, four handed over as a catch-up would.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const merged = Y.mergeUpdates([...(await databaseLog(room)), write('four')]);
    await client.query('DELETE FROM chat_updates WHERE room = $1', [room]);
    await client.query('INSERT INTO chat_updates (room, pos, update) VALUES ($1, 4, $2)', [room, Buffer.from(merged)]);
    await client.end();
    await a.compactChat(room, Y.mergeUpdates(a.chatUpdates(room)), { from: 0, to: 3 });
    expect(texts(a.chatUpdates(room))).toEqual(['one', 'two', 'three', 'four']);
    expect(heard).toEqual(['one', 'two', 'three', 'four']);
    expect(a.chatUpdates(room)).toEqual(await databaseLog(room));
  });

  // Three instances appending and merging random stretches of the log as each holds it, several
  // at once: whatever they race into, the database holds every message appended, after every
  // round, and each instance's log catches up to hold them all (seeded: the seed is in the name).
  for (const seed of [20261207, 29, 4242]) {
    it(`keep every message of a room three instances append to and compact at random (seed ${seed})`, async () => {
      const room = `u-a_u-b-random-${seed}`;
      const instances = [await open(room), await open(room), await open(room)];
      const rng = new Rng(seed);
      const appended: string[] = [];
      let count = 0;
      /** One message from a device of its own, leaning on nothing: a lost entry loses exactly it. */
      const message = () => {
        const text = `m${++count}`;
        const doc = new Y.Doc();
        doc.getArray(CHAT_MESSAGES_ARRAY).push([chatMessage('u-a', 'u-b', text)]);
        const update = Y.encodeStateAsUpdate(doc);
        doc.destroy();
        return { text, update };
      };
      for (let round = 0; round < 60; round++) {
        const actions = Array.from({ length: rng.int(2, 5) }, async () => {
          const store = instances[rng.int(0, 2)]!;
          const log = store.chatUpdates(room);
          if (log.length < 2 || rng.chance(0.55)) {
            const { text, update } = message();
            await store.appendChatUpdate(room, update);
            appended.push(text);
            return;
          }
          const from = rng.int(0, log.length - 2);
          const to = rng.int(from + 2, log.length);
          await store.compactChat(room, Y.mergeUpdates(log.slice(from, to)), { from, to });
        });
        await Promise.all(actions);
        const stored = new Set(texts(await databaseLog(room)));
        expect(
          appended.filter((t) => !stored.has(t)),
          `round ${round}: messages the database lost`,
        ).toEqual([]);
      }
      for (const [i, store] of instances.entries()) {
        await waitFor(`instance ${i} holds every message`, () => {
          const held = new Set(texts(store.chatUpdates(room)));
          return appended.every((t) => held.has(t));
        });
      }
    });
  }
});

describe('two users on different instances', () => {
  it('chat live: each message stamped once by the server, in one order both see, recorded for both', async () => {
    const [one, two] = [await instance(), await instance()];
    const { buyer, seller, room } = await scene(one, two);
    const a = chat(on(buyer, one), room);
    const b = chat(on(seller, two), room);
    await Promise.all([a.synced(), b.synced()]);

    a.send(chatMessage(buyer.user.id, seller.user.id, 'Hello Sam, is the poster on track?'));
    await waitFor('B, on the other instance, sees the stamped message', () => stampedContents(b).length === 1);
    b.send(chatMessage(seller.user.id, buyer.user.id, 'Yes, sketches tomorrow.'));
    await waitFor('A sees the answer', () => stampedContents(a).length === 2);
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Great!'));
    await waitFor('both see all three', () => stampedContents(a).length === 3 && stampedContents(b).length === 3);

    expect(stampedContents(a)).toEqual(['Hello Sam, is the poster on track?', 'Yes, sketches tomorrow.', 'Great!']);
    expect(stamped(b)).toEqual(stamped(a));
    const times = stamped(a).map((m) => m.timestamp!);
    expect(new Set(times).size).toBe(3);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(times.every((t) => Math.abs(t - Date.now()) < 60_000)).toBe(true);
    checkLogOrder(await databaseLog(room));

    // The conversation record and the receiver's notification, read through the other instance.
    const conversation = await waitFor('the record names the last message, on both instances', async () => {
      const fromTwo = (await pullAll(on(seller, two), 'conversations')).documents.find((d) => d.id === room);
      const fromOne = (await pullAll(on(buyer, one), 'conversations')).documents.find((d) => d.id === room);
      return fromTwo?.lastMessage === 'Great!' && fromOne?.lastMessage === 'Great!' && fromTwo;
    });
    expect(conversation).toMatchObject({ lastSenderId: buyer.user.id, lastMessageTimestamp: times[2] });
    const notes = (await pullAll(on(seller, one), 'notifications')).documents.filter(
      (n) => n.type === 'new_message' && n.conversationId === room && n.read === false,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ message: 'New message from “Bea Buyer”: Great!' });
  });

  it('write the record of a message whose instance stopped before recording it, from the instance holding the room', async () => {
    const [one, two] = [await instance(), await instance()];
    const { buyer, seller, room } = await scene(one, two);
    const a = chat(on(buyer, one), room);
    const b = chat(on(seller, two), room);
    await Promise.all([a.synced(), b.synced()]);
    a.send(chatMessage(buyer.user.id, seller.user.id, 'First sketch attached'));
    await waitFor('the first message recorded', async () => {
      const doc = (await pullAll(on(seller, two), 'conversations')).documents.find((d) => d.id === room);
      return doc?.lastMessage === 'First sketch attached';
    });

    // From now on instance one appends its decisions but never gets to record them, as when it is
    // killed between a message's entry and its record (decision 023).
    const store = one.ctx.store;
    const transaction = store.transaction.bind(store);
    store.transaction = (decide) =>
      transaction((read) => {
        const decision = decide(read);
        if (decision.writes.some((w) => w.collection === 'conversations')) throw new Error('stopped before the record');
        return decision;
      });
    a.send(chatMessage(buyer.user.id, seller.user.id, 'Second sketch, with the lettering'));
    await waitFor('B sees the second message stamped', () => stampedContents(b).length === 2);
    const newest = Math.max(...storedRoom(await databaseLog(room)).stamps.values());

    // Instance two holds the room: once its grace has passed, it writes the record itself.
    const conversation = await waitFor(
      'the record names the newest message, written by the instance still holding the room',
      async () => {
        const doc = (await pullAll(on(seller, two), 'conversations')).documents.find((d) => d.id === room);
        return doc?.lastMessageTimestamp === newest && doc;
      },
      10_000,
    );
    expect(conversation).toMatchObject({
      lastMessage: 'Second sketch, with the lettering',
      lastSenderId: buyer.user.id,
    });
    const notes = (await pullAll(on(seller, two), 'notifications')).documents.filter(
      (n) => n.type === 'new_message' && n.conversationId === room && n.read === false,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ message: 'New message from “Bea Buyer”: Second sketch, with the lettering' });
  });

  it('refuses an update whichever instance judges it (4403), and stores nothing of it', async () => {
    const [one, two] = [await instance(), await instance()];
    const { buyer, seller, room } = await scene(one, two);
    const a = chat(on(buyer, one), room);
    await a.synced();
    const first = chatMessage(buyer.user.id, seller.user.id, 'Written on instance one');
    a.send(first);
    await waitFor('stamped', () => stampedContents(a).length === 1);
    const stored = await chatLogOf(two.ctx.store, room);
    expect(storedRoom(stored).messages).toEqual([first]);

    const sellerOnTwo = on(seller, two);
    const cases: [string, Uint8Array, string][] = [
      [
        'the deletion of a message written through the other instance',
        craft(stored, 7_001, (d) => d.getArray(CHAT_MESSAGES_ARRAY).delete(0, 1)),
        'Messages cannot be deleted or changed',
      ],
      [
        'a message in the name of the user on the other instance',
        craft(stored, 7_002, (d) =>
          d.getArray(CHAT_MESSAGES_ARRAY).push([chatMessage(buyer.user.id, seller.user.id, 'I will pay double')]),
        ),
        'A message must be sent by the signed-in user',
      ],
      [
        'a message reusing the id of one accepted by the other instance',
        craft(stored, 7_003, (d) =>
          d
            .getArray(CHAT_MESSAGES_ARRAY)
            .push([chatMessage(seller.user.id, buyer.user.id, 'Same id', { id: first.id })]),
        ),
        'Each message needs its own id',
      ],
      [
        'a message written with the Yjs client id of the user on the other instance',
        craft(stored, a.doc.clientID, (d) =>
          d.getArray(CHAT_MESSAGES_ARRAY).push([chatMessage(seller.user.id, buyer.user.id, 'As Bea’s client')]),
        ),
        'That Yjs client id belongs to someone else',
      ],
      [
        'a stamp',
        craft(stored, 7_004, (d) => d.getMap(CHAT_STAMPS_MAP).set(first.id, 1)),
        'Only the server writes stamps',
      ],
    ];
    for (const [what, update, reason] of cases) {
      expect(await sendRaw(two, sellerOnTwo, room, update), what).toEqual({ code: 4403, reason });
    }
    // And the room carries on across the instances, holding the real messages only.
    const b = chat(sellerOnTwo, room);
    await b.synced();
    b.send(chatMessage(seller.user.id, buyer.user.id, 'Still here'));
    await waitFor('A gets B’s reply', () => stampedContents(a).includes('Still here'));
    const room2 = checkLogOrder(await databaseLog(room));
    expect(orderChatMessages(room2.messages, room2.stamps).map((m) => m.content)).toEqual([
      'Written on instance one',
      'Still here',
    ]);
    expect([...room2.stamps.keys()].sort()).toEqual(room2.messages.map((m) => m.id).sort());
  });

  it('keeps every message of senders racing on three instances, with stamps unique and in log order', async () => {
    const [one, two, three] = [await instance(), await instance(), await instance()];
    const { buyer, seller, room } = await scene(one, two);
    // Each user writes from two devices, on different instances.
    const senders = [
      { who: buyer, other: seller, c: chat(on(buyer, one), room) },
      { who: buyer, other: seller, c: chat(on(buyer, three), room) },
      { who: seller, other: buyer, c: chat(on(seller, two), room) },
      { who: seller, other: buyer, c: chat(on(seller, three), room) },
    ];
    await Promise.all(senders.map((s) => s.c.synced()));
    const PER_SENDER = 15;
    const sent: string[] = [];
    for (let i = 0; i < PER_SENDER; i++) {
      for (const [n, s] of senders.entries()) {
        const text = `device ${n} message ${i}`;
        sent.push(text);
        s.c.send(chatMessage(s.who.user.id, s.other.user.id, text));
      }
      await new Promise((r) => setImmediate(r));
    }
    const reader = chat(on(seller, one), room);
    await waitFor(
      'every message stamped on a fresh reader',
      () => stampedContents(reader).length === sent.length,
      20_000,
    );
    await waitFor('every sender sees every message stamped', () =>
      senders.every((s) => stampedContents(s.c).length === sent.length),
    );
    expect([...stampedContents(reader)].sort()).toEqual([...sent].sort());
    for (const s of senders) expect(stamped(s.c)).toEqual(stamped(reader));
    const log = checkLogOrder(await databaseLog(room));
    expect(log.messages).toHaveLength(sent.length);
    expect(log.stamps.size).toBe(sent.length);
  });

  it('keeps what another instance appends while one compacts the room as it unloads, and reloads it whole', async () => {
    // On `one` the room unloads (compacting its log) as soon as its last socket leaves.
    const one = await instance({ CHAT_ROOM_IDLE_MS: '0' });
    const two = await instance();
    const { buyer, seller, room } = await scene(one, two);
    const b = chat(on(seller, two), room);
    await b.synced();
    const sent: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const text = `from two ${i}`;
        sent.push(text);
        b.send(chatMessage(seller.user.id, buyer.user.id, text));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    let unloads = 0;
    for (let turn = 0; turn < 6; turn++) {
      const a = openChat(on(buyer, one), room);
      try {
        await a.synced();
        const text = `from one ${turn}`;
        sent.push(text);
        a.send(chatMessage(buyer.user.id, seller.user.id, text));
        await waitFor(`${text} stamped`, () => stampedContents(a).includes(text));
      } finally {
        a.destroy();
      }
      await waitFor('the room unloaded on one', () => !one.chat.loadedRooms.includes(room));
      unloads++;
    }
    writing = false;
    await writer;
    expect(unloads).toBe(6);
    // Each unload merged the whole log as `one` had read it while `two` kept appending: the first
    // entry alone holds every message `one` wrote. (How much the last unload left after it depends
    // on how far `two` lagged behind its writer.)
    const during = await databaseLog(room);
    const merged = checkLogOrder(during.slice(0, 1)).messages.map((m) => m.content);
    expect(merged).toEqual(expect.arrayContaining(sent.filter((t) => t.startsWith('from one'))));

    await waitFor('B has every message stamped', () => stampedContents(b).length === sent.length, 10_000);
    // A last visit on `one` once every message is in: its unload merges the whole log into one entry.
    const visit = openChat(on(buyer, one), room);
    try {
      await visit.synced();
      await waitFor('the visit holds them all', () => stampedContents(visit).length === sent.length, 10_000);
    } finally {
      visit.destroy();
    }
    await waitFor('the room unloaded on one', () => !one.chat.loadedRooms.includes(room));
    const log = await databaseLog(room);
    expect(checkLogOrder(log).messages).toHaveLength(sent.length);
    expect(log).toHaveLength(1);

    const reader = chat(on(buyer, one), room);
    await waitFor('the reloaded room holds them all', () => stampedContents(reader).length === sent.length, 10_000);
    expect([...stampedContents(reader)].sort()).toEqual([...sent].sort());

    // The room loaded again on `one` is live with `two` both ways.
    reader.send(chatMessage(buyer.user.id, seller.user.id, 'Back on one'));
    await waitFor('B gets it live', () => stampedContents(b).includes('Back on one'));
    b.send(chatMessage(seller.user.id, buyer.user.id, 'Back to you'));
    await waitFor('A gets it live', () => stampedContents(reader).includes('Back to you'));
  });

  it('see each other present and typing, and leaving; a room loaded later on a third instance shows who is there', async () => {
    const [one, two, three] = [await instance(), await instance(), await instance()];
    const { buyer, seller, room } = await scene(one, two);
    const a = chat(on(buyer, one), room);
    const b = chat(on(seller, two), room);
    await Promise.all([a.synced(), b.synced()]);
    const presenceOf = (c: ChatClient, of: ChatClient) => c.provider.awareness.getStates().get(of.doc.clientID);

    a.provider.awareness.setLocalState({ user: { id: buyer.user.id, name: 'Bea Buyer' }, typing: true });
    await waitFor('B sees A typing', () => presenceOf(b, a)?.typing === true);
    b.provider.awareness.setLocalState({ user: { id: seller.user.id, name: 'Sam Seller' }, typing: false });
    await waitFor('A sees B present', () => presenceOf(a, b)?.typing === false);
    expect(presenceOf(b, a)).toEqual({ user: { id: buyer.user.id, name: 'Bea Buyer' }, typing: true });

    // The room loads on a third instance: a reader there is told who is present at once.
    const reader = chat(on(buyer, three), room);
    await waitFor('the third instance shows both', () => presenceOf(reader, a) && presenceOf(reader, b));

    // A's socket drops: the others hear A leave, wherever they are.
    (a.provider.ws as unknown as { terminate(): void }).terminate();
    a.provider.shouldConnect = false;
    await waitFor('B no longer sees A', () => !presenceOf(b, a));
    await waitFor('the reader no longer sees A', () => !presenceOf(reader, a));
    expect(presenceOf(reader, b)).toEqual({ user: { id: seller.user.id, name: 'Sam Seller' }, typing: false });
  });

  it("closes a user's chat socket on every instance when they log out on one (4401)", async () => {
    const [one, two] = [await instance(), await instance()];
    const { buyer, room } = await scene(one, two);
    const elsewhere = chat(on(buyer, two), room);
    await elsewhere.synced();
    expect((await buyer.http.post('/api/auth/logout')).status).toBe(200);
    const closed = await waitFor('the socket on the other instance closed', () => elsewhere.closedWith());
    expect(closed).toEqual({ code: 4401, reason: 'Please log in to start a conversation' });
    // The session is gone on every instance: a new socket is refused.
    const again = await tryChatSocket(two.url, room, { cookie: buyer.http.cookieHeader(), origin: two.url });
    expect(again.status).toBe(401);
  });
});
