import { REPLICATED } from '../../../sync-server/replication/visibility';
import { uniqueEmail, PASSWORD } from '../fixtures';
import { hostileRows, hostileString, encodePart, randomText, type EndpointSpec, type Rng } from '../hostile';
import { suite } from './world';

// The endpoints
import { rowContexts } from './rows';
import { badCollectionPath, badQuery, pushDevice } from './specs-common';

export function specs(): EndpointSpec[] {
  const { w } = suite;
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
