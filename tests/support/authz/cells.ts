import { conversationIdFor } from '../../../shared/ids';
import { REPLICATED, type PullAnswer, type ReplicatedCollection } from '../../../shared/sync/protocol';
import type { CollectionName } from '../../../sync-server/store/store';
import { push, randomId } from '../fixtures';
import { TestClient, type JsonResponse } from '../http-client';
import { startTestServer, type TestServer } from '../in-process-server';
import { openStream, type SseEvent } from '../sse';
import { startStripeMock } from '../stripe-mock';
import { waitFor } from '../wait';
import { chatMessage, openChat, tryChatSocket } from '../yjs-client';
import {
  freshGig,
  idOf,
  MEMBERS,
  mustStore,
  once,
  openCheckout,
  stored,
  type Doc,
  type Member,
  type Role,
  type World,
} from './world';

/** How the authorization matrix's cells act and judge (tests/support/authz/actions/*.ts use these). */
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

export const allowed = (detail?: string): Outcome => ({ allowed: true, ...(detail ? { detail } : {}) });
export const denied = (status?: number, reason?: string): Outcome => ({
  allowed: false,
  ...(status !== undefined ? { status } : {}),
  ...(reason ? { reason } : {}),
});

export const errorOf = (res: JsonResponse<unknown>): string | undefined => {
  const body = res.body as { error?: unknown } | string;
  return typeof body === 'object' && body && typeof body.error === 'string'
    ? body.error
    : typeof body === 'string'
      ? body.slice(0, 80)
      : undefined;
};

/** An HTTP answer is an allow when `ok` says the request did its job; anything else is a denial. */
export function http(res: JsonResponse<unknown>, ok: (res: JsonResponse<unknown>) => boolean): Outcome {
  const reason = res.status >= 300 && res.status < 400 ? (res.headers.get('location') ?? undefined) : errorOf(res);
  return ok(res) ? allowed(String(res.status)) : denied(res.status, reason);
}

/** The member a role acts for when an action needs "their own" something; the visitor borrows the buyer's. */
export const selfOf = (role: Role): Member => (role === 'visitor' ? 'buyer' : role);

// ---------------------------------------------------------------------------------------------
// Pushes: the ground truth is the store. A push is an allow only when the change it asks for
// landed; a refusal, a conflict or a silently ignored field is a denial.

export async function pushCell(
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
export function pushEdit(
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

export function pushDelete(w: World, role: Role, collection: CollectionName, id: string) {
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
export function moveApplication(
  from: Parameters<typeof freshGig>[1],
  change: Doc,
  landedStatus: string,
): Action['run'] {
  return async (w, role) => {
    const f = await freshGig(w, from);
    return pushEdit(w, role, 'applications', f.appId, change, (after) => after?.status === landedStatus);
  };
}

// ---------------------------------------------------------------------------------------------
// Reads: each role's full pull of every collection, taken once before any cell changes anything.

export type Pulled = Record<ReplicatedCollection, Doc[]>;

export async function pullEverything(client: TestClient): Promise<{ status: number; docs?: Pulled }> {
  const docs = {} as Pulled;
  for (const c of REPLICATED) {
    const res = await client.get<PullAnswer>(`/api/sync/${c}/pull?seq=0&limit=1000`);
    if (res.status !== 200) return { status: res.status };
    docs[c] = res.body.documents;
  }
  return { status: 200, docs };
}

export const snapshots = new WeakMap<World, Map<Role, Promise<{ status: number; docs?: Pulled }>>>();
export function snapshot(w: World, role: Role) {
  let byRole = snapshots.get(w);
  if (!byRole) snapshots.set(w, (byRole = new Map()));
  let s = byRole.get(role);
  if (!s) byRole.set(role, (s = pullEverything(w.clients[role])));
  return s;
}

/** Visible: some document of the role's pull matches. */
export function sees(pick: (w: World, role: Role, docs: Pulled) => Doc[]): Action['run'] {
  return async (w, role) => {
    const s = await snapshot(w, role);
    if (!s.docs) return denied(s.status);
    const found = pick(w, role, s.docs);
    return found.length ? allowed(found.map((d) => d.id).join(',')) : denied(undefined, 'not in the pull');
  };
}

export const PRIVATE_USER_FIELDS = [
  'email',
  'stripeAccountId',
  'payoutStatus',
  'termsAccepted',
  'termsAcceptedAt',
  'createdAt',
];

/** An application carrying an email that is not the role's own (the other side's). */
export const otherSidesEmail = (w: World, role: Role) => (a: Doc) =>
  ['creatorEmail', 'applicantEmail'].some((f) => a[f] !== undefined && a[f] !== w.users[selfOf(role)].email);

/** The applicant's offer, accepted by them (PENDING_PAYMENT): from here the two share their emails. */
export const acceptedOffer = once((w: World) => freshGig(w, 'PENDING_PAYMENT'));

// ---------------------------------------------------------------------------------------------
// The change stream: every role's stream is open while the buyer posts a gig, the applicant
// applies to it and the buyer edits it; the edit (which everyone may see) is the last event, so
// once it arrived anything not seen before it was not sent.

export type StreamSeen = { status: number; events: SseEvent[]; gigId: string; appId: string };

export const streamScenario = once(async (w: World): Promise<Record<Role, StreamSeen>> => {
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

export function docsOf(e: SseEvent, collection?: string): Doc[] {
  const data = e.data as { collection?: string; documents?: Doc[] };
  return e.event === 'changes' && (!collection || data.collection === collection) ? (data.documents ?? []) : [];
}

export function streamed(
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

export type Pair = (w: World, role: Role) => string;
export const pairOf =
  (x: Member, y: Member): Pair =>
  (w) =>
    conversationIdFor(idOf(w, x), idOf(w, y));

export async function openSocket(w: World, role: Role, roomId: string, origin = w.server.url): Promise<Outcome> {
  const res = await tryChatSocket(w.server.url, roomId, { cookie: w.clients[role].cookieHeader(), origin });
  if (res.status === 101 && 'socket' in res) {
    res.socket.close();
    return allowed();
  }
  return denied(res.status, 'body' in res ? String(res.body.error ?? '') : undefined);
}

/** Opens the buyer–applicant room and sends one message claiming `senderOf(role)` as its sender. */
export function chatSend(
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

export const pendingPayment = once(openCheckout);
export const paidWork = once((w: World) => freshGig(w, 'IN_PROGRESS'));
export const onboardingPath = (w: World) => w.onboarding.applicant;

export const completeBody = (w: World, f: { gigId: string; appId: string }, userId: string) => ({
  gigId: f.gigId,
  applicationId: f.appId,
  userId,
  userType: 'buyer',
});

/** A second server in Stripe mode (against the local Stripe-compatible mock), for its signed webhook. */
export const WEBHOOK_SECRET = 'whsec_authz_matrix';
export const stripeModeServer = once(async (w: World): Promise<TestServer> => {
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

/** A client on the role's session: whatever the request sets lands in the copy, not in the role's client. */
export function copyOf(client: TestClient): TestClient {
  return TestClient.withSession(client.baseUrl, client.sessionToken());
}
