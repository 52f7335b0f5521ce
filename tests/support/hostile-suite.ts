import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { conversationIdFor } from '../../shared/ids';
import { REPLICATED, type ReplicatedCollection } from '../../sync-server/replication/visibility';
import {
  applicationDoc,
  applyTo,
  createPayoutAccount,
  gigDoc,
  offerAndAccept,
  person,
  pullAll,
  randomId,
  uniqueEmail,
  write,
  PASSWORD,
  type Person,
} from './fixtures';
import {
  hostileRequests,
  hostileRows,
  hostileString,
  encodePart,
  HOSTILE_PAYLOADS,
  HOSTILE_SEED,
  randomText,
  seededRandom,
  type Attacker,
  type EndpointSpec,
  type HostileRequest,
  type Rng,
  type RowContext,
} from './hostile';
import { TestClient } from './http-client';
import { startTestServer, type TestServer } from './in-process-server';
import { snapshotStore, storeDifference, type StoreState } from './store-snapshot';
import { waitFor } from './wait';
import { chatMessage, openChat } from './yjs-client';

/**
 * Issue 9, suite 1: for every HTTP endpoint and the chat socket, HOSTILE_PAYLOADS (200 here, thousands
 * in `npm run test:hostile`) generated requests, each with one known defect: wrong types, missing and
 * extra fields, huge strings, deep nesting, prototype keys, bad JSON, wrong content types and
 * encodings, other origins, missing, forged and revoked cookies, other users' ids. Every one must be
 * refused with a 4xx and a JSON `{ error }`, never a 5xx, and leave the store exactly as it was.
 * The seed is printed; HOSTILE_SEED=<seed> replays a run.
 *
 * This module is what the suite's files (tests/integration/hostile/: http, webhooks, chat-socket,
 * named-cases) share: the server and the attacker's world, the endpoint specs, and the judge.
 */

export const N = HOSTILE_PAYLOADS;
export const root = seededRandom(HOSTILE_SEED);
export const TIMEOUT = 30_000 + N * 40;
export const WEBHOOK_SECRET = 'whsec_hostile_suite';
export const CONNECT_WEBHOOK_SECRET = 'whsec_hostile_suite_connect';

let server: TestServer;

export type Doc = Record<string, unknown>;

/**
 * The world the attacker acts in. The attacker is a buyer with three applicants (one offer waiting
 * for payment, one paid and in progress, one pending), an applicant on a victim's gig, an unfinished
 * payout onboarding and a chat room; victims have gigs, an accepted offer, a checkout, a payout link,
 * a conversation and notifications of their own.
 */
export type World = Awaited<ReturnType<typeof buildWorld>>;
let w: World;

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
  // attacker replied to; one nobody reviewed yet, which the attacker may review.
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
  };
}

// ---------------------------------------------------------------------------------------------
// Running payloads and judging answers

export type Tally = { endpoint: string; tried: number; violations: number };
export const tallies: Tally[] = [];

/** Object.prototype must never gain a key, whatever a body carried. */
export function prototypeIntact(): string | undefined {
  const keys = Object.getOwnPropertyNames(Object.prototype).filter((k) => !BASE_PROTOTYPE.has(k));
  return keys.length ? `Object.prototype gained ${keys.join(', ')}` : undefined;
}
export const BASE_PROTOTYPE = new Set(Object.getOwnPropertyNames(Object.prototype));

export type Answer = { status: number; headers: Headers; text: string; json: Record<string, unknown> | undefined };

