import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversationIdFor } from '../../shared/ids';
import { newConversation } from '../../shared/validation/chat-access';
import { applyTo, gigDoc, person, pullAll, write, type Person } from '../support/fixtures';
import type { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';
import { chatMessage, openChat, storedRoom, type ChatClient } from '../support/yjs-client';
import { chatLogOf } from '../support/store-under-test';

/**
 * A conversation is one per pair of users, and several gigs may link them: each message carries
 * the gig it was written from, and the conversation record and the notifications name that gig
 * (docs/decisions/015-chat-gigs-and-offline-history.md).
 */

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
function chat(http: TestClient, room: string): ChatClient {
  const c = openChat(http, room);
  opened.push(c);
  return c;
}

async function postGig(buyer: Person, title: string) {
  const { master, refusal } = await write(buyer.http, 'gigs', gigDoc({ title }));
  if (!master || refusal) throw new Error(`gig refused: ${refusal}`);
  return String(master.id);
}

/** A buyer with two gigs the seller applied to, the mural first; and the buyer's gig the seller did not apply to. */
async function twoGigs() {
  const buyer = await person(server.url, { name: 'Bea Buyer' });
  const seller = await person(server.url, { name: 'Sam Seller' });
  const mural = await postGig(buyer, 'Community mural (passion project)');
  const album = await postGig(buyer, 'Album cover illustration');
  const unrelated = await postGig(buyer, 'Shop sign lettering');
  await applyTo(seller, mural, { appliedAt: Date.now() - 60_000 });
  await applyTo(seller, album);
  const room = conversationIdFor(buyer.user.id, seller.user.id);
  return { buyer, seller, mural, album, unrelated, room };
}

/** The receiver's new_message notifications in the room. */
async function messageNotes(receiver: Person, room: string) {
  return (await pullAll(receiver.http, 'notifications')).documents.filter(
    (n) => n.type === 'new_message' && n.conversationId === room,
  );
}

async function conversation(reader: Person, room: string) {
  return (await pullAll(reader.http, 'conversations')).documents.find((d) => d.id === room);
}

describe('the gig a conversation is about', () => {
  it('new_conversation names the gig the user came from, not the most recent application', async () => {
    const { buyer, seller, mural, room } = await twoGigs();
    const record = newConversation({
      starterId: buyer.user.id,
      otherId: seller.user.id,
      link: { gigId: mural, gigTitle: 'Community mural (passion project)', creatorId: buyer.user.id },
      now: Date.now(),
    });
    expect((await write(buyer.http, 'conversations', record)).refusal).toBeUndefined();
    const notes = (await pullAll(seller.http, 'notifications')).documents.filter((n) => n.type === 'new_conversation');
    expect(notes).toEqual([
      expect.objectContaining({
        gigId: mural,
        gigTitle: 'Community mural (passion project)',
        message: 'New conversation from “Bea Buyer” about “Community mural (passion project)”',
      }),
    ]);
    expect(await conversation(buyer, room)).toMatchObject({
      gigId: mural,
      gigTitle: 'Community mural (passion project)',
    });
  });

  it('a message written from the second gig names it in the receiver’s notification and in the conversation record', async () => {
    const { buyer, seller, mural, album, room } = await twoGigs();
    // The conversation was started about the mural.
    const record = newConversation({
      starterId: seller.user.id,
      otherId: buyer.user.id,
      link: { gigId: mural, gigTitle: 'Community mural (passion project)', creatorId: buyer.user.id },
      now: Date.now(),
    });
    expect((await write(seller.http, 'conversations', record)).refusal).toBeUndefined();

    const s = chat(seller.http, room);
    await s.synced();
    s.send(chatMessage(seller.user.id, buyer.user.id, 'I can paint the album cover too.', { gigId: album }));
    const [note] = await waitFor('the buyer is notified', async () => {
      const notes = await messageNotes(buyer, room);
      return notes.length > 0 ? notes : undefined;
    });
    expect(note).toMatchObject({
      gigId: album,
      gigTitle: 'Album cover illustration',
      message: 'New message from “Sam Seller” about “Album cover illustration”: I can paint the album cover too.',
    });
    expect(await conversation(buyer, room)).toMatchObject({
      gigId: album,
      gigTitle: 'Album cover illustration',
      lastMessage: 'I can paint the album cover too.',
    });

    // Back to the mural: the one unread notification and the record follow the latest message.
    s.send(chatMessage(seller.user.id, buyer.user.id, 'And the mural starts Monday.', { gigId: mural }));
    const refreshed = await waitFor('the notification names the mural', async () => {
      const notes = await messageNotes(buyer, room);
      return notes.length === 1 && notes[0]!.gigId === mural ? notes[0] : undefined;
    });
    expect(refreshed).toMatchObject({
      gigTitle: 'Community mural (passion project)',
      message: 'New message from “Sam Seller” about “Community mural (passion project)”: And the mural starts Monday.',
      read: false,
    });
    expect(await conversation(seller, room)).toMatchObject({
      gigId: mural,
      gigTitle: 'Community mural (passion project)',
    });
  });

  it('a message whose gig does not link the two names nothing new: the conversation keeps its gig', async () => {
    const { buyer, seller, album, unrelated, room } = await twoGigs();
    const s = chat(seller.http, room);
    await s.synced();
    s.send(chatMessage(seller.user.id, buyer.user.id, 'About the album.', { gigId: album }));
    await waitFor('the record names the album', async () => (await conversation(buyer, room))?.gigId === album);

    // Another gig of the buyer's, which the seller never applied to.
    s.send(chatMessage(seller.user.id, buyer.user.id, 'And that sign?', { gigId: unrelated }));
    const note = await waitFor('the notification shows the newest message', async () =>
      (await messageNotes(buyer, room)).find((n) => String(n.message).endsWith('And that sign?')),
    );
    expect(note).toMatchObject({
      gigId: album,
      gigTitle: 'Album cover illustration',
      message: 'New message from “Sam Seller”: And that sign?',
    });
    expect(await conversation(buyer, room)).toMatchObject({ gigId: album, lastMessage: 'And that sign?' });
    expect(s.closedWith()).toBeUndefined();
  });

  it('the chat judge refuses a malformed gigId (4403): nothing is stored, the room carries on', async () => {
    const { buyer, seller, album, room } = await twoGigs();
    const honest = chat(buyer.http, room);
    const forger = chat(seller.http, room);
    await Promise.all([honest.synced(), forger.synced()]);
    const before = storedRoom(await chatLogOf(server.ctx.store, room));
    forger.send(chatMessage(seller.user.id, buyer.user.id, 'Look at this', { gigId: '../../etc/passwd' }));
    const closed = await waitFor('the forger is disconnected', () => forger.closedWith());
    expect(closed).toEqual({ code: 4403, reason: 'Invalid gig id' });

    honest.send(chatMessage(buyer.user.id, seller.user.id, 'Still here', { gigId: album }));
    await waitFor('the honest message is stamped', () =>
      honest.shown().some((m) => m.content === 'Still here' && !m.pending),
    );
    const stored = storedRoom(await chatLogOf(server.ctx.store, room));
    expect(stored.messages.map((m) => m.content)).toEqual([...before.messages.map((m) => m.content), 'Still here']);
    expect(stored.messages.at(-1)).toMatchObject({ gigId: album });
    expect((await messageNotes(buyer, room)).length + (await messageNotes(seller, room)).length).toBe(1);
  });
});
