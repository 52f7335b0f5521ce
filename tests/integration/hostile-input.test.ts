import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
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
  signUpWithProfile,
  uniqueEmail,
  write,
  PASSWORD,
  type Person,
} from '../support/fixtures';
import {
  hostileChatFrame,
  hostileRequests,
  hostileRows,
  hostileString,
  hostileUpgrade,
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
} from '../support/hostile';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { snapshotStore, storeDifference, type StoreState } from '../support/store-snapshot';
import { signedEvent, startStripeMock, stripeSignature, type StripeMock } from '../support/stripe-mock';
import { waitFor } from '../support/wait';
import { chatMessage, chatSocketBase, openChat } from '../support/yjs-client';

/**
 * Issue 9, suite 1: for every HTTP endpoint and the chat socket, HOSTILE_PAYLOADS (200 here, thousands
 * in `npm run test:hostile`) generated requests, each with one known defect: wrong types, missing and
 * extra fields, huge strings, deep nesting, prototype keys, bad JSON, wrong content types and
 * encodings, other origins, missing, forged and revoked cookies, other users' ids. Every one must be
 * refused with a 4xx and a JSON `{ error }`, never a 5xx, and leave the store exactly as it was.
 * The seed is printed; HOSTILE_SEED=<seed> replays a run.
 */

const N = HOSTILE_PAYLOADS;
const root = seededRandom(HOSTILE_SEED);
const TIMEOUT = 30_000 + N * 40;
const WEBHOOK_SECRET = 'whsec_hostile_suite';
const CONNECT_WEBHOOK_SECRET = 'whsec_hostile_suite_connect';

let server: TestServer;
let stripeServer: TestServer;
let stripe: StripeMock;

type Doc = Record<string, unknown>;

/**
 * The world the attacker acts in. The attacker is a buyer with three applicants (one offer waiting
 * for payment, one paid and in progress, one pending), an applicant on a victim's gig, an unfinished
 * payout onboarding and a chat room; victims have gigs, an accepted offer, a checkout, a payout link,
 * a conversation and notifications of their own.
 */
type World = Awaited<ReturnType<typeof buildWorld>>;
let w: World;

async function connectPayouts(p: Person): Promise<string> {
  const res = await createPayoutAccount(p.http, p.user);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.accountLink.split('/').pop()!;
}

async function buildWorld(on: TestServer) {
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
  };
}

// ---------------------------------------------------------------------------------------------
// Running payloads and judging answers

type Tally = { endpoint: string; tried: number; violations: number };
const tallies: Tally[] = [];

/** Object.prototype must never gain a key, whatever a body carried. */
function prototypeIntact(): string | undefined {
  const keys = Object.getOwnPropertyNames(Object.prototype).filter((k) => !BASE_PROTOTYPE.has(k));
  return keys.length ? `Object.prototype gained ${keys.join(', ')}` : undefined;
}
const BASE_PROTOTYPE = new Set(Object.getOwnPropertyNames(Object.prototype));

type Answer = { status: number; headers: Headers; text: string; json: Record<string, unknown> | undefined };

