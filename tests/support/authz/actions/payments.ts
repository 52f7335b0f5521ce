import type { StoredDoc } from '../../../../sync-server/store/store';
import { randomId } from '../../fixtures';
import { signedEvent } from '../../stripe-mock';
import { freshGig, idOf, openCheckout, stored } from '../world';
import {
  Action,
  allowed,
  completeBody,
  denied,
  http,
  onboardingPath,
  paidWork,
  pendingPayment,
  selfOf,
  stripeModeServer,
} from '../cells';

/** The matrix's cells for payments. */
export const PAYMENTS_ACTIONS: Action[] = [
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
];
