import { applicationIdFor, conversationIdFor } from '../../../shared/ids';
import type { Application } from '../../../shared/schemas/application';
import { startSettlement } from '../../../shared/work-machine';
import { ownUserView } from '../../../sync-server/auth/users';
import type { CollectionName } from '../../../sync-server/store/store';
import {
  accept,
  applyTo,
  createPayoutAccount,
  gigDoc,
  offer,
  PASSWORD,
  randomId,
  signUpWithProfile,
  uniqueEmail,
  write,
  type Person,
  type SignedUpUser,
} from '../fixtures';
import { TestClient } from '../http-client';
import { operatorPerson } from '../operators';
import type { TestServer } from '../in-process-server';
import { waitFor } from '../wait';
import { chatMessage, openChat, type ChatClient } from '../yjs-client';

/**
 * The people of the authorization matrix (issue 9). Roles are contextual (docs/product.md §6): they are
 * named after what they are to "the gig", a gig the buyer posted and two freelancers applied to.
 */
export const ROLES = ['visitor', 'stranger', 'buyer', 'applicant', 'otherApplicant', 'operator'] as const;
export type Role = (typeof ROLES)[number];
export type Member = Exclude<Role, 'visitor'>;
export const MEMBERS: readonly Member[] = ['stranger', 'buyer', 'applicant', 'otherApplicant', 'operator'];
/**
 * The operator (decision 031) is an account OPERATOR_EMAILS lists: to the gig a stranger, with the
 * operator area besides. The matrix's server is started with this email as its only operator.
 */
export const OPERATOR_EMAIL = 'authz-operator@example.com';

export type Doc = Record<string, unknown>;

export type World = {
  server: TestServer;
  /** The visitor's client has no session; every other role is signed in with a completed profile. */
  clients: Record<Role, TestClient>;
  users: Record<Member, SignedUpUser>;
  /** The buyer's gig; the applicant's and the other applicant's applications to it are PENDING. */
  gigId: string;
  appId: string;
  otherAppId: string;
  /** The buyer opened a conversation with the applicant (the applicant got new_conversation). */
  conversationId: string;
  /** Each member's simulated onboarding link (path), from connecting a payout account. */
  onboarding: Record<Member, string>;
  /** Run after the matrix (servers and sockets some cells start). */
  cleanups: (() => Promise<void> | void)[];
};

export const idOf = (w: World, role: Member): string => w.users[role].id;
const personOf = (w: Pick<World, 'clients' | 'users'>, role: Member): Person => ({
  http: w.clients[role],
  user: w.users[role],
});

/** The stored document as its owner's client holds it: what a pushing client would base a write on. */
export function stored(w: World, collection: CollectionName, id: string): Doc | undefined {
  const doc = w.server.ctx.store.get(collection, id);
  if (!doc) return undefined;
  if (collection === 'users') return { ...ownUserView(doc) };
  const { _seq: _s, _deleted: _d, ...rest } = doc;
  return rest;
}

export function mustStore(w: World, collection: CollectionName, id: string): Doc {
  const doc = stored(w, collection, id);
  if (!doc) throw new Error(`fixture: ${collection}/${id} is missing`);
  return doc;
}

