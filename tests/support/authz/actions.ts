import { isAcceptedOffer } from '../../../shared/constants';
import { applicationIdFor, conversationIdFor } from '../../../shared/ids';
import { REPLICATED, type PullAnswer, type ReplicatedCollection } from '../../../shared/sync/protocol';
import type { CollectionName, StoredDoc } from '../../../sync-server/store/store';
import { gigDoc, PASSWORD, push, randomId, uniqueEmail } from '../fixtures';
import { TestClient, type JsonResponse } from '../http-client';
import { startTestServer, type TestServer } from '../in-process-server';
import { openStream, type SseEvent } from '../sse';
import { signedEvent, startStripeMock } from '../stripe-mock';
import { waitFor } from '../wait';
import { chatMessage, openChat, tryChatSocket } from '../yjs-client';
import {
  applicantSendsMessage,
  buildWorld,
  freshGig,
  idOf,
  MEMBERS,
  mustStore,
  once,
  openCheckout,
  secondSession,
  stored,
  type Doc,
  type Member,
  type Role,
  type World,
} from './world';

/** What a cell did: allowed, or denied with the HTTP status / close code and the reason given. */
export type Outcome = { allowed: true; detail?: string } | { allowed: false; status?: number; reason?: string };

export type Action = {
  name: string;
  /**
   * Cells run in phase order. Phase 3 holds the cells that may link the stranger to the buyer
   * (applying to the buyer's gig), so every earlier cell still sees a stranger.
   */
  phase?: 1 | 2 | 3;
  run(w: World, role: Role): Promise<Outcome>;
};

const allowed = (detail?: string): Outcome => ({ allowed: true, ...(detail ? { detail } : {}) });
const denied = (status?: number, reason?: string): Outcome => ({
  allowed: false,
  ...(status !== undefined ? { status } : {}),
  ...(reason ? { reason } : {}),
});

const errorOf = (res: JsonResponse<unknown>): string | undefined => {
  const body = res.body as { error?: unknown } | string;
  return typeof body === 'object' && body && typeof body.error === 'string'
    ? body.error
    : typeof body === 'string'
      ? body.slice(0, 80)
      : undefined;
};

/** An HTTP answer is an allow when `ok` says the request did its job; anything else is a denial. */
function http(res: JsonResponse<unknown>, ok: (res: JsonResponse<unknown>) => boolean): Outcome {
  const reason = res.status >= 300 && res.status < 400 ? (res.headers.get('location') ?? undefined) : errorOf(res);
  return ok(res) ? allowed(String(res.status)) : denied(res.status, reason);
}

/** The member a role acts for when an action needs "their own" something; the visitor borrows the buyer's. */
const selfOf = (role: Role): Member => (role === 'visitor' ? 'buyer' : role);

// ---------------------------------------------------------------------------------------------
// Pushes: the ground truth is the store. A push is an allow only when the change it asks for
// landed; a refusal, a conflict or a silently ignored field is a denial.

async function pushCell(
  w: World,
  role: Role,
  collection: CollectionName,
  doc: Doc,
  assumed: Doc | null,
  landed: () => boolean,
): Promise<Outcome> {
  const res = await push(w.clients[role], collection, [
    { assumedMasterState: assumed, newDocumentState: { _deleted: false, ...doc } },
  ]);
  if (res.status !== 200)
    return landed() ? allowed(`status ${res.status}, but it landed`) : denied(res.status, errorOf(res));
  const refusal = res.body.refused.find((r) => r.id === doc.id);
  if (landed()) return allowed(refusal ? `refused (${refusal.reason}) but landed` : undefined);
  return denied(undefined, refusal?.reason ?? 'not applied (conflict or ignored)');
}

/** Pushes a change of an existing document, based on the server's current version of it. */
function pushEdit(
  w: World,
  role: Role,
  collection: CollectionName,
  id: string,
  change: Doc,
  landed: (after: Doc | undefined) => boolean,
) {
  const current = mustStore(w, collection, id);
  return pushCell(w, role, collection, { ...current, ...change }, current, () => landed(stored(w, collection, id)));
}

function pushDelete(w: World, role: Role, collection: CollectionName, id: string) {
  const current = mustStore(w, collection, id);
  return pushCell(
    w,
    role,
    collection,
    { ...current, _deleted: true },
    current,
    () => w.server.ctx.store.get(collection, id)?._deleted === true,
  );
}

/** The application's state-machine move by `role`, from a fresh fixture in state `from`. */
function moveApplication(from: Parameters<typeof freshGig>[1], change: Doc, landedStatus: string): Action['run'] {
  return async (w, role) => {
    const f = await freshGig(w, from);
    return pushEdit(w, role, 'applications', f.appId, change, (after) => after?.status === landedStatus);
  };
}

// ---------------------------------------------------------------------------------------------
// Reads: each role's full pull of every collection, taken once before any cell changes anything.

type Pulled = Record<ReplicatedCollection, Doc[]>;

