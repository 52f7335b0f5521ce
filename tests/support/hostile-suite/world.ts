import { conversationIdFor } from '../../../shared/ids';
import {
  applyTo,
  createPayoutAccount,
  gigDoc,
  offerAndAccept,
  person,
  pullAll,
  randomId,
  write,
  PASSWORD,
  type Person,
} from '../fixtures';
import { HOSTILE_PAYLOADS, HOSTILE_SEED, seededRandom } from '../hostile';
import { TestClient } from '../http-client';
import { type TestServer } from '../in-process-server';
import { waitFor } from '../wait';
import { chatMessage, openChat } from '../yjs-client';

/**
 * The hostile-input suite's world (docs in index.ts): the attacker, the victims and what they own,
 * built through the API before the payloads run.
 */

export const N = HOSTILE_PAYLOADS;
export const root = seededRandom(HOSTILE_SEED);
export const TIMEOUT = 30_000 + N * 40;
export const WEBHOOK_SECRET = 'whsec_hostile_suite';
export const CONNECT_WEBHOOK_SECRET = 'whsec_hostile_suite_connect';

export type Doc = Record<string, unknown>;

/**
 * The world the attacker acts in. The attacker is a buyer with three applicants (one offer waiting
 * for payment, one paid and in progress, one pending), an applicant on a victim's gig, an unfinished
 * payout onboarding and a chat room; victims have gigs, an accepted offer, a checkout, a payout link,
 * a conversation and notifications of their own.
 */
export type World = Awaited<ReturnType<typeof buildWorld>>;

export async function connectPayouts(p: Person): Promise<string> {
  const res = await createPayoutAccount(p.http, p.user);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.accountLink.split('/').pop()!;
}

