import { gigDoc, PASSWORD, randomId, uniqueEmail } from '../../fixtures';
import { TestClient } from '../../http-client';
import { idOf, secondSession, stored, type Doc, type Member } from '../world';
import { Action, allowed, copyOf, denied, http, selfOf } from '../cells';

/** The matrix's cells for HTTP: public, auth and waitlist routes. */
export const HTTP_ACTIONS: Action[] = [
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
    name: 'GET /api/auth/me',
    run: async (w, r) =>
      http(await w.clients[r].get<{ user?: Doc | null }>('/api/auth/me'), (res) => {
        const user = (res.body as { user?: Doc | null }).user;
        return res.status === 200 && (r === 'visitor' ? user === null : user?.id === idOf(w, selfOf(r)));
      }),
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
];