async function pullEverything(client: TestClient): Promise<{ status: number; docs?: Pulled }> {
  const docs = {} as Pulled;
  for (const c of REPLICATED) {
    const res = await client.get<PullAnswer>(`/api/sync/${c}/pull?seq=0&limit=1000`);
    if (res.status !== 200) return { status: res.status };
    docs[c] = res.body.documents;
  }
  return { status: 200, docs };
}

const snapshots = new WeakMap<World, Map<Role, Promise<{ status: number; docs?: Pulled }>>>();
function snapshot(w: World, role: Role) {
  let byRole = snapshots.get(w);
  if (!byRole) snapshots.set(w, (byRole = new Map()));
  let s = byRole.get(role);
  if (!s) byRole.set(role, (s = pullEverything(w.clients[role])));
  return s;
}

/** Visible: some document of the role's pull matches. */
function sees(pick: (w: World, role: Role, docs: Pulled) => Doc[]): Action['run'] {
  return async (w, role) => {
    const s = await snapshot(w, role);
    if (!s.docs) return denied(s.status);
    const found = pick(w, role, s.docs);
    return found.length ? allowed(found.map((d) => d.id).join(',')) : denied(undefined, 'not in the pull');
  };
}

const PRIVATE_USER_FIELDS = [
  'email',
  'stripeAccountId',
  'payoutStatus',
  'termsAccepted',
  'termsAcceptedAt',
  'createdAt',
];

/** An application carrying an email that is not the role's own (the other side's). */
const otherSidesEmail = (w: World, role: Role) => (a: Doc) =>
  ['creatorEmail', 'applicantEmail'].some((f) => a[f] !== undefined && a[f] !== w.users[selfOf(role)].email);

/** The applicant's offer, accepted by them (PENDING_PAYMENT): from here the two share their emails. */
const acceptedOffer = once((w: World) => freshGig(w, 'PENDING_PAYMENT'));

// ---------------------------------------------------------------------------------------------
// The change stream: every role's stream is open while the buyer posts a gig, the applicant
// applies to it and the buyer edits it; the edit (which everyone may see) is the last event, so
// once it arrived anything not seen before it was not sent.

type StreamSeen = { status: number; events: SseEvent[]; gigId: string; appId: string };

const streamScenario = once(async (w: World): Promise<Record<Role, StreamSeen>> => {
  const streams = await Promise.all(
    (['visitor', ...MEMBERS] as Role[]).map(
      async (role) =>
        [role, await openStream(`${w.server.url}/api/sync/stream`, w.clients[role].cookieHeader())] as const,
    ),
  );
  try {
    for (const [, s] of streams) if (s.status === 200) await s.waitFor((e) => e.event === 'hello');
    const f = await freshGig(w, 'none');
    await pushCell(
      w,
      'applicant',
      'applications',
      { id: f.appId, gigId: f.gigId, applicantId: idOf(w, 'applicant'), budget: 5000, status: 'PENDING' },
      null,
      () => true,
    );
    if (!stored(w, 'applications', f.appId)) throw new Error('fixture: the stream scenario’s application was refused');
    const title = `Sentinel ${randomId().slice(0, 6)}`;
    const gig = mustStore(w, 'gigs', f.gigId);
    await pushCell(w, 'buyer', 'gigs', { ...gig, title }, gig, () => true);
    const result = {} as Record<Role, StreamSeen>;
    for (const [role, s] of streams) {
      if (s.status === 200) {
        await s.waitFor((e) => e.event === 'changes' && docsOf(e).some((d) => d.id === f.gigId && d.title === title));
      }
      result[role] = { status: s.status, events: [...s.events], gigId: f.gigId, appId: f.appId };
    }
    return result;
  } finally {
    for (const [, s] of streams) s.close();
  }
});

function docsOf(e: SseEvent, collection?: string): Doc[] {
  const data = e.data as { collection?: string; documents?: Doc[] };
  return e.event === 'changes' && (!collection || data.collection === collection) ? (data.documents ?? []) : [];
}

function streamed(
  pick: (w: World, role: Role, seen: StreamSeen, docs: (collection: string) => Doc[]) => Doc[],
): Action['run'] {
  return async (w, role) => {
    const seen = (await streamScenario(w))[role];
    if (seen.status !== 200) return denied(seen.status);
    const docs = (collection: string) => seen.events.flatMap((e) => docsOf(e, collection));
    const found = pick(w, role, seen, docs);
    return found.length ? allowed() : denied(undefined, 'not streamed');
  };
}

// ---------------------------------------------------------------------------------------------
// Chat sockets.

type Pair = (w: World, role: Role) => string;
const pairOf =
  (x: Member, y: Member): Pair =>
  (w) =>
    conversationIdFor(idOf(w, x), idOf(w, y));

async function openSocket(w: World, role: Role, roomId: string, origin = w.server.url): Promise<Outcome> {
  const res = await tryChatSocket(w.server.url, roomId, { cookie: w.clients[role].cookieHeader(), origin });
  if (res.status === 101 && 'socket' in res) {
    res.socket.close();
    return allowed();
  }
  return denied(res.status, 'body' in res ? String(res.body.error ?? '') : undefined);
}