async function send(on: TestServer, req: HostileRequest): Promise<Answer> {
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
function judge(req: HostileRequest, a: Answer): string | undefined {
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
async function run(
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

async function runEndpoint(on: TestServer, spec: EndpointSpec, attacker: Attacker): Promise<string[]> {
  const requests = hostileRequests(spec, attacker, root.fork(spec.name), N);
  return run(on, spec.name, N, async () => {
    const req = requests.next().value as HostileRequest;
    return { defect: req.defect, problem: judge(req, await send(on, req)) };
  });
}

// ---------------------------------------------------------------------------------------------
// The endpoints

const UNKNOWN_COLLECTIONS = [
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

function badCollectionPath(r: Rng, tail: string): string {
  const name = r.chance(0.7) ? r.pick(UNKNOWN_COLLECTIONS) : encodePart(hostileString(r).slice(0, 200)) || 'x';
  return `/api/sync/${name}/${tail}`;
}

function badQuery(r: Rng): string {
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

const now = () => Date.now();

function rowContexts(): Record<ReplicatedCollection, RowContext> {
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
  };
}

function specs(): EndpointSpec[] {
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
  await stripeServer?.cleanup();
  await stripe?.close();
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

const attackerOf = (): Attacker => ({
  origin: server.url,
  cookie: w.attacker.http.cookieHeader(),
  revokedCookies: w.revokedCookies,
  storedSessionIds: w.storedSessionIds,
});

describe(`hostile HTTP payloads (${N} per endpoint)`, () => {
  // The specs need the world: build them lazily, one test per endpoint.
  const names = [
    'POST /api/auth/signup',
    'POST /api/auth/login',
    'POST /api/auth/logout',
    'GET /api/auth/session',
    'POST /api/waitlist',
    'GET /api/public-config',
    ...REPLICATED.map((c) => `GET /api/sync/${c}/pull`),
    ...REPLICATED.map((c) => `POST /api/sync/${c}/push`),
    'GET /api/sync/stream',
    'POST /api/stripe/create-connect-account',
    'GET /api/stripe/account-status',
    'GET /api/stripe/account-link/refresh',
    'POST /api/payments/checkout',
    'POST /api/payments/confirm',
    'POST /api/gigs/complete-gig',
    'POST /api/payments/simulated/onboarding/:linkId',
    'POST /api/payments/simulated/checkout/:sessionId/pay',
  ];
  it.each(names)(
    '%s refuses every one with a 4xx { error } and leaves the store unchanged',
    async (name) => {
      const spec = specs().find((s) => s.name === name)!;
      const violations = await runEndpoint(server, spec, attackerOf());
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
    },
    TIMEOUT,
  );

  it('the attacker’s own valid requests still work afterwards (the payloads were refused, not the attacker)', async () => {
    expect((await w.attacker.http.get('/api/auth/session')).status).toBe(200);
    const paid = await w.attacker.http.post<{ next: string }>(
      `/api/payments/simulated/checkout/${w.openSession}/pay`,
      {},
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  });
});

describe(`POST /api/stripe/webhook and /api/stripe/connect-webhook (${N} unsigned, forged and stale events)`, () => {
  it(
    'refuses every one with 400 (413 when too large) and a JSON { error }, and records nothing',
    async () => {
      stripe = await startStripeMock();
      stripeServer = await startTestServer({
        STRIPE_SECRET_KEY: 'sk_test_hostile',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
        LOG_LEVEL: 'silent',
        SNAPSHOT_INTERVAL_MS: '3600000',
      });
      const r = root.fork('webhook');
      const violations = await run(stripeServer, 'POST /api/stripe/webhook', N, async () => {
        // Each endpoint with its own secret (decision 007); the defects are the same for both.
        const [path, secret] = r.pick([
          ['/api/stripe/webhook', WEBHOOK_SECRET],
          ['/api/stripe/connect-webhook', CONNECT_WEBHOOK_SECRET],
        ] as const);
        const event = signedEvent(
          secret,
          r.pick(['checkout.session.completed', 'account.updated', 'charge.refunded']),
          { id: `cs_${randomText(r, 8)}`, metadata: { applicationId: 'x' } },
          { account: 'acct_x' },
        );
        const headers: Record<string, string> = {
          'content-type': r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']),
        };
        if (r.chance(0.3)) headers.origin = 'https://evil.example';
        let body: string = event.body;
        let defect: string;
        let status = 400;
        switch (r.int(0, 6)) {
          case 0:
            defect = 'no signature';
            break;
          case 1:
            defect = 'a made-up signature';
            headers['stripe-signature'] =
              `t=${Math.floor(Date.now() / 1000)},v1=${Buffer.from(Array.from({ length: 32 }, () => r.int(0, 255))).toString('hex')}`;
            break;
          case 2:
            defect = 'signed with another secret';
            headers['stripe-signature'] = stripeSignature(event.body, 'whsec_attacker');
            break;
          case 3:
            defect = 'a stale signature (over 300 s)';
            headers['stripe-signature'] = stripeSignature(
              event.body,
              secret,
              Math.floor(Date.now() / 1000) - r.int(301, 100_000),
            );
            break;
          case 4:
            defect = 'a signature of another body';
            headers['stripe-signature'] = event.signature;
            body = event.body.replace('"livemode":false', '"livemode":true');
            break;
          case 5:
            defect = 'a malformed signature header';
            headers['stripe-signature'] = r.pick([
              '',
              't=abc',
              'v1=',
              't=1,v1=zz',
              hostileString(r)
                .replace(/[^\x20-\x7e]/g, '')
                .slice(0, 500) || 'x',
              'x'.repeat(r.int(1, 4000)),
            ]);
            body = r.chance(0.5) ? body : hostileString(r);
            break;
          default:
            defect = 'too large';
            headers['stripe-signature'] = event.signature;
            body = JSON.stringify({ padding: 'p'.repeat(512 * 1024 + r.int(1, 100_000)) });
            status = 413;
        }
        const a = await send(stripeServer, {
          defect,
          method: 'POST',
          path,
          headers,
          body,
          expect: { kind: 'refused', status },
        });
        return {
          defect,
          problem: judge({ defect, method: 'POST', path: '', headers, expect: { kind: 'refused', status } }, a),
        };
      });
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
    },
    TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// The chat socket

type UpgradeAnswer = { status: number; contentType: string | undefined; body: string };

/** Sends an upgrade request as is and reports the answer (101 when a socket opened). */
function upgrade(
  on: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: on.port, method, path, headers });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101, contentType: undefined, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe(`the chat socket (${N} hostile upgrade requests, ${N} hostile messages)`, () => {
  it(
    'refuses every hostile upgrade before it opens, with a 4xx JSON { error }',
    async () => {
      const r = root.fork('chat-upgrade');
      const me = w.attacker.user.id;
      const ctx = {
        ...attackerOf(),
        ownRoom: w.room,
        foreignRoom: w.victimRoom,
        unlinkedRoom: conversationIdFor(me, w.loner.user.id),
        selfRoom: `${me}_${me}`,
      };
      const violations = await run(
        server,
        'chat socket upgrade',
        N,
        async () => {
          const u = hostileUpgrade(r, ctx);
          const a = await upgrade(server, u.method, u.path, u.headers);
          let problem: string | undefined;
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(a.body) as Record<string, unknown>;
          } catch {
            json = undefined;
          }
          if (a.status < 400 || a.status >= 500) problem = `answered ${a.status} ${a.body.slice(0, 100)}`;
          else if (u.status !== 'any4xx' && a.status !== u.status)
            problem = `${a.status} instead of ${u.status}: ${a.body.slice(0, 100)}`;
          else if (!/^application\/json/.test(a.contentType ?? '') || typeof json?.error !== 'string')
            problem = `no JSON { error }: ${a.contentType} ${a.body.slice(0, 100)}`;
          return { defect: u.defect, problem };
        },
        [w.room, w.victimRoom],
      );
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'closes the socket (4400 not the protocol, 4403 refused, 1009 too big) or ignores each hostile message; never an error close, never a change',
    async () => {
      const r = root.fork('chat-messages');
      const roomCtx = {
        userId: w.attacker.user.id,
        otherId: w.s1.user.id,
        serverState: () => server.ctx.store.chatUpdates(w.room),
      };
      const url = `${chatSocketBase(server.url)}/${w.room}`;
      const cookie = w.attacker.http.cookieHeader();
      const violations = await run(
        server,
        'chat socket messages',
        N,
        async (i) => {
          const f =
            i % 97 === 96
              ? { defect: 'a frame over 4 MiB', data: new Uint8Array(4 * 1024 * 1024 + 10), mayBeIgnored: false }
              : hostileChatFrame(r, roomCtx);
          const ws = new WebSocket(url, { headers: { cookie }, origin: server.url });
          const outcome = await new Promise<{ closed?: number; alive?: boolean; reason?: string }>(
            (resolve, reject) => {
              let probed = false;
              ws.on('error', () => undefined);
              ws.on('close', (code, reason) => resolve({ closed: code, reason: reason.toString() }));
              ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
              ws.on('open', () => {
                ws.send(f.data, { binary: typeof f.data !== 'string' });
                // Sync step 1 with an empty state vector: its answer (sync step 2) shows the socket is
                // alive and that the hostile frame, sent before it, was handled.
                ws.send(new Uint8Array([0, 0, 1, 0]));
                probed = true;
              });
              ws.on('message', (data: Buffer) => {
                if (probed && data[0] === 0 && data[1] === 1) resolve({ alive: true });
              });
            },
          );
          ws.terminate();
          let problem: string | undefined;
          if (outcome.alive && !f.mayBeIgnored) problem = 'the socket stayed open';
          if (outcome.closed !== undefined && ![4400, 4403, 1009].includes(outcome.closed))
            problem = `closed with ${outcome.closed} ${outcome.reason ?? ''}`;
          return { defect: f.defect, problem };
        },
        [w.room],
      );
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
      // The room carries on: its participants still exchange messages.
      const chat = openChat(w.s1.http, w.room);
      await chat.synced();
      chat.send(chatMessage(w.s1.user.id, w.attacker.user.id, 'Still here.'));
      await waitFor('a new message is stamped', () => chat.stamps.size === 2);
      chat.destroy();
    },
    TIMEOUT,
  );
});

describe('named hostile cases', () => {
  it('a pushed gig that forges its owner keeps the real owner; prototype keys are refused per row and never pollute', async () => {
    const fresh = new TestClient(server.url);
    const user = await signUpWithProfile(fresh);
    const ownGig = (await write(fresh, 'gigs', gigDoc())).master!;
    expect(ownGig.createdBy).toBe(user.id);
    const forged = await write(fresh, 'gigs', { ...ownGig, createdBy: w.vb.user.id, title: 'Renamed' }, ownGig);
    expect(forged.refusal).toBeUndefined();
    expect(server.ctx.store.get('gigs', ownGig.id as string)).toMatchObject({ createdBy: user.id, title: 'Renamed' });
    const created = await write(fresh, 'gigs', gigDoc({ createdBy: w.vb.user.id, creatorName: 'Vic Buyer' }));
    expect(created.master).toMatchObject({ createdBy: user.id, creatorName: 'Ada Painter' });

    const before = await snapshotStore(server);
    const proto = await fresh.post(
      '/api/sync/gigs/push',
      `[{"newDocumentState":{"id":"${gigDoc().id as string}","__proto__":{"polluted":true}}}]`,
    );
    expect(proto.status).toBe(400);
    expect(proto.body.error).toMatch(/__proto__/);
    expect(storeDifference(before, await snapshotStore(server))).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers unknown collections, bad checkpoints and unknown API paths with 4xx', async () => {
    const c = w.attacker.http;
    expect((await c.get('/api/sync/credentials/pull?seq=0')).status).toBe(404);
    expect((await c.get('/api/sync/sessions/pull?seq=0')).status).toBe(404);
    expect((await c.get('/api/sync/gigs/pull?seq=-1')).status).toBe(400);
    expect((await c.get('/api/sync/gigs/pull?seq=abc')).status).toBe(400);
    expect((await c.get('/api/sync/gigs/pull?seq=0&extra=1')).status).toBe(400);
    expect((await c.get('/api/nope')).status).toBe(404);
  });

  it('a body nested deeper than any document is refused before it is parsed into anything', async () => {
    const depth = 5000;
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    const res = await w.attacker.http.post(
      '/api/sync/gigs/push',
      `[{"newDocumentState":{"id":"${gigDoc().id as string}","title":${deep}}}]`,
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/nested/);
  });
});