/** A second session of the same user (login in a client of its own), so the role's own session survives. */
export async function secondSession(w: World, role: Member): Promise<TestClient> {
  const client = new TestClient(w.server.url);
  const res = await client.post('/api/auth/login', { email: w.users[role].email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`fixture: login of ${role} failed: ${res.status}`);
  return client;
}

async function ok(what: string, p: Promise<{ refusal?: string; master?: Doc }>): Promise<Doc> {
  const { refusal, master } = await p;
  if (refusal || !master) throw new Error(`fixture: ${what} refused: ${refusal ?? 'no master state'}`);
  return master;
}

/** Signs up the four members, posts the gig, applies twice, opens a conversation and connects payouts. */
export async function buildWorld(
  server: TestServer,
  /** `operatorEmail`: the operator's account (the matrix's world uses OPERATOR_EMAIL; other worlds a fresh one). */
  options: { conversation?: boolean; payouts?: boolean; operatorEmail?: string } = {},
): Promise<World> {
  const clients = Object.fromEntries(ROLES.map((r) => [r, new TestClient(server.url)])) as Record<Role, TestClient>;
  const names: Record<Member, string> = {
    stranger: 'Stan Stranger',
    buyer: 'Bea Buyer',
    applicant: 'Ada Applicant',
    otherApplicant: 'Otto Other',
    operator: 'Opal Operator',
  };
  // The operator as `npm run operator` makes one when the world has an operator email (the server
  // lists it in OPERATOR_EMAILS); otherwise a member like the others.
  const signed = await Promise.all(
    MEMBERS.map(async (m) =>
      m === 'operator' && options.operatorEmail
        ? (await operatorPerson(server, { name: names[m], email: options.operatorEmail }, clients[m])).user
        : signUpWithProfile(clients[m], {
            name: names[m],
            ...(m === 'operator' ? { email: uniqueEmail('operator') } : {}),
          }),
    ),
  );
  const users = Object.fromEntries(MEMBERS.map((m, i) => [m, signed[i]!])) as Record<Member, SignedUpUser>;
  const w: World = {
    server,
    clients,
    users,
    gigId: '',
    appId: '',
    otherAppId: '',
    conversationId: '',
    onboarding: {} as Record<Member, string>,
    cleanups: [],
  };

  const gig = await ok('gig', write(clients.buyer, 'gigs', gigDoc({ title: 'The gig' })));
  w.gigId = gig.id as string;
  w.appId = (await applyTo(personOf(w, 'applicant'), w.gigId)).id as string;
  w.otherAppId = (await applyTo(personOf(w, 'otherApplicant'), w.gigId)).id as string;
  w.conversationId = conversationIdFor(users.buyer.id, users.applicant.id);
  if (options.conversation !== false)
    await ok(
      'conversation',
      write(clients.buyer, 'conversations', {
        id: w.conversationId,
        participants: [users.buyer.id, users.applicant.id],
      }),
    );

  for (const m of options.payouts === false ? [] : MEMBERS) {
    const res = await createPayoutAccount(clients[m], users[m]);
    if (res.status !== 200)
      throw new Error(`fixture: payout account of ${m}: ${res.status} ${JSON.stringify(res.body)}`);
    w.onboarding[m] = res.body.accountLink.slice(server.url.length);
  }
  return w;
}

export type AppState =
  | 'PENDING'
  | 'PENDING_ACCEPTANCE'
  | 'PENDING_PAYMENT'
  | 'IN_PROGRESS'
  | 'IN_PROGRESS_UNPAID'
  | 'REJECTED'
  | 'COMPLETED'
  // Issue 15 (decision 031).
  | 'DELIVERED'
  | 'CANCELLATION_REQUESTED'
  | 'DISPUTED'
  | 'SETTLEMENT_FAILED';

export type Fixture = { gigId: string; appId: string; otherAppId?: string; sessionId?: string };

/**
 * A fresh gig of the buyer, so a cell that changes something never sees another cell's change.
 * With `applications`, the applicant and the other applicant apply, and the applicant's
 * application is moved on to `state` by the people docs/product.md §4 says move it.
 */
export async function freshGig(w: World, state: AppState | 'none' = 'PENDING'): Promise<Fixture> {
  const { clients, users } = w;
  const gig = await ok('gig', write(clients.buyer, 'gigs', gigDoc({ title: `Gig ${randomId().slice(0, 6)}` })));
  const gigId = gig.id as string;
  if (state === 'none') return { gigId, appId: applicationIdFor(gigId, users.applicant.id) };
  let app = await applyTo(personOf(w, 'applicant'), gigId);
  const other = await applyTo(personOf(w, 'otherApplicant'), gigId);
  const f: Fixture = { gigId, appId: app.id as string, otherAppId: other.id as string };
  if (state === 'PENDING') return f;
  const finalBudget = state === 'IN_PROGRESS_UNPAID' ? 0 : 45000;
  app = await offer(clients.buyer, app, finalBudget);
  if (state === 'PENDING_ACCEPTANCE') return f;
  if (state === 'REJECTED') {
    await ok('decline', write(clients.applicant, 'applications', { ...app, status: 'REJECTED' }, app));
    return f;
  }
  // Start Working: PENDING_PAYMENT when there is money to pay, IN_PROGRESS at once otherwise.
  app = await accept(clients.applicant, app);
  if (state === 'PENDING_PAYMENT' || state === 'IN_PROGRESS_UNPAID') return f;
  const checkout = await clients.buyer.post<{ sessionId: string }>('/api/payments/checkout', {
    applicationId: f.appId,
  });
  if (checkout.status !== 200) throw new Error(`fixture: checkout ${checkout.status} ${JSON.stringify(checkout.body)}`);
  f.sessionId = checkout.body.sessionId;
  const paid = await clients.buyer.post(`/api/payments/simulated/checkout/${f.sessionId}/pay`, {});
  if (paid.status !== 200) throw new Error(`fixture: pay ${paid.status} ${JSON.stringify(paid.body)}`);
  if (state === 'IN_PROGRESS') return f;
  const inProgress = mustStore(w, 'applications', f.appId);
  if (state === 'CANCELLATION_REQUESTED') {
    await ok(
      'cancellation request',
      write(
        clients.buyer,
        'applications',
        { ...inProgress, status: 'CANCELLATION_REQUESTED', cancellation: { requestedAt: 1 } },
        inProgress,
      ),
    );
    return f;
  }
  if (state === 'SETTLEMENT_FAILED') {
    // A refund the provider refused (the simulated provider never refuses one): written as the server would.
    const app = w.server.ctx.store.get('applications', f.appId)!;
    const failed = startSettlement(app as Application, 'refund', 'freelancer', 0, Date.now());
    await w.server.ctx.store.commit([
      {
        collection: 'applications',
        doc: {
          ...app,
          ...failed,
          status: 'SETTLEMENT_FAILED',
          settlement: { ...failed.settlement!, failure: 'Refused by the provider' },
          updatedAt: app.updatedAt + 1,
        },
      },
    ]);
    return f;
  }
  if (state === 'DELIVERED' || state === 'DISPUTED') {
    const delivered = await ok(
      'delivery',
      write(
        clients.applicant,
        'applications',
        { ...inProgress, status: 'DELIVERED', submissions: [{ note: 'Done', submittedAt: 1 }] },
        inProgress,
      ),
    );
    if (state === 'DELIVERED') return f;
    await ok(
      'dispute',
      write(
        clients.buyer,
        'applications',
        { ...delivered, status: 'DISPUTED', dispute: { by: 'buyer', reason: 'Not as agreed', openedAt: 1 } },
        delivered,
      ),
    );
    return f;
  }
  const done = await clients.buyer.post('/api/gigs/complete-gig', {
    gigId,
    applicationId: f.appId,
    userId: users.buyer.id,
    userType: 'buyer',
  });
  if (done.status !== 200) throw new Error(`fixture: complete ${done.status} ${JSON.stringify(done.body)}`);
  return f;
}

/** A checkout session the buyer opened for a PENDING_PAYMENT application, not paid. */
export async function openCheckout(w: World): Promise<Fixture> {
  const f = await freshGig(w, 'PENDING_PAYMENT');
  const checkout = await w.clients.buyer.post<{ sessionId: string }>('/api/payments/checkout', {
    applicationId: f.appId,
  });
  if (checkout.status !== 200) throw new Error(`fixture: checkout ${checkout.status} ${JSON.stringify(checkout.body)}`);
  return { ...f, sessionId: checkout.body.sessionId };
}

/** Memoizes one async fixture per world (shared by the cells that only read it). */
export function once<T>(make: (w: World) => Promise<T>): (w: World) => Promise<T> {
  const cache = new WeakMap<World, Promise<T>>();
  return (w) => {
    let p = cache.get(w);
    if (!p) {
      p = make(w);
      cache.set(w, p);
    }
    return p;
  };
}

/** The applicant's chat client in the buyer–applicant room, kept open to make the conversation unread on demand. */
export const applicantChat = once(async (w: World): Promise<ChatClient> => {
  const chat = openChat(w.clients.applicant, w.conversationId);
  w.cleanups.push(() => chat.destroy());
  await chat.synced();
  return chat;
});

/** The applicant sends a message: the conversation's last sender is the applicant and it is unread. */
export async function applicantSendsMessage(w: World): Promise<Doc> {
  const chat = await applicantChat(w);
  const message = chatMessage(idOf(w, 'applicant'), idOf(w, 'buyer'), `hello ${randomId()}`);
  chat.send(message);
  return waitFor('the conversation shows the applicant’s message as unread', () => {
    const conv = stored(w, 'conversations', w.conversationId);
    return conv && conv.lastMessage === message.content && conv.lastMessageRead === false ? conv : undefined;
  });
}