/** Opens the buyer–applicant room and sends one message claiming `senderOf(role)` as its sender. */
function chatSend(
  senderOf: (w: World, role: Member) => string,
  receiverOf?: (w: World, role: Member) => string,
): Action['run'] {
  return async (w, role) => {
    const roomId = w.conversationId;
    const opened = await openSocket(w, role, roomId);
    if (!opened.allowed || role === 'visitor') return opened;
    const chat = openChat(w.clients[role], roomId);
    try {
      await chat.synced();
      const sender = senderOf(w, role);
      const receiver = receiverOf
        ? receiverOf(w, role)
        : sender === idOf(w, 'buyer')
          ? idOf(w, 'applicant')
          : idOf(w, 'buyer');
      const message = chatMessage(sender, receiver, `cell ${randomId()}`);
      chat.send(message);
      const end = await waitFor('the message is stamped or the socket refused', () =>
        chat.stamps.has(message.id) ? 'stamped' : chat.closedWith() ? 'closed' : undefined,
      );
      if (end === 'stamped') return allowed();
      const closed = chat.closedWith()!;
      return denied(closed.code, closed.reason);
    } finally {
      chat.destroy();
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Shared fixtures of the payment cells that only read.

const pendingPayment = once(openCheckout);
const paidWork = once((w: World) => freshGig(w, 'IN_PROGRESS'));
const onboardingPath = (w: World) => w.onboarding.applicant;

const completeBody = (w: World, f: { gigId: string; appId: string }, userId: string) => ({
  gigId: f.gigId,
  applicationId: f.appId,
  userId,
  userType: 'buyer',
});

/** A second server in Stripe mode (against the local Stripe-compatible mock), for its signed webhook. */
const WEBHOOK_SECRET = 'whsec_authz_matrix';
const stripeModeServer = once(async (w: World): Promise<TestServer> => {
  const mock = await startStripeMock();
  const s = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_authz',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: mock.url,
    LOG_LEVEL: 'silent',
  });
  w.cleanups.push(async () => {
    await s.cleanup();
    await mock.close();
  });
  return s;
});

// ---------------------------------------------------------------------------------------------

export const ACTIONS: Action[] = [
  // --- HTTP: public, auth, waitlist ---------------------------------------------------------
  {
    name: 'GET /api/health',
    run: async (w, r) => http(await w.clients[r].get('/api/health'), (res) => res.status === 200),
  },
  {
    name: 'GET /api/public-config',
    run: async (w, r) => http(await w.clients[r].get('/api/public-config'), (res) => res.status === 200),
  },
  {
    name: 'POST /api/auth/signup (a new account)',
    run: async (w, r) => {
      // In a copy of the role's client: the new account's cookie must not replace the role's session.
      const client = copyOf(w.clients[r]);
      const body = {
        name: 'New Person',
        email: uniqueEmail('new'),
        password: PASSWORD,
        confirmPassword: PASSWORD,
        termsAccepted: true,
      };
      return http(await client.post('/api/auth/signup', body), (res) => res.status === 201);
    },
  },
  {
    name: 'POST /api/auth/login (own account, again)',
    run: async (w, r) => {
      const self = selfOf(r);
      const client = r === 'visitor' ? new TestClient(w.server.url) : await secondSession(w, self);
      const res = await client.post<{ user?: Doc }>('/api/auth/login', {
        email: w.users[self].email,
        password: PASSWORD,
      });
      return http(res, (x) => x.status === 200 && (x.body as { user?: Doc }).user?.id === idOf(w, self));
    },
  },
  {
    name: "POST /api/auth/login (another user's email, wrong password)",
    run: async (w, r) => {
      const victim: Member = r === 'buyer' ? 'applicant' : 'buyer';
      const client = copyOf(w.clients[r]);
      // Not the role's own client: a refused login never touches the session, but the cell must not depend on that.
      return http(
        await client.post('/api/auth/login', { email: w.users[victim].email, password: 'Wr0ngPassword' }),
        (res) => res.status === 200,
      );
    },
  },
  {
    name: 'POST /api/auth/logout',
    run: async (w, r) => {
      const client = r === 'visitor' ? new TestClient(w.server.url) : await secondSession(w, r);
      const res = await client.post('/api/auth/logout', {});
      const after = await client.get('/api/auth/session');
      return http(res, (x) => x.status === 200 && after.status === 401);
    },
  },
  {
    name: 'GET /api/auth/session',
    run: async (w, r) =>
      http(
        await w.clients[r].get<{ user?: Doc }>('/api/auth/session'),
        (res) => res.status === 200 && (res.body as { user?: Doc }).user?.id === idOf(w, selfOf(r)),
      ),
  },
  {
    name: 'POST /api/waitlist',
    run: async (w, r) =>
      http(
        await w.clients[r].post('/api/waitlist', {
          name: 'Wanda',
          email: uniqueEmail('wait'),
          city: 'Lagos',
          location: 'NG',
        }),
        (res) => res.status === 201,
      ),
  },
  {
    name: 'POST from another origin with the role’s cookie (push a gig)',
    run: async (w, r) => {
      const id = randomId();
      const res = await fetch(`${w.server.url}/api/sync/gigs/push`, {
        method: 'POST',
        headers: {
          cookie: w.clients[r].cookieHeader(),
          origin: 'https://evil.example',
          'content-type': 'application/json',
        },
        body: JSON.stringify([{ assumedMasterState: null, newDocumentState: { ...gigDoc({ id }), _deleted: false } }]),
      });
      const body = (await res.json()) as { error?: string };
      return stored(w, 'gigs', id) ? allowed(String(res.status)) : denied(res.status, body.error);
    },
  },

  // --- Replication endpoints ------------------------------------------------------------------
  ...REPLICATED.map((c): Action => ({
    name: `GET /api/sync/${c}/pull`,
    run: async (w, r) => http(await w.clients[r].get(`/api/sync/${c}/pull?seq=0&limit=1`), (res) => res.status === 200),
  })),
  // Collections that never leave the server (password hashes, sessions, the payment ledger, the waitlist).
  ...(['credentials', 'sessions', 'ledger', 'waitlist', 'portfolios'] as const).map((c): Action => ({
    name: `GET /api/sync/${c}/pull (server-only collection)`,
    run: async (w, r) =>
      http(await w.clients[r].get(`/api/sync/${c}/pull?seq=0&limit=1000`), (res) => res.status === 200),
  })),
  {
    name: 'POST /api/sync/credentials/push (server-only collection)',
    run: async (w, r) => {
      const id = idOf(w, selfOf(r));
      const before = JSON.stringify(w.server.ctx.store.get('credentials', id));
      const res = await push(w.clients[r], 'credentials', [
        {
          assumedMasterState: null,
          newDocumentState: { id, email: uniqueEmail('takeover'), passwordHash: 'x', _deleted: false },
        },
      ]);
      return http(res, () => JSON.stringify(w.server.ctx.store.get('credentials', id)) !== before);
    },
  },
  {
    name: 'GET /api/sync/stream (hello)',
    run: async (w, r) => {
      const s = await openStream(`${w.server.url}/api/sync/stream`, w.clients[r].cookieHeader());
      try {
        if (s.status !== 200) return denied(s.status);
        await s.waitFor((e) => e.event === 'hello');
        return allowed();
      } finally {
        s.close();
      }
    },
  },

  // --- What each role's pull shows ------------------------------------------------------------
  {
    name: 'pull users: own record with email and payout id',
    run: sees((w, r, d) =>
      d.users.filter(
        (u) =>
          u.id === idOf(w, selfOf(r)) && u.email === w.users[selfOf(r)].email && typeof u.stripeAccountId === 'string',
      ),
    ),
  },
  {
    name: "pull users: the buyer's profile",
    run: sees((w, _r, d) => d.users.filter((u) => u.id === idOf(w, 'buyer'))),
  },
  {
    name: "pull users: the applicant's profile",
    run: sees((w, _r, d) => d.users.filter((u) => u.id === idOf(w, 'applicant'))),
  },
  {
    name: "pull users: the other applicant's profile",
    run: sees((w, _r, d) => d.users.filter((u) => u.id === idOf(w, 'otherApplicant'))),
  },
  {
    name: "pull users: the stranger's profile",
    run: sees((w, _r, d) => d.users.filter((u) => u.id === idOf(w, 'stranger'))),
  },
  {
    name: "pull users: another user's email, payout id or other private field",
    run: sees((w, r, d) =>
      d.users.filter((u) => u.id !== idOf(w, selfOf(r)) && PRIVATE_USER_FIELDS.some((f) => u[f] !== undefined)),
    ),
  },
  { name: "pull gigs: the buyer's gig", run: sees((w, _r, d) => d.gigs.filter((g) => g.id === w.gigId)) },
  {
    name: 'pull gigs: a creatorEmail on any gig',
    run: sees((_w, _r, d) => d.gigs.filter((g) => g.creatorEmail !== undefined)),
  },
  {
    name: "pull applications: the applicant's application",
    run: sees((w, _r, d) => d.applications.filter((a) => a.id === w.appId)),
  },
  {
    name: "pull applications: the other side's email before an offer is accepted",
    run: sees((w, r, d) => d.applications.filter((a) => !isAcceptedOffer(a.status) && otherSidesEmail(w, r)(a))),
  },
  {
    name: "pull applications: the other side's email once the offer is accepted",
    run: async (w, r) => {
      const f = await acceptedOffer(w);
      const pulled = await pullEverything(w.clients[r]);
      if (!pulled.docs) return denied(pulled.status);
      const found = pulled.docs.applications.filter((a) => a.id === f.appId && otherSidesEmail(w, r)(a));
      return found.length ? allowed() : denied(undefined, 'no email of the other side');
    },
  },
  {
    name: "pull applications: the other applicant's application",
    run: sees((w, _r, d) => d.applications.filter((a) => a.id === w.otherAppId)),
  },
  {
    name: "pull notifications: the buyer's new_application notifications",
    run: sees((w, _r, d) =>
      d.notifications.filter((n) => n.userId === idOf(w, 'buyer') && n.type === 'new_application'),
    ),
  },
  {
    name: "pull notifications: the applicant's new_conversation notification",
    run: sees((w, _r, d) =>
      d.notifications.filter((n) => n.userId === idOf(w, 'applicant') && n.type === 'new_conversation'),
    ),
  },
  {
    name: 'pull notifications: anybody else’s notification',
    run: sees((w, r, d) => d.notifications.filter((n) => n.userId !== idOf(w, selfOf(r)))),
  },
  {
    name: 'pull conversations: the buyer–applicant conversation',
    run: sees((w, _r, d) => d.conversations.filter((c) => c.id === w.conversationId)),
  },

  // --- What each role's change stream shows ---------------------------------------------------
  {
    name: "stream: the buyer's new gig",
    run: streamed((_w, _r, s, docs) => docs('gigs').filter((g) => g.id === s.gigId)),
  },
  {
    name: "stream: the applicant's new application",
    run: streamed((_w, _r, s, docs) => docs('applications').filter((a) => a.id === s.appId)),
  },
  {
    name: "stream: the buyer's new_application notification",
    run: streamed((w, _r, s, docs) =>
      docs('notifications').filter((n) => n.userId === idOf(w, 'buyer') && n.applicationId === s.appId),
    ),
  },
  {
    name: "stream: the applicant's profile (re-stamped by the application)",
    run: streamed((w, _r, _s, docs) => docs('users').filter((u) => u.id === idOf(w, 'applicant'))),
  },
  {
    name: "stream: another user's email, payout id or creatorEmail",
    run: streamed((w, r, _s, docs) => [
      ...docs('users').filter(
        (u) => u.id !== idOf(w, selfOf(r)) && PRIVATE_USER_FIELDS.some((f) => u[f] !== undefined),
      ),
      ...docs('gigs').filter((g) => g.creatorEmail !== undefined),
    ]),
  },
  {
    name: "stream: the other side's email on an application before an offer is accepted",
    run: streamed((w, r, _s, docs) =>
      docs('applications').filter((a) => !isAcceptedOffer(a.status) && otherSidesEmail(w, r)(a)),
    ),
  },

  // --- Chat sockets at /api/chat/:conversationId ----------------------------------------------
  { name: 'chat: open the buyer–applicant room', run: (w, r) => openSocket(w, r, pairOf('buyer', 'applicant')(w, r)) },
  {
    name: 'chat: open the buyer–other-applicant room',
    run: (w, r) => openSocket(w, r, pairOf('buyer', 'otherApplicant')(w, r)),
  },
  {
    name: 'chat: open the applicant–other-applicant room (no application links them)',
    run: (w, r) => openSocket(w, r, pairOf('applicant', 'otherApplicant')(w, r)),
  },
  {
    name: 'chat: open the buyer–stranger room (no application links them)',
    run: (w, r) => openSocket(w, r, pairOf('buyer', 'stranger')(w, r)),
  },
  {
    name: 'chat: open a room with oneself',
    run: (w, r) => openSocket(w, r, `${idOf(w, selfOf(r))}_${idOf(w, selfOf(r))}`),
  },
  {
    name: 'chat: open the buyer–applicant room from another origin',
    run: (w, r) => openSocket(w, r, w.conversationId, 'https://evil.example'),
  },
  { name: 'chat: send a message as oneself in the buyer–applicant room', run: chatSend((w, r) => idOf(w, r)) },
  {
    name: 'chat: send a message in the name of the other participant',
    run: chatSend((w, r) => (r === 'buyer' ? idOf(w, 'applicant') : idOf(w, 'buyer'))),
  },
  {
    name: 'chat: send a message addressed to a third user (the other applicant)',
    run: chatSend(
      (w, r) => idOf(w, r),
      (w) => idOf(w, 'otherApplicant'),
    ),
  },

  // --- Pushes: users ----------------------------------------------------------------------------
  {
    name: 'push users: edit own profile (bio)',
    phase: 2,
    run: (w, r) => {
      const bio = `bio ${randomId()}`;
      return pushEdit(w, r, 'users', idOf(w, selfOf(r)), { bio }, (after) => after?.bio === bio);
    },
  },
  {
    name: "push users: edit the buyer's profile (bio)",
    phase: 2,
    run: (w, r) => {
      const bio = `bio ${randomId()}`;
      return pushEdit(w, r, 'users', idOf(w, 'buyer'), { bio }, (after) => after?.bio === bio);
    },
  },
  {
    name: 'push users: set own stripeAccountId',
    phase: 2,
    run: (w, r) => {
      const acct = `acct_sim_${randomId()}`;
      return pushEdit(
        w,
        r,
        'users',
        idOf(w, selfOf(r)),
        { stripeAccountId: acct, payoutStatus: 'active' },
        (after) => after?.stripeAccountId === acct,
      );
    },
  },
  {
    name: 'push users: change own email',
    phase: 2,
    run: (w, r) => {
      const email = uniqueEmail('changed');
      return pushEdit(w, r, 'users', idOf(w, selfOf(r)), { email }, (after) => after?.email === email);
    },
  },
  { name: 'push users: delete own account', phase: 2, run: (w, r) => pushDelete(w, r, 'users', idOf(w, selfOf(r))) },
  {
    name: 'push users: create a user record',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      return pushCell(w, r, 'users', { id, name: 'Made Up', email: uniqueEmail('made') }, null, () =>
        Boolean(stored(w, 'users', id)),
      );
    },
  },

  // --- Pushes: gigs -------------------------------------------------------------------------------
  {
    name: 'push gigs: create a gig',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      return pushCell(w, r, 'gigs', gigDoc({ id }), null, () => Boolean(stored(w, 'gigs', id)));
    },
  },
  {
    name: 'push gigs: create a gig in the buyer’s name (createdBy)',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      return pushCell(
        w,
        r,
        'gigs',
        gigDoc({ id, createdBy: idOf(w, 'buyer'), creatorName: 'Bea Buyer' }),
        null,
        () => stored(w, 'gigs', id)?.createdBy === idOf(w, 'buyer'),
      );
    },
  },
  {
    name: "push gigs: edit the buyer's gig (no offer accepted)",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING');
      const title = `Edited ${randomId().slice(0, 6)}`;
      return pushEdit(w, r, 'gigs', f.gigId, { title }, (after) => after?.title === title);
    },
  },
  {
    name: "push gigs: delete the buyer's gig (no work under way)",
    phase: 2,
    run: async (w, r) => pushDelete(w, r, 'gigs', (await freshGig(w, 'PENDING')).gigId),
  },
  {
    name: "push gigs: edit the buyer's gig once an offer was accepted",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING_PAYMENT');
      const title = `Edited ${randomId().slice(0, 6)}`;
      return pushEdit(w, r, 'gigs', f.gigId, { title }, (after) => after?.title === title);
    },
  },
  {
    name: "push gigs: delete the buyer's gig while work is under way",
    phase: 2,
    run: async (w, r) => pushDelete(w, r, 'gigs', (await freshGig(w, 'IN_PROGRESS_UNPAID')).gigId),
  },

  // --- Pushes: applications and the state machine (shared/application-machine.ts) ----------
  {
    name: 'push applications: send an offer (PENDING → PENDING_ACCEPTANCE)',
    phase: 2,
    run: moveApplication('PENDING', { status: 'PENDING_ACCEPTANCE', finalBudget: 30000 }, 'PENDING_ACCEPTANCE'),
  },
  {
    name: 'push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)',
    phase: 2,
    run: moveApplication('PENDING_ACCEPTANCE', { status: 'IN_PROGRESS' }, 'PENDING_PAYMENT'),
  },
  {
    name: 'push applications: decline (PENDING_ACCEPTANCE → REJECTED)',
    phase: 2,
    run: moveApplication('PENDING_ACCEPTANCE', { status: 'REJECTED' }, 'REJECTED'),
  },
  {
    name: 'push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)',
    phase: 2,
    run: moveApplication('PENDING_PAYMENT', { status: 'IN_PROGRESS', paymentConfirmedAt: Date.now() }, 'IN_PROGRESS'),
  },
  {
    name: 'push applications: complete (IN_PROGRESS → COMPLETED)',
    phase: 2,
    run: moveApplication('IN_PROGRESS_UNPAID', { status: 'COMPLETED', completedAt: Date.now() }, 'COMPLETED'),
  },
  {
    name: 'push applications: change the amount of a sent offer',
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING_ACCEPTANCE');
      return pushEdit(w, r, 'applications', f.appId, { finalBudget: 1 }, (after) => after?.finalBudget === 1);
    },
  },
  {
    name: "push applications: change the applicant's offered budget",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING');
      return pushEdit(w, r, 'applications', f.appId, { budget: 1 }, (after) => after?.budget === 1);
    },
  },
  {
    name: 'push applications: reopen a declined application (REJECTED → PENDING)',
    phase: 2,
    run: moveApplication('REJECTED', { status: 'PENDING' }, 'PENDING'),
  },
  {
    name: 'push applications: delete an application',
    phase: 2,
    run: async (w, r) => pushDelete(w, r, 'applications', (await freshGig(w, 'PENDING')).appId),
  },

  // --- Pushes: notifications ----------------------------------------------------------------------
  {
    name: "push notifications: mark the buyer's notification read",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING');
      const note = [...w.server.ctx.store.byIndex('notifications', 'userId', idOf(w, 'buyer'))].find(
        (n) => n.applicationId === f.appId,
      );
      if (!note) throw new Error('fixture: no new_application notification');
      return pushEdit(w, r, 'notifications', note.id, { read: true }, (after) => after?.read === true);
    },
  },
  {
    name: "push notifications: edit the buyer's notification text",
    phase: 2,
    run: async (w, r) => {
      const note = [...w.server.ctx.store.byIndex('notifications', 'userId', idOf(w, 'buyer'))].find(
        (n) => !n._deleted,
      )!;
      return pushEdit(
        w,
        r,
        'notifications',
        note.id,
        { message: 'Pay me now' },
        (after) => after?.message === 'Pay me now',
      );
    },
  },
  {
    name: "push notifications: delete the buyer's notification",
    phase: 2,
    run: async (w, r) => {
      const note = [...w.server.ctx.store.byIndex('notifications', 'userId', idOf(w, 'buyer'))].find(
        (n) => !n._deleted,
      )!;
      return pushDelete(w, r, 'notifications', note.id);
    },
  },
  {
    name: 'push notifications: create a notification for the buyer',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      const doc = {
        id,
        userId: idOf(w, 'buyer'),
        type: 'PAYMENT_CONFIRMED',
        message: 'Paid',
        read: false,
        createdAt: Date.now(),
      };
      return pushCell(w, r, 'notifications', doc, null, () => Boolean(stored(w, 'notifications', id)));
    },
  },

  // --- Pushes: conversations ----------------------------------------------------------------------
  {
    name: 'push conversations: start the buyer–applicant conversation',
    phase: 2,
    run: async (w, r) => {
      // The conversation id is fixed by the two users: a fresh world per cell, so each starts it anew.
      const fresh = await buildWorld(w.server, { conversation: false, payouts: false });
      const id = fresh.conversationId;
      return pushCell(
        fresh,
        r,
        'conversations',
        { id, participants: [idOf(fresh, 'buyer'), idOf(fresh, 'applicant')] },
        null,
        () => {
          const conv = fresh.server.ctx.store.get('conversations', id);
          return Boolean(conv && !conv._deleted);
        },
      );
    },
  },
  {
    name: 'push conversations: start one with a user no application links',
    phase: 2,
    run: (w, r) => {
      const partner: Record<Member, Member> = {
        stranger: 'buyer',
        buyer: 'stranger',
        applicant: 'otherApplicant',
        otherApplicant: 'applicant',
      };
      const a = idOf(w, selfOf(r));
      const b = idOf(w, partner[selfOf(r)]);
      const id = conversationIdFor(a, b);
      return pushCell(w, r, 'conversations', { id, participants: [a, b] }, null, () =>
        Boolean(stored(w, 'conversations', id)),
      );
    },
  },
  {
    name: 'push conversations: start one with oneself',
    phase: 2,
    run: (w, r) => {
      const a = idOf(w, selfOf(r));
      const id = `${a}_${a}`;
      return pushCell(w, r, 'conversations', { id, participants: [a, a] }, null, () =>
        Boolean(stored(w, 'conversations', id)),
      );
    },
  },
  {
    name: 'push conversations: mark read (the applicant sent the last message)',
    phase: 2,
    run: async (w, r) => {
      await applicantSendsMessage(w);
      return pushEdit(
        w,
        r,
        'conversations',
        w.conversationId,
        { lastMessageRead: true },
        (after) => after?.lastMessageRead === true,
      );
    },
  },
  {
    name: 'push conversations: rewrite the last message',
    phase: 2,
    run: (w, r) =>
      pushEdit(
        w,
        r,
        'conversations',
        w.conversationId,
        { lastMessage: 'forged' },
        (after) => after?.lastMessage === 'forged',
      ),
  },
  {
    name: 'push conversations: add a third participant (with a read mark)',
    phase: 2,
    run: async (w, r) => {
      await applicantSendsMessage(w);
      const conv = mustStore(w, 'conversations', w.conversationId);
      const participants = [...(conv.participants as string[]), idOf(w, 'stranger')];
      return pushEdit(
        w,
        r,
        'conversations',
        w.conversationId,
        { participants, lastMessageRead: true },
        (after) => (after?.participants as string[]).length === 3,
      );
    },
  },
  {
    name: 'push conversations: delete the conversation',
    phase: 2,
    run: (w, r) => pushDelete(w, r, 'conversations', w.conversationId),
  },

  // --- Payments ---------------------------------------------------------------------------------
  {
    name: 'POST /api/stripe/create-connect-account (own userId)',
    run: async (w, r) => {
      const self = w.users[selfOf(r)];
      return http(
        await w.clients[r].post('/api/stripe/create-connect-account', {
          email: self.email,
          userId: self.id,
          hostname: 'localhost',
        }),
        (res) => res.status === 200,
      );
    },
  },
  {
    name: "POST /api/stripe/create-connect-account (the applicant's userId)",
    run: async (w, r) => {
      const who = w.users.applicant;
      return http(
        await w.clients[r].post('/api/stripe/create-connect-account', {
          email: who.email,
          userId: who.id,
          hostname: 'localhost',
        }),
        (res) => res.status === 200,
      );
    },
  },
  {
    name: 'GET /api/stripe/account-status',
    run: async (w, r) => http(await w.clients[r].get('/api/stripe/account-status'), (res) => res.status === 200),
  },
  {
    name: 'GET /api/stripe/account-link/refresh',
    run: async (w, r) => {
      const res = await w.clients[r].get('/api/stripe/account-link/refresh');
      const location = res.headers.get('location') ?? '';
      const linkId = location.split('/onboarding/')[1] ?? '';
      const link: StoredDoc | undefined = linkId ? w.server.ctx.store.get('ledger', `sim-link:${linkId}`) : undefined;
      return http(
        res,
        (x) =>
          x.status === 303 &&
          Boolean(link) &&
          stored(w, 'users', idOf(w, selfOf(r)))?.stripeAccountId === link?.accountId,
      );
    },
  },
  {
    name: "GET the simulated onboarding page of the applicant's link",
    run: async (w, r) => http(await w.clients[r].get(onboardingPath(w)), (res) => res.status === 200),
  },
  {
    name: "POST the simulated onboarding of the applicant's link",
    run: async (w, r) => http(await w.clients[r].post(onboardingPath(w), {}), (res) => res.status === 200),
  },
  {
    name: "POST /api/payments/checkout (the applicant's application, PENDING_PAYMENT)",
    run: async (w, r) => {
      const f = await pendingPayment(w);
      return http(
        await w.clients[r].post('/api/payments/checkout', { applicationId: f.appId }),
        (res) => res.status === 200,
      );
    },
  },
  {
    name: "GET the simulated checkout page of the buyer's session",
    run: async (w, r) => {
      const f = await pendingPayment(w);
      return http(
        await w.clients[r].get(`/api/payments/simulated/checkout/${f.sessionId}`),
        (res) => res.status === 200,
      );
    },
  },
  {
    name: "POST pay the buyer's simulated checkout",
    phase: 2,
    run: async (w, r) => {
      const f = await openCheckout(w);
      const res = await w.clients[r].post(`/api/payments/simulated/checkout/${f.sessionId}/pay`, {});
      return http(res, () => stored(w, 'applications', f.appId)?.status === 'IN_PROGRESS');
    },
  },
  {
    name: 'POST /api/payments/confirm (a paid session)',
    run: async (w, r) => {
      const f = await paidWork(w);
      return http(
        await w.clients[r].post('/api/payments/confirm', { applicationId: f.appId, sessionId: f.sessionId }),
        (res) => res.status === 200,
      );
    },
  },
  {
    name: 'POST /api/gigs/complete-gig (own userId)',
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'IN_PROGRESS');
      const res = await w.clients[r].post('/api/gigs/complete-gig', completeBody(w, f, idOf(w, selfOf(r))));
      return http(res, () => stored(w, 'applications', f.appId)?.status === 'COMPLETED');
    },
  },
  {
    name: "POST /api/gigs/complete-gig (the buyer's userId)",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'IN_PROGRESS');
      const res = await w.clients[r].post('/api/gigs/complete-gig', completeBody(w, f, idOf(w, 'buyer')));
      return http(res, () => stored(w, 'applications', f.appId)?.status === 'COMPLETED');
    },
  },
  {
    name: 'POST /api/stripe/webhook (a forged checkout.session.completed)',
    run: async (w, r) => {
      const f = await pendingPayment(w);
      const event = {
        id: `evt_${randomId()}`,
        type: 'checkout.session.completed',
        data: { object: { id: f.sessionId, payment_status: 'paid', metadata: { applicationId: f.appId } } },
      };
      const res = await w.clients[r].post('/api/stripe/webhook', event, {
        'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      });
      return http(res, () => stored(w, 'applications', f.appId)?.status !== 'PENDING_PAYMENT');
    },
  },
  {
    name: 'POST /api/stripe/webhook in Stripe mode (signed with another secret)',
    run: async (w, r) => {
      const s = await stripeModeServer(w);
      const forged = signedEvent('whsec_not_the_servers', 'account.updated', {
        id: 'acct_forged',
        object: 'account',
        charges_enabled: true,
        payouts_enabled: true,
      });
      const res = await fetch(`${s.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': forged.signature,
          cookie: w.clients[r].cookieHeader(),
        },
        body: forged.body,
      });
      const body = (await res.json()) as { error?: string };
      return res.status === 200 ? allowed() : denied(res.status, body.error);
    },
  },

  // --- Applying (last: an allowed cell links the stranger to the buyer) ------------------------
  {
    name: "push applications: apply in the applicant's name",
    phase: 3,
    run: async (w, r) => {
      const f = await freshGig(w, 'none');
      const doc = { id: f.appId, gigId: f.gigId, applicantId: idOf(w, 'applicant'), budget: 5000, status: 'PENDING' };
      return pushCell(w, r, 'applications', doc, null, () => Boolean(stored(w, 'applications', f.appId)));
    },
  },
  {
    name: "push applications: apply to the buyer's gig",
    phase: 3,
    run: async (w, r) => {
      const f = await freshGig(w, 'none');
      const id = applicationIdFor(f.gigId, idOf(w, selfOf(r)));
      const doc = { id, gigId: f.gigId, applicantId: idOf(w, selfOf(r)), budget: 5000, status: 'PENDING' };
      return pushCell(w, r, 'applications', doc, null, () => Boolean(stored(w, 'applications', id)));
    },
  },
];

/** A client on the role's session: whatever the request sets lands in the copy, not in the role's client. */
function copyOf(client: TestClient): TestClient {
  return TestClient.withSession(client.baseUrl, client.sessionToken());
}