export async function send(on: TestServer, req: HostileRequest): Promise<Answer> {
  const res = await fetch(on.url + req.path, {
    method: req.method,
    headers: req.headers,
    body: req.body as BodyInit | undefined,
    redirect: 'manual',
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

let publicAnswer: string | undefined;

/** What is wrong with the answer to a hostile request, or undefined. */
export function judge(req: HostileRequest, a: Answer): string | undefined {
  if (a.status >= 500) return `${a.status} ${a.text.slice(0, 200)}`;
  if (a.headers.get('access-control-allow-origin')) return 'answered with Access-Control-Allow-Origin';
  const isJson = /^application\/json/.test(a.headers.get('content-type') ?? '');
  const refusal = () => {
    if (a.status < 400 || a.status >= 500) return `not refused: ${a.status} ${a.text.slice(0, 200)}`;
    if (!isJson || typeof a.json?.error !== 'string' || !a.json.error)
      return `no JSON { error }: ${a.status} ${a.headers.get('content-type')} ${a.text.slice(0, 120)}`;
    return undefined;
  };
  const e = req.expect;
  switch (e.kind) {
    case 'refused': {
      const problem = refusal();
      if (problem) return problem;
      if (e.status && a.status !== e.status) return `${a.status} instead of ${e.status}: ${String(a.json?.error)}`;
      return undefined;
    }
    case 'rows-refused': {
      if (a.status !== 200) return refusal();
      const refused = a.json?.refused;
      if (!Array.isArray(refused) || refused.length !== e.rows)
        return `${Array.isArray(refused) ? refused.length : 'no'} of ${e.rows} rows refused: ${a.text.slice(0, 300)}`;
      return undefined;
    }
    case 'ok-noop':
      return a.status === 200 && a.json?.ok === true
        ? undefined
        : `expected { ok: true }: ${a.status} ${a.text.slice(0, 120)}`;
    case 'redirect':
      return a.status === 303 && a.headers.get('location') === e.location
        ? undefined
        : `expected a redirect to ${e.location}: ${a.status} ${a.headers.get('location')}`;
    case 'public':
      return a.status === 200 && a.text === publicAnswer
        ? undefined
        : `public answer changed: ${a.status} ${a.text.slice(0, 120)}`;
  }
}

/** Runs `count` checks one at a time, comparing the store before and after each; returns the violations. */
export async function run(
  on: TestServer,
  endpoint: string,
  count: number,
  attempt: (i: number) => Promise<{ defect: string; problem: string | undefined }>,
  rooms: readonly string[] = [],
): Promise<string[]> {
  const violations: string[] = [];
  let before: StoreState = await snapshotStore(on, rooms);
  for (let i = 0; i < count; i++) {
    let outcome: { defect: string; problem: string | undefined };
    try {
      outcome = await attempt(i);
    } catch (err) {
      outcome = { defect: `#${i}`, problem: `request failed: ${String(err)}` };
    }
    const after = await snapshotStore(on, rooms);
    const changed = storeDifference(before, after);
    const problems = [outcome.problem, changed && `store changed: ${changed}`, prototypeIntact()].filter(Boolean);
    if (problems.length) violations.push(`#${i} [${outcome.defect}] ${problems.join('; ')}`);
    before = after;
  }
  tallies.push({ endpoint, tried: count, violations: violations.length });
  return violations;
}

export async function runEndpoint(on: TestServer, spec: EndpointSpec, attacker: Attacker): Promise<string[]> {
  const requests = hostileRequests(spec, attacker, root.fork(spec.name), N);
  return run(on, spec.name, N, async () => {
    const req = requests.next().value as HostileRequest;
    return { defect: req.defect, problem: judge(req, await send(on, req)) };
  });
}

// ---------------------------------------------------------------------------------------------
// The endpoints

export const UNKNOWN_COLLECTIONS = [
  'credentials',
  'sessions',
  'waitlist',
  'ledger',
  'meta',
  'portfolios',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'USERS',
  'users%00',
  '%2e%2e',
  'gigs.json',
];

export function badCollectionPath(r: Rng, tail: string): string {
  const name = r.chance(0.7) ? r.pick(UNKNOWN_COLLECTIONS) : encodePart(hostileString(r).slice(0, 200)) || 'x';
  return `/api/sync/${name}/${tail}`;
}

export function badQuery(r: Rng): string {
  const seq = [
    '-1',
    '-100',
    'abc',
    '1.5',
    'NaN',
    '9007199254740993',
    '0x',
    '[]',
    '{}',
    'Infinity',
    '1e400',
    `${encodePart(hostileString(r))}x`,
  ];
  const limit = ['0', '-5', '1001', '99999', 'x', '2.5', ''];
  switch (r.int(0, 4)) {
    case 0:
      return `seq=${r.pick(seq)}`;
    case 1:
      return `seq=0&limit=${r.pick(limit)}`;
    case 2:
      return `seq=1&seq=2`;
    case 3:
      return `seq=0&${r.pick(['foo', '__proto__', 'constructor', 'seq[]', 'limit[a]', 'toString', encodePart(randomText(r, 10)) || 'z'])}=1`;
    default:
      return `limit=${r.pick(limit)}&${r.pick(['seq[x]=1', 'after=5', 'checkpoint=1'])}`;
  }
}

export const now = () => Date.now();

/** A browser's push subscription on FCM (a push service the server accepts by default), with a real P-256 key. */
function pushDevice(): { endpoint: string; keys: { p256dh: string; auth: string } } {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomBytes(16).toString('base64url')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
  };
}

export function rowContexts(): Record<ReplicatedCollection, RowContext> {
  const {
    attacker,
    s3,
    vb,
    loner,
    gigV,
    gigV2,
    a1,
    a2,
    a3,
    mine,
    av,
    own,
    vbPublic,
    unread,
    victimNotification,
    victimRoom,
    ownConversation,
  } = w;
  const me = attacker.user.id;
  const update = (label: string, current: Doc, next: Doc) => () => ({
    label,
    row: { assumedMasterState: current, newDocumentState: next },
  });
  const create = (label: string, doc: Doc) => () => ({
    label,
    row: { assumedMasterState: null, newDocumentState: doc },
  });
  return {
    users: {
      valid: () => ({ ...own, bio: `Painter ${now()}` }),
      assumed: () => own,
      forbidden: [
        update("edit a linked user's profile", vbPublic, { ...vbPublic, bio: 'hacked' }),
        update(
          "edit an unlinked user's profile",
          { id: w.vs.user.id },
          { id: w.vs.user.id, name: 'hacked', updatedAt: now() },
        ),
        create('create a user', { id: `sockpuppet-${now()}`, name: 'Sock Puppet', updatedAt: now() }),
        update('delete the own account', own, { ...own, _deleted: true }),
        update('own profile without a name', own, { ...own, name: ' ' }),
      ],
    },
    gigs: {
      valid: () => gigDoc(),
      assumed: () => null,
      forbidden: [
        update("edit a victim's gig", gigV, { ...gigV, title: 'Hijacked' }),
        update("delete a victim's gig", gigV, { ...gigV, _deleted: true }),
        update('delete the own gig with paid work under way', w.gigA, { ...w.gigA, _deleted: true }),
        update('edit the own gig after an accepted offer', w.gigA, { ...w.gigA, title: 'Changed' }),
        create('a gig without a description', gigDoc({ description: ' ' })),
        create('a gig with a bad id', gigDoc({ id: 'a_b' })),
      ],
    },
    applications: {
      valid: () => applicationDoc(gigV2.id as string, me),
      assumed: () => null,
      forbidden: [
        ...(['IN_PROGRESS', 'COMPLETED', 'PENDING_PAYMENT'] as const).map((status) =>
          update(`move the own application to ${status}`, mine, { ...mine, status }),
        ),
        update('make oneself an offer', mine, { ...mine, status: 'PENDING_ACCEPTANCE', finalBudget: 99_999 }),
        update('decline without an offer', mine, { ...mine, status: 'REJECTED' }),
        update('raise the own budget', mine, { ...mine, budget: 99_999_999 }),
        update('start unpaid work', a1, { ...a1, status: 'IN_PROGRESS' }),
        update('complete by push', a2, { ...a2, status: 'COMPLETED' }),
        update('change an accepted offer', a1, { ...a1, finalBudget: 1 }),
        update('a negative offer', a3, { ...a3, status: 'PENDING_ACCEPTANCE', finalBudget: -5 }),
        update("move a victim's application", { id: av.id }, { ...av, status: 'REJECTED' }),
        update('delete an application', mine, { ...mine, _deleted: true }),
        // Issue 15: money moves only over HTTP; deliveries, disputes and cancellations by their rules.
        update('refund by push', a2, { ...a2, status: 'REFUNDED' }),
        update('claim the money by push', a2, { ...a2, status: 'SETTLING' }),
        update('a dispute without a reason', a2, {
          ...a2,
          status: 'DISPUTED',
          dispute: { by: 'buyer', reason: ' ', openedAt: 1 },
        }),
        update('cancel paid work for free', a2, { ...a2, status: 'CANCELLED' }),
        update('deliver as the buyer', a2, {
          ...a2,
          status: 'DELIVERED',
          submissions: [{ note: 'x', submittedAt: 1 }],
        }),
        update('deliver unpaid work', a1, { ...a1, status: 'DELIVERED', submissions: [{ note: 'x', submittedAt: 1 }] }),
        create('apply to the own gig', applicationDoc(w.gigA.id as string, me)),
        create('apply in another user’s name', {
          ...applicationDoc(gigV2.id as string, me),
          id: `${gigV2.id}.${w.vs.user.id}`,
        }),
        update('apply twice', mine, { ...applicationDoc(gigV.id as string, me), budget: 1 }),
      ],
    },
    notifications: {
      valid: () => ({ ...unread, read: true }),
      assumed: () => unread,
      forbidden: [
        update(
          "mark a victim's notification read",
          { id: victimNotification.id },
          { ...victimNotification, read: true },
        ),
        create('create a notification', {
          id: `n${now()}`,
          userId: vb.user.id,
          type: 'new_message',
          message: 'Click here',
          read: false,
          createdAt: now(),
          updatedAt: now(),
        }),
        update('delete a notification', unread, { ...unread, _deleted: true }),
        update('mark a notification unread', unread, { ...unread, read: false, message: 'changed' }),
      ],
    },
    conversations: {
      valid: () => ({
        id: conversationIdFor(me, s3.user.id),
        participants: [me, s3.user.id].sort(),
        lastMessageRead: true,
        updatedAt: now(),
      }),
      assumed: () => null,
      forbidden: [
        update(
          "read a victim's conversation",
          { id: victimRoom },
          { id: victimRoom, participants: victimRoom.split('_'), lastMessageRead: true },
        ),
        create('a conversation with an unlinked user', {
          id: conversationIdFor(me, loner.user.id),
          participants: [me, loner.user.id].sort(),
        }),
        create('a conversation with oneself', { id: `${me}_${me}`, participants: [me, me] }),
        create('a conversation under a wrong id', {
          id: `${s3.user.id}_${me}x`,
          participants: [me, s3.user.id].sort(),
        }),
        update('delete a conversation', ownConversation, { ...ownConversation, _deleted: true }),
      ],
    },
    reviews: {
      valid: () => ({
        id: `review-${now()}1`,
        applicationId: w.unreviewedWork,
        rating: 5,
        text: 'Generous with time and feedback; would work together again.',
      }),
      assumed: () => null,
      forbidden: [
        create('review the same work again', { ...w.ownReview, id: `again-${now()}1`, _deleted: false }),
        create("review a victim's work", {
          id: `victim-${now()}1`,
          applicationId: av.id,
          rating: 1,
          text: 'Never worked with them, but here goes.',
        }),
        create('review work before it is completed', {
          id: `early-${now()}1`,
          applicationId: a1.id,
          rating: 5,
          text: 'Not started yet, but surely wonderful.',
        }),
        update('edit the own published review', w.ownReview, { ...w.ownReview, rating: 1 }),
        update('delete the own review', w.ownReview, { ...w.ownReview, _deleted: true }),
        update('change the rating of a review about oneself', w.aboutMe, { ...w.aboutMe, rating: 5 }),
        update('reply twice', w.aboutMe, { ...w.aboutMe, reply: 'Second thoughts.' }),
        update('publish a review early', w.ownReview, { ...w.ownReview, publishedAt: 1 }),
      ],
    },
  };
}

export function specs(): EndpointSpec[] {
  const { attacker, vb, vs, a1, a2, av, gigA, gigV, mine } = w;
  const me = attacker.user.id;
  const rows = rowContexts();
  const idLike = (r: Rng) =>
    r.pick([
      hostileString(r).slice(0, 150),
      `cs_sim_${randomText(r, 20)}`,
      'x'.repeat(r.int(1, 150)),
      `${gigV.id}.${me}`,
    ]);
  const list: EndpointSpec[] = [
    {
      name: 'POST /api/auth/signup',
      method: 'POST',
      path: '/api/auth/signup',
      body: () => ({
        name: 'New Person',
        email: uniqueEmail('hostile'),
        password: PASSWORD,
        confirmPassword: PASSWORD,
        termsAccepted: true,
      }),
      required: ['name', 'email', 'password', 'confirmPassword', 'termsAccepted'],
      auth: false,
      foreign: (r) => ({
        label: 'an email already registered',
        body: {
          name: 'Copy',
          email: r.pick([attacker.user.email, vb.user.email, vb.user.email.toUpperCase()]),
          password: PASSWORD,
          confirmPassword: PASSWORD,
          termsAccepted: true,
        },
      }),
    },
    {
      name: 'POST /api/auth/login',
      method: 'POST',
      path: '/api/auth/login',
      body: () => ({ email: attacker.user.email, password: PASSWORD }),
      required: ['email', 'password'],
      auth: false,
      foreign: (r) => ({
        label: "a victim's email with a guessed password",
        body: {
          email: r.pick([vb.user.email, vs.user.email]),
          password: r.pick([PASSWORD + '1', 'Password1', hostileString(r).slice(0, 200) || 'x']),
        },
      }),
    },
    {
      name: 'POST /api/auth/logout',
      method: 'POST',
      path: '/api/auth/logout',
      body: () => ({}),
      bodyIgnored: true,
      auth: false,
      noSession: { kind: 'ok-noop' },
    },
    { name: 'GET /api/auth/session', method: 'GET', path: '/api/auth/session', auth: true },
    // Answers everybody (a visitor with no user): only what fails before the route is a defect.
    { name: 'GET /api/auth/me', method: 'GET', path: '/api/auth/me', auth: false },
    { name: 'GET /api/push/key', method: 'GET', path: '/api/push/key', auth: true },
    {
      name: 'GET /api/push/subscription',
      method: 'GET',
      path: '/api/push/subscription',
      auth: true,
      badQuery: (r) =>
        r.pick([
          `endpoint=${encodePart(hostileString(r).slice(0, 300)) || 'x'}`,
          `endpoint=${encodePart(`https://evil.example/${randomText(r, 20)}`)}`,
          `endpoint=${'x'.repeat(r.int(1025, 3000))}`,
          `endpoint=a&endpoint=b`,
          `endpoint[x]=1`,
          `${r.pick(['__proto__', 'constructor', 'toString'])}=1`,
          '',
        ]),
    },
    {
      name: 'POST /api/push/subscribe',
      method: 'POST',
      path: '/api/push/subscribe',
      body: () => ({ ...pushDevice(), types: ['new_message'] }),
      required: ['endpoint', 'keys', 'types'],
      auth: true,
    },
    {
      name: 'POST /api/push/unsubscribe',
      method: 'POST',
      path: '/api/push/unsubscribe',
      body: () => ({ endpoint: pushDevice().endpoint }),
      required: ['endpoint'],
      auth: true,
    },
    {
      name: 'POST /api/waitlist',
      method: 'POST',
      path: '/api/waitlist',
      body: () => ({ name: 'Wanda Wait', email: uniqueEmail('wait'), city: 'Lagos', location: 'NG' }),
      required: ['name', 'email', 'city', 'location'],
      auth: false,
    },
    {
      name: 'GET /api/public-config',
      method: 'GET',
      path: '/api/public-config',
      auth: false,
      public: true,
      badQuery: (r) => badQuery(r),
    },
    ...REPLICATED.map((c): EndpointSpec => ({
      name: `GET /api/sync/${c}/pull`,
      method: 'GET',
      path: `/api/sync/${c}/pull`,
      auth: true,
      badQuery,
      badPath: (r) => badCollectionPath(r, 'pull'),
    })),
    ...REPLICATED.map((c): EndpointSpec => ({
      name: `POST /api/sync/${c}/push`,
      method: 'POST',
      path: `/api/sync/${c}/push`,
      body: () => {
        const doc = rows[c].valid();
        return [{ assumedMasterState: rows[c].assumed(doc), newDocumentState: doc }];
      },
      auth: true,
      limit: 2 * 1024 * 1024,
      badPath: (r) => badCollectionPath(r, 'push'),
      rows: (r) => hostileRows(r, rows[c]),
    })),
    {
      name: 'GET /api/sync/stream',
      method: 'GET',
      path: '/api/sync/stream',
      auth: true,
      badPath: (r) =>
        r.pick([
          '/api/sync/stream/x',
          '/api/sync/streams',
          `/api/sync/${encodePart(hostileString(r).slice(0, 100)) || 'x'}`,
        ]),
    },
    {
      name: 'POST /api/stripe/create-connect-account',
      method: 'POST',
      path: '/api/stripe/create-connect-account',
      body: () => ({ email: attacker.user.email, userId: me, hostname: 'localhost' }),
      required: ['email', 'userId'],
      auth: true,
      foreign: (r) => ({
        label: "another user's payouts",
        body: {
          email: attacker.user.email,
          userId: r.pick([vb.user.id, vs.user.id, w.s1.user.id]),
          hostname: 'localhost',
        },
      }),
    },
    { name: 'GET /api/stripe/account-status', method: 'GET', path: '/api/stripe/account-status', auth: true },
    {
      name: 'GET /api/stripe/account-link/refresh',
      method: 'GET',
      path: '/api/stripe/account-link/refresh',
      auth: false,
      noSession: { kind: 'redirect', location: '/login' },
    },
    {
      name: 'POST /api/payments/checkout',
      method: 'POST',
      path: '/api/payments/checkout',
      body: () => ({ applicationId: a1.id }),
      required: ['applicationId'],
      auth: true,
      foreign: (r) => ({
        label: 'an application the attacker does not buy',
        body: { applicationId: r.pick([av.id, mine.id, idLike(r)]) },
      }),
    },
    {
      name: 'POST /api/payments/confirm',
      method: 'POST',
      path: '/api/payments/confirm',
      body: () => ({ applicationId: a1.id, sessionId: w.openSession }),
      required: ['applicationId', 'sessionId'],
      auth: true,
      foreign: (r) =>
        r.pick([
          { label: "a victim's payment", body: { applicationId: av.id, sessionId: w.victimSession } },
          {
            label: "the own application with a victim's session",
            body: { applicationId: a1.id, sessionId: w.victimSession },
          },
          { label: "an applicant's view of a payment", body: { applicationId: mine.id, sessionId: w.openSession } },
          { label: 'made-up ids', body: { applicationId: idLike(r), sessionId: idLike(r) } },
        ]),
    },
    {
      name: 'POST /api/gigs/complete-gig',
      method: 'POST',
      path: '/api/gigs/complete-gig',
      body: () => ({ gigId: gigA.id, applicationId: a2.id, userId: me, userType: 'buyer' }),
      required: ['gigId', 'applicationId', 'userId', 'userType'],
      auth: true,
      foreign: (r) =>
        r.pick([
          { label: "a victim's gig", body: { gigId: gigV.id, applicationId: av.id, userId: me, userType: 'buyer' } },
          {
            label: 'in the name of another user',
            body: {
              gigId: gigA.id,
              applicationId: a2.id,
              userId: r.pick([vb.user.id, w.s1.user.id]),
              userType: 'buyer',
            },
          },
          {
            label: 'as the seller',
            body: { gigId: gigA.id, applicationId: a2.id, userId: me, userType: r.pick(['seller', 'admin', 'BUYER']) },
          },
          {
            label: 'an application of another gig',
            body: { gigId: gigV.id, applicationId: a2.id, userId: me, userType: 'buyer' },
          },
          {
            label: 'the own application as applicant',
            body: { gigId: gigV.id, applicationId: mine.id, userId: me, userType: 'buyer' },
          },
          { label: 'made-up ids', body: { gigId: idLike(r), applicationId: idLike(r), userId: me, userType: 'buyer' } },
        ]),
    },
    // Issue 15 (decision 031): the freelancer's cancellation with a refund, retrying a refused
    // payment, and the operator area, which is 404 to everyone but operators (the attacker is none).
    {
      name: 'POST /api/work/cancel',
      method: 'POST',
      path: '/api/work/cancel',
      body: () => ({ applicationId: mine.id }),
      required: ['applicationId'],
      auth: true,
      foreign: (r) => ({
        label: 'work the attacker is not the freelancer of',
        body: { applicationId: r.pick([av.id, a2.id, idLike(r)]) },
      }),
    },
    {
      name: 'POST /api/work/retry',
      method: 'POST',
      path: '/api/work/retry',
      body: () => ({ applicationId: a2.id }),
      required: ['applicationId'],
      auth: true,
      foreign: (r) => ({ label: "a victim's work", body: { applicationId: r.pick([av.id, idLike(r)]) } }),
    },
    {
      name: 'GET /api/operator/disputes',
      method: 'GET',
      path: '/api/operator/disputes',
      auth: true,
      noSession: { kind: 'refused', status: 404 },
      badPath: (r) => `/api/operator/${encodePart(hostileString(r).slice(0, 100)) || 'x'}`,
    },
    {
      name: 'POST /api/operator/disputes/resolve',
      method: 'POST',
      path: '/api/operator/disputes/resolve',
      body: () => ({ applicationId: a2.id, outcome: 'refund' }),
      // To anyone but an operator (the attacker) the route is not there: it reads no body of theirs.
      bodyIgnored: true,
      auth: true,
      noSession: { kind: 'refused', status: 404 },
      foreign: (r) => ({
        label: "a victim's work, split",
        body: { applicationId: r.pick([av.id, mine.id, idLike(r)]), outcome: 'split', freelancerAmount: 1 },
      }),
    },
    {
      name: 'GET /api/profiles/:username',
      method: 'GET',
      path: `/api/profiles/${encodeURIComponent(String(vb.user.username))}`,
      auth: true,
      badPath: (r) =>
        `/api/profiles/${r.pick([encodePart(hostileString(r).slice(0, 100)) || 'x', '__proto__', 'constructor', 'toString', '%E0%A4%A', 'x'.repeat(r.int(65, 3000))])}`,
      badQuery: (r) =>
        r.pick([
          'before=x',
          'before=1_',
          'before=_abcdef1',
          `before=${'9'.repeat(30)}_abcdef1`,
          `before=${encodePart(hostileString(r).slice(0, 60)) || 'x'}`,
          'before=1&before=2',
          'foo=1',
          'before[x]=1',
        ]),
    },
    {
      name: 'POST /api/payments/simulated/onboarding/:linkId',
      method: 'POST',
      path: `/api/payments/simulated/onboarding/${w.attackerLink}`,
      body: () => ({}),
      bodyIgnored: true,
      auth: true,
      foreign: () => ({
        label: "a victim's onboarding link",
        path: `/api/payments/simulated/onboarding/${w.victimLink}`,
      }),
      badPath: (r) => `/api/payments/simulated/onboarding/${encodePart(idLike(r)) || 'x'}`,
    },
    {
      name: 'POST /api/payments/simulated/checkout/:sessionId/pay',
      method: 'POST',
      path: `/api/payments/simulated/checkout/${w.openSession}/pay`,
      body: () => ({}),
      bodyIgnored: true,
      auth: true,
      foreign: () => ({
        label: "a victim's checkout",
        path: `/api/payments/simulated/checkout/${w.victimSession}/pay`,
      }),
      badPath: (r) => `/api/payments/simulated/checkout/${encodePart(idLike(r)) || 'x'}/pay`,
    },
  ];
  return list;
}

// ---------------------------------------------------------------------------------------------

/**
 * Starts the server the hostile payloads go to and builds the attacker's world before the file's
 * tests; after them, closes it and prints what was tried and what broke, per endpoint.
 */
export function useHostileSuite(): void {
  beforeAll(async () => {
    console.log(
      `hostile input: seed ${HOSTILE_SEED}, ${N} payloads per endpoint (HOSTILE_SEED=${HOSTILE_SEED} replays this run)`,
    );
    // No background snapshot and no idle room unload: both write to the data folder with no request.
    server = await startTestServer({
      SNAPSHOT_INTERVAL_MS: '3600000',
      SNAPSHOT_EVERY_COMMITS: '10000000',
      CHAT_ROOM_IDLE_MS: '3600000',
    });
    w = await buildWorld(server);
    publicAnswer = await (await fetch(`${server.url}/api/public-config`)).text();
  }, 60_000);

  afterAll(async () => {
    await server?.cleanup();
    if (tallies.length) {
      const width = Math.max(...tallies.map((t) => t.endpoint.length));
      const lines = tallies.map(
        (t) => `  ${t.endpoint.padEnd(width)}  ${String(t.tried).padStart(6)}  ${String(t.violations).padStart(4)}`,
      );
      const tried = tallies.reduce((n, t) => n + t.tried, 0);
      const violations = tallies.reduce((n, t) => n + t.violations, 0);
      console.log(
        `hostile input (seed ${HOSTILE_SEED}):\n  ${'endpoint'.padEnd(width)}   tried  viol.\n${lines.join('\n')}\n  payloads tried: ${tried}, violations: ${violations}`,
      );
    }
  });
}

export const attackerOf = (): Attacker => ({
  origin: server.url,
  cookie: w.attacker.http.cookieHeader(),
  revokedCookies: w.revokedCookies,
  storedSessionIds: w.storedSessionIds,
});

/** The suite's state once useHostileSuite's set-up has run. */
export const suite = {
  get server() {
    return server;
  },
  get w() {
    return w;
  },
  get publicAnswer() {
    return publicAnswer;
  },
};
