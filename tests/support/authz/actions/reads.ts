import { isAcceptedOffer } from '../../../../shared/constants';
import { REPLICATED } from '../../../../shared/sync/protocol';
import { push, uniqueEmail } from '../../fixtures';
import { openStream } from '../../sse';
import { idOf } from '../world';
import {
  acceptedOffer,
  Action,
  allowed,
  denied,
  http,
  otherSidesEmail,
  PRIVATE_USER_FIELDS,
  pullEverything,
  sees,
  selfOf,
  streamed,
} from '../cells';

/** The matrix's cells for the replication endpoints, what each role's pull and change stream show. */
export const READS_ACTIONS: Action[] = [
  // --- Replication endpoints ------------------------------------------------------------------
  ...REPLICATED.map((c): Action => ({
    name: `GET /api/sync/${c}/pull`,
    run: async (w, r) => http(await w.clients[r].get(`/api/sync/${c}/pull?seq=0&limit=1`), (res) => res.status === 200),
  })),
  // Collections that never leave the server (password hashes, sessions, the payment ledger, the waitlist).
  ...(['credentials', 'sessions', 'ledger', 'waitlist', 'portfolios', 'pushsubscriptions'] as const).map(
    (c): Action => ({
      name: `GET /api/sync/${c}/pull (server-only collection)`,
      run: async (w, r) =>
        http(await w.clients[r].get(`/api/sync/${c}/pull?seq=0&limit=1000`), (res) => res.status === 200),
    }),
  ),
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
];