export async function buildWorld(on: TestServer) {
  const attacker = await person(on.url, { name: 'Mal Attacker' });
  const s1 = await person(on.url, { name: 'Sid One' });
  const s2 = await person(on.url, { name: 'Sid Two' });
  const s3 = await person(on.url, { name: 'Sid Three' });
  const vb = await person(on.url, { name: 'Vic Buyer' });
  const vs = await person(on.url, { name: 'Val Seller' });
  const loner = await person(on.url, { name: 'Lou Loner' });

  // Openings for everyone hired or applying below, so the gig stays open (decision 014).
  const gigA = (await write(attacker.http, 'gigs', gigDoc({ title: 'Mural', openings: 3 }))).master!;
  const a1 = await offerAndAccept(attacker.http, s1.http, await applyTo(s1, gigA.id as string), 30_000);
  const a2 = await offerAndAccept(attacker.http, s2.http, await applyTo(s2, gigA.id as string), 20_000);
  const a3 = await applyTo(s3, gigA.id as string);
  const open = await attacker.http.post<{ sessionId: string }>('/api/payments/checkout', { applicationId: a1.id });
  const paid = await attacker.http.post<{ sessionId: string }>('/api/payments/checkout', { applicationId: a2.id });
  await attacker.http.post(`/api/payments/simulated/checkout/${paid.body.sessionId}/pay`, {});
  const attackerLink = await connectPayouts(attacker);

  const gigV = (await write(vb.http, 'gigs', gigDoc({ title: 'Victim poster', openings: 2 }))).master!;
  const gigV2 = (await write(vb.http, 'gigs', gigDoc({ title: 'Victim logo' }))).master!;
  const av = await offerAndAccept(vb.http, vs.http, await applyTo(vs, gigV.id as string), 40_000);
  const victimCheckout = await vb.http.post<{ sessionId: string }>('/api/payments/checkout', { applicationId: av.id });
  const victimLink = await connectPayouts(vs);
  const mine = await applyTo(attacker, gigV.id as string);
  const victimRoom = conversationIdFor(vb.user.id, vs.user.id);
  const victimConversation = await write(vb.http, 'conversations', {
    id: victimRoom,
    participants: [vb.user.id, vs.user.id].sort(),
    lastMessageRead: true,
  });
  if (victimConversation.refusal) throw new Error(victimConversation.refusal);

  // A room with one real message in it, so a deletion has something to delete.
  const room = conversationIdFor(attacker.user.id, s1.user.id);
  const chat = openChat(s1.http, room);
  await chat.synced();
  chat.send(chatMessage(s1.user.id, attacker.user.id, 'Sketches attached.'));
  await waitFor('the message is stamped', () => chat.stamps.size === 1);
  chat.destroy();
  await waitFor('the conversation record', () => on.ctx.store.get('conversations', room)?.lastSenderId === s1.user.id);

  // Completed work (zero offers: nothing to pay): one both sides reviewed, the review of the
  // attacker replied to; one nobody reviewed yet, which the attacker may review; one only the
  // attacker reviewed, so their review waits unpublished (the blind rule).
  const finish = async (seller: Person, title: string) => {
    const gig = (await write(attacker.http, 'gigs', gigDoc({ title }))).master!;
    const app = await offerAndAccept(attacker.http, seller.http, await applyTo(seller, gig.id as string), 0);
    const done = await attacker.http.post('/api/gigs/complete-gig', {
      gigId: gig.id,
      applicationId: app.id,
      userId: attacker.user.id,
      userType: 'buyer',
    });
    if (done.status !== 200) throw new Error(JSON.stringify(done.body));
    return app.id as string;
  };
  const s4 = await person(on.url, { name: 'Sid Four' });
  const s5 = await person(on.url, { name: 'Sid Five' });
  const reviewedWork = await finish(s4, 'Zine cover');
  const unreviewedWork = await finish(s5, 'Zine back cover');
  const s6 = await person(on.url, { name: 'Sid Six' });
  const waitingWork = await finish(s6, 'Zine insert');
  const reviewText = 'Clear brief, kind notes, paid on the day.';
  const ownReview = (
    await write(attacker.http, 'reviews', { id: randomId(), applicationId: reviewedWork, rating: 5, text: reviewText })
  ).master!;
  const theirs = await write(s4.http, 'reviews', {
    id: randomId(),
    applicationId: reviewedWork,
    rating: 4,
    text: reviewText,
  });
  const aboutMe = await write(attacker.http, 'reviews', { ...theirs.master, reply: 'Thank you!' }, theirs.master);
  if (aboutMe.refusal) throw new Error(aboutMe.refusal);
  const waiting = await write(attacker.http, 'reviews', {
    id: randomId(),
    applicationId: waitingWork,
    rating: 4,
    text: 'Quick answers, a clear brief and fair notes.',
  });
  if (waiting.refusal || waiting.master?.publishedAt !== null) throw new Error('the waiting review did not wait');
  // The requests to review the completed work are written by a timer: settled before the suite.
  await on.timers.runDue();

  // Sessions that were logged out.
  const revokedCookies: string[] = [];
  for (let i = 0; i < 3; i++) {
    const c = new TestClient(on.url);
    await c.post('/api/auth/login', { email: attacker.user.email, password: PASSWORD });
    revokedCookies.push(c.cookieHeader());
    await c.post('/api/auth/logout');
  }

  const own = (await pullAll(attacker.http, 'users')).documents.find((d) => d.id === attacker.user.id)!;
  const vbPublic = (await pullAll(attacker.http, 'users')).documents.find((d) => d.id === vb.user.id)!;
  const notifications = (await pullAll(attacker.http, 'notifications')).documents;
  const unread = notifications.find((n) => n.read === false)!;
  const victimNotification = [...on.ctx.store.all('notifications')].find((n) => n.userId === vb.user.id)!;
  const attackerState = async (collection: string, id: string) =>
    (await pullAll(attacker.http, collection)).documents.find((d) => d.id === id)!;

  return {
    attacker,
    s1,
    s3,
    vb,
    vs,
    loner,
    gigA,
    gigV,
    gigV2,
    a1: await attackerState('applications', a1.id as string),
    a2: await attackerState('applications', a2.id as string),
    a3: await attackerState('applications', a3.id as string),
    mine: await attackerState('applications', mine.id as string),
    av,
    openSession: open.body.sessionId,
    victimSession: victimCheckout.body.sessionId,
    attackerLink,
    victimLink,
    room,
    victimRoom,
    ownConversation: await attackerState('conversations', room),
    own,
    vbPublic,
    unread,
    victimNotification,
    revokedCookies,
    storedSessionIds: [...on.ctx.store.all('sessions')].map((s) => s.id),
    unreviewedWork,
    reviewedWork,
    ownReview: await attackerState('reviews', ownReview.id as string),
    aboutMe: await attackerState('reviews', aboutMe.master!.id as string),
    waitingReview: await attackerState('reviews', waiting.master.id as string),
    s6,
  };
}

/** The suite's state once useHostileSuite's set-up has run (index.ts sets it). */
export const suite = {
  server: undefined as unknown as TestServer,
  w: undefined as unknown as World,
  publicAnswer: undefined as string | undefined,
};
