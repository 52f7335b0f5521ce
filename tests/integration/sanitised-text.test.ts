import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { applyTo, gigDoc, ownUser, person, pullAll, signUp, uniqueEmail, write } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

/**
 * User text is stored without bidirectional controls, NUL or lone surrogates (decision 013), on
 * every write path: sign-up, profile edits and gigs over replication, the waitlist; and names in
 * notifications are set off as names.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await server.cleanup();
});

const RLO = '\u202E';
const NUL = '\u0000';
const CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u0000]/;

describe('user text is stored sanitised', () => {
  it('a name with U+202E and NUL is stored without them at sign-up', async () => {
    const client = new TestClient(server.url);
    const user = await signUp(client, { name: `Sup${RLO}port${NUL}` });
    expect(user.name).toBe('Support');
    expect(server.ctx.store.get('users', user.id)!.name).toBe('Support');
  });

  it('profile fields and gig texts pushed with controls are stored without them, and answered so', async () => {
    const ada = await person(server.url, { name: 'Ada' });
    const own = await ownUser(ada.http, ada.user.id);
    const { refusal, master } = await write(
      ada.http,
      'users',
      { ...own, name: `${RLO}Ada${NUL}`, bio: `Painter\u2066 and${NUL} printer\u200F` },
      own,
    );
    expect(refusal).toBeUndefined();
    expect(master).toMatchObject({ name: 'Ada', bio: 'Painter and printer' });
    expect(server.ctx.store.get('users', ada.user.id)).toMatchObject({ name: 'Ada', bio: 'Painter and printer' });

    const gig = await write(
      ada.http,
      'gigs',
      gigDoc({
        title: `Poster${RLO} design${NUL}`,
        description: `Lone \uD83D surrogate and ${RLO}override`,
        skills: `Ink${NUL}, Paper`,
      }),
    );
    expect(gig.refusal).toBeUndefined();
    const stored = server.ctx.store.get('gigs', gig.master!.id as string)!;
    expect(stored).toMatchObject({
      title: 'Poster design',
      description: 'Lone  surrogate and override',
      skills: 'Ink, Paper',
      creatorName: 'Ada',
    });
    expect(gig.master).toMatchObject({ title: 'Poster design' });
  });

  it('the waitlist stores name and city without controls', async () => {
    const email = uniqueEmail('wait');
    const res = await new TestClient(server.url).post('/api/waitlist', {
      name: `Bo${RLO}b${NUL}`,
      email,
      city: `Lag${NUL}os\u061C`,
      location: 'NG',
    });
    expect(res.status).toBe(201);
    const entry = server.ctx.store.byIndex('waitlist', 'email', email)[0]!;
    expect(entry).toMatchObject({ name: 'Bob', city: 'Lagos' });
  });

  it('a notification names the user in quotation marks, after the platform’s words, without controls', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Mural' }))).master!;
    const impostor = await person(server.url, { name: `Support${RLO}` });
    await applyTo(impostor, gig.id as string);
    const note = (await pullAll(buyer.http, 'notifications')).documents.find(
      (n) => n.type === 'new_application' && n.senderId === impostor.user.id,
    )!;
    expect(note.message).toBe('New application from “Support” for “Mural”');
    expect(note.senderName).toBe('Support');
    for (const doc of server.ctx.store.all('notifications'))
      if (doc.userId === buyer.user.id) expect(JSON.stringify(doc)).not.toMatch(CONTROLS);
  });
});
