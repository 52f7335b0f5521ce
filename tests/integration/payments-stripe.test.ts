import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TestClient } from '../support/http-client';
import {
  applyTo,
  createPayoutAccount,
  gigDoc,
  isoDay,
  offerAndAccept,
  person,
  pullAll,
  signUpWithProfile,
  write,
} from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { signedEvent, startStripeMock, type StripeMock } from '../support/stripe-mock';

/**
 * Payments through the Stripe provider, against a local Stripe-compatible server
 * (docs/architecture.md "Payments" and the decisions on PENDING_PAYMENT and Mark as Complete).
 */

const WEBHOOK_SECRET = 'whsec_test_secret';
const CONNECT_WEBHOOK_SECRET = 'whsec_test_connect_secret';
let stripe: StripeMock;
let server: TestServer;

beforeAll(async () => {
  stripe = await startStripeMock();
  // The platform country is the default (CA).
  server = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_payments',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    LOG_LEVEL: 'silent',
  });
});
afterAll(async () => {
  await server.cleanup();
  await stripe.close();
});

type Doc = Record<string, unknown>;

/** A buyer's gig, a seller whose offer of `finalBudget` is accepted, and a stranger. */
async function scene(finalBudget = 45000, gig: Doc = {}) {
  const buyer = await person(server.url, { name: 'Bea Buyer' });
  const gigMaster = (await write(buyer.http, 'gigs', gigDoc({ title: 'Poster design', ...gig }))).master!;
  const seller = await person(server.url, { name: 'Sam Seller' });
  const accepted = await offerAndAccept(
    buyer.http,
    seller.http,
    await applyTo(seller, gigMaster.id as string),
    finalBudget,
  );
  const stranger = await person(server.url, { name: 'Stan Stranger' });
  const applicationId = accepted.id as string;
  const gigId = gigMaster.id as string;
  return {
    buyer: buyer.http,
    buyerUser: buyer.user,
    seller: seller.http,
    sellerUser: seller.user,
    stranger: stranger.http,
    strangerUser: stranger.user,
    gig: gigMaster,
    gigId,
    application: accepted,
    applicationId,
  };
}
type Scene = Awaited<ReturnType<typeof scene>>;

const stored = (applicationId: string) => server.ctx.store.get('applications', applicationId)!;
const ledgerDoc = (id: string) => server.ctx.store.get('ledger', id);
const notificationsOf = async (client: TestClient) => (await pullAll(client, 'notifications')).documents;
const transfersFor = (applicationId: string) =>
  stripe.calls('/v1/transfers').filter((r) => r.body.transfer_group === applicationId);

async function checkout(s: Scene) {
  const res = await s.buyer.post<{ url: string; sessionId: string; error?: string }>('/api/payments/checkout', {
    applicationId: s.applicationId,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function payAndConfirm(s: Scene) {
  const { sessionId } = await checkout(s);
  const { chargeId } = stripe.markPaid(sessionId);
  const res = await s.buyer.post('/api/payments/confirm', { applicationId: s.applicationId, sessionId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { sessionId, chargeId, confirmation: res.body };
}

async function connect(client: TestClient, userId: string, email: string) {
  const res = await createPayoutAccount(client, { id: userId, email }, 'evil.example');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function webhook(body: string, signature?: string, path = '/api/stripe/webhook', url = server.url) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body,
  });
  return { status: res.status, body: (await res.json()) as Doc };
}

const connectWebhook = (body: string, signature?: string) => webhook(body, signature, '/api/stripe/connect-webhook');

const complete = (s: Scene, client = s.buyer, userId = s.buyerUser.id) =>
  client.post<{ success: boolean; error?: string; payout?: string; amount?: number }>('/api/gigs/complete-gig', {
    gigId: s.gigId,
    applicationId: s.applicationId,
    userId,
    userType: 'buyer',
  });

describe('payout account (POST /api/stripe/create-connect-account, GET /api/stripe/account-status)', () => {
  it('creates an Express account with an idempotency key, stores its id on the user, and answers an onboarding link', async () => {
    const s = await scene();
    expect((await s.seller.get('/api/stripe/account-status')).body).toMatchObject({ state: 'none', accountId: null });

    const { accountId, accountLink } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    const [create] = stripe.calls('/v1/accounts').filter((r) => (r.body.metadata as Doc)?.userId === s.sellerUser.id);
    expect(create!.body).toMatchObject({
      type: 'express',
      email: s.sellerUser.email,
      capabilities: { transfers: { requested: 'true' } },
    });
    expect(create!.idempotencyKey).toBe(`user:${s.sellerUser.id}:connect-account`);
    const link = stripe
      .calls('/v1/account_links')
      .filter((r) => r.body.account === accountId)
      .at(-1)!;
    // The client's hostname is never used for redirects: the server's own origin is.
    expect(link.body).toEqual({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: `${server.url}/api/stripe/account-link/refresh`,
      return_url: `${server.url}/settings`,
    });
    expect(link.idempotencyKey).toMatch(new RegExp(`^account:${accountId}:link:`));
    expect(accountLink).toMatch(/^https:\/\/connect\.stripe\.mock\//);
    expect(server.ctx.store.get('users', s.sellerUser.id)).toMatchObject({
      stripeAccountId: accountId,
      payoutStatus: 'pending',
    });

    // A second click reuses the account.
    expect((await connect(s.seller, s.sellerUser.id, s.sellerUser.email)).accountId).toBe(accountId);
    expect(
      stripe.calls('/v1/accounts').filter((r) => (r.body.metadata as Doc)?.userId === s.sellerUser.id),
    ).toHaveLength(1);

    expect((await s.seller.get('/api/stripe/account-status')).body).toMatchObject({ state: 'details_due', accountId });
    stripe.enableAccount(accountId);
    expect((await s.seller.get('/api/stripe/account-status')).body).toMatchObject({ state: 'connected', accountId });
    expect(server.ctx.store.get('users', s.sellerUser.id)).toMatchObject({ payoutStatus: 'active' });
  });

  it('is only for the signed-in user; a client cannot write stripeAccountId itself', async () => {
    const s = await scene();
    const other = await s.stranger.post('/api/stripe/create-connect-account', {
      email: s.sellerUser.email,
      userId: s.sellerUser.id,
      hostname: 'x',
    });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: 'Payout setup is only for the logged-in user.' });
    const anon = new TestClient(server.url);
    expect(
      (await anon.post('/api/stripe/create-connect-account', { email: 'a@b.co', userId: s.sellerUser.id })).status,
    ).toBe(401);
    expect((await anon.get('/api/stripe/account-status')).status).toBe(401);

    const own = (await pullAll(s.stranger, 'users')).documents.find((u) => u.id === s.strangerUser.id)!;
    await write(s.stranger, 'users', { ...own, stripeAccountId: 'acct_forged' }, own);
    expect(server.ctx.store.get('users', s.strangerUser.id)!.stripeAccountId).toBeUndefined();
  });

  it('sends the user’s country: full service agreement at home (CA), the recipient agreement for cross-border payouts', async () => {
    for (const [location, agreement] of [
      ['CA', undefined],
      ['GB', 'recipient'],
      ['US', 'recipient'],
      ['FR', 'recipient'],
    ] as const) {
      const client = new TestClient(server.url);
      const user = await signUpWithProfile(client, { location });
      await connect(client, user.id, user.email);
      const req = stripe.calls('/v1/accounts').find((r) => (r.body.metadata as Doc)?.userId === user.id)!;
      expect(req.body.country).toBe(location);
      expect((req.body.tos_acceptance as Doc | undefined)?.service_agreement, location).toBe(agreement);
      expect(req.body.capabilities).toEqual({ transfers: { requested: 'true' } });
    }
  });

  it('refuses, with a clear error and no Stripe request, a country Stripe cannot pay out to (Nigeria)', async () => {
    const client = new TestClient(server.url);
    const user = await signUpWithProfile(client, { location: 'NG' });
    const res = await createPayoutAccount(client, user, 'localhost');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error:
        'Payouts to accounts in Nigeria are not available yet: our payment provider cannot send payouts there from this platform. Please contact support.',
    });
    expect(stripe.calls('/v1/accounts').filter((r) => (r.body.metadata as Doc)?.userId === user.id)).toHaveLength(0);
    expect(server.ctx.store.get('users', user.id)!.stripeAccountId).toBeUndefined();
    expect((await client.get('/api/stripe/account-status')).body).toMatchObject({ state: 'none' });
  });

  it('decides by the configured platform country (STRIPE_PLATFORM_COUNTRY=GB)', async () => {
    const uk = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_test_uk',
      STRIPE_PLATFORM_COUNTRY: 'GB',
      STRIPE_API_BASE: stripe.url,
      LOG_LEVEL: 'silent',
    });
    onTestFinished(() => uk.cleanup());
    for (const [location, agreement] of [
      ['GB', undefined],
      ['CA', 'recipient'],
    ] as const) {
      const client = new TestClient(uk.url);
      const user = await signUpWithProfile(client, { location });
      expect((await createPayoutAccount(client, user)).status).toBe(200);
      const req = stripe.calls('/v1/accounts').find((r) => (r.body.metadata as Doc)?.userId === user.id)!;
      expect((req.body.tos_acceptance as Doc | undefined)?.service_agreement, location).toBe(agreement);
    }
  });

  it('the refresh URL makes a fresh link behind login', async () => {
    const s = await scene();
    const { accountId } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    const fresh = await s.seller.get('/api/stripe/account-link/refresh');
    expect(fresh.status).toBe(303);
    expect(fresh.headers.get('location')).toContain(`/setup/e/${accountId}/`);
    const anon = await new TestClient(server.url).get('/api/stripe/account-link/refresh');
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe('/login');
  });
});

describe('checkout (POST /api/payments/checkout)', () => {
  it('charges the final budget plus the 3% buyer fee as two lines in the gig currency, with ids and the transfer group', async () => {
    const s = await scene(45000);
    const { url, sessionId } = await checkout(s);
    const [req] = stripe
      .calls('/v1/checkout/sessions')
      .filter((r) => (r.body.metadata as Doc)?.applicationId === s.applicationId);
    expect(url).toBe(`https://checkout.stripe.mock/c/pay/${sessionId}`);
    expect(req!.idempotencyKey).toBe(`application:${s.applicationId}:checkout:0`);
    expect(req!.body).toMatchObject({
      mode: 'payment',
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'cad', unit_amount: '45000', product_data: { name: 'Poster design' } },
        },
        {
          quantity: '1',
          price_data: { currency: 'cad', unit_amount: '1350', product_data: { name: 'Service fee (3%)' } },
        },
      ],
      metadata: {
        applicationId: s.applicationId,
        gigId: s.gigId,
        buyerId: s.buyerUser.id,
        freelancerId: s.sellerUser.id,
        base: '45000',
        fee: '1350',
      },
      payment_intent_data: { transfer_group: s.applicationId },
      cancel_url: `${server.url}/basket`,
    });
    const success = new URL(String(req!.body.success_url).replace('{CHECKOUT_SESSION_ID}', 'cs_x'));
    expect(success.origin + success.pathname).toBe(`${server.url}/payment/success`);
    expect(Object.fromEntries(success.searchParams)).toEqual({
      gigId: s.gigId,
      applicationId: s.applicationId,
      amount: '463.50',
      title: 'Poster design',
      currency: 'CAD',
      session_id: 'cs_x',
    });
    expect(String(req!.body.success_url)).toContain('session_id={CHECKOUT_SESSION_ID}');
    expect(ledgerDoc(`checkout:${sessionId}`)).toMatchObject({
      kind: 'checkout',
      base: 45000,
      fee: 1350,
      total: 46350,
      currency: 'CAD',
      status: 'open',
    });

    // A double click reuses the open session: no second session, no second charge possible.
    expect((await checkout(s)).sessionId).toBe(sessionId);
    expect(
      stripe.calls('/v1/checkout/sessions').filter((r) => (r.body.metadata as Doc)?.applicationId === s.applicationId),
    ).toHaveLength(1);
  });

  it.each([
    ['GB', 'gbp', 12345, 370],
    ['NG', 'ngn', 1_000_000, 30_000],
    ['FR', 'eur', 17, 1],
  ])('an in-person gig in %s is charged in %s (base %i, fee %i)', async (country, currency, base, fee) => {
    const s = await scene(base, {
      locationType: 'in-person',
      country,
      city: 'Somewhere',
      projectDate: isoDay(10),
      projectDeadline: undefined,
    });
    await checkout(s);
    const req = stripe
      .calls('/v1/checkout/sessions')
      .find((r) => (r.body.metadata as Doc)?.applicationId === s.applicationId)!;
    const items = req.body.line_items as { price_data: { currency: string; unit_amount: string } }[];
    expect(items.map((i) => [i.price_data.currency, Number(i.price_data.unit_amount)])).toEqual([
      [currency, base],
      [currency, fee],
    ]);
  });

  it('nobody but the buyer checks out; only PENDING_PAYMENT; amounts from the client are refused', async () => {
    const s = await scene();
    expect((await s.seller.post('/api/payments/checkout', { applicationId: s.applicationId })).status).toBe(403);
    expect((await s.stranger.post('/api/payments/checkout', { applicationId: s.applicationId })).body).toEqual({
      error: 'Application not found',
    });
    expect(
      (await new TestClient(server.url).post('/api/payments/checkout', { applicationId: s.applicationId })).status,
    ).toBe(401);
    const withAmount = await s.buyer.post('/api/payments/checkout', { applicationId: s.applicationId, amount: 1 });
    expect(withAmount.status).toBe(400);
    expect(
      stripe.calls('/v1/checkout/sessions').filter((r) => (r.body.metadata as Doc)?.applicationId === s.applicationId),
    ).toHaveLength(0);
  });

  it('a session found paid is confirmed instead of charging again; an expired one is replaced under the next key', async () => {
    const paid = await scene();
    const first = await checkout(paid);
    stripe.markPaid(first.sessionId);
    const again = await checkout(paid);
    expect(again.sessionId).toBe(first.sessionId);
    expect(again.url).toMatch(new RegExp(`^${server.url}/payment/success\\?.*&session_id=${first.sessionId}$`));
    expect(stored(paid.applicationId).status).toBe('IN_PROGRESS');

    const expired = await scene();
    const old = await checkout(expired);
    stripe.sessions.get(old.sessionId)!.status = 'expired';
    const fresh = await checkout(expired);
    expect(fresh.sessionId).not.toBe(old.sessionId);
    expect(ledgerDoc(`checkout:${old.sessionId}`)).toMatchObject({ status: 'expired' });
    const keys = stripe
      .calls('/v1/checkout/sessions')
      .filter((r) => (r.body.metadata as Doc)?.applicationId === expired.applicationId)
      .map((r) => r.idempotencyKey);
    expect(keys).toEqual([
      `application:${expired.applicationId}:checkout:0`,
      `application:${expired.applicationId}:checkout:1`,
    ]);
  });

  it('replication cannot move PENDING_PAYMENT to IN_PROGRESS: only a confirmed payment can', async () => {
    const s = await scene();
    for (const client of [s.buyer, s.seller]) {
      const res = await write(
        client,
        'applications',
        { ...s.application, status: 'IN_PROGRESS', paymentConfirmedAt: Date.now() },
        s.application,
      );
      expect(res.refusal).toBeDefined();
    }
    expect(stored(s.applicationId).status).toBe('PENDING_PAYMENT');
  });
});

describe('confirmation (POST /api/payments/confirm)', () => {
  it('refuses an unpaid session with the docs/product.md §8 message and leaves the status', async () => {
    const s = await scene();
    const { sessionId } = await checkout(s);
    const res = await s.buyer.post('/api/payments/confirm', { applicationId: s.applicationId, sessionId });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: 'Failed to update payment status. Please contact support.' });
    expect(stored(s.applicationId).status).toBe('PENDING_PAYMENT');
  });

  it('refuses a paid session that belongs to another application, and missing information', async () => {
    const a = await scene();
    const b = await scene();
    const { sessionId: otherSession } = await checkout(b);
    stripe.markPaid(otherSession);
    await checkout(a);
    const res = await a.buyer.post('/api/payments/confirm', {
      applicationId: a.applicationId,
      sessionId: otherSession,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Failed to update payment status. Please contact support.' });
    expect(stored(a.applicationId).status).toBe('PENDING_PAYMENT');
    expect((await a.buyer.post('/api/payments/confirm', { applicationId: a.applicationId })).body).toEqual({
      error: 'Missing required payment information',
    });
    expect(
      (await a.buyer.post('/api/payments/confirm', { applicationId: 'nope.nope', sessionId: otherSession })).body,
    ).toEqual({ error: 'Application not found' });
    expect(
      (await a.stranger.post('/api/payments/confirm', { applicationId: a.applicationId, sessionId: otherSession }))
        .status,
    ).toBe(404);
  });

  it('a paid session moves PENDING_PAYMENT → IN_PROGRESS, tells the freelancer, records charge and fee; a reload gets the same answer', async () => {
    const s = await scene(45000);
    const { sessionId, chargeId, confirmation } = await payAndConfirm(s);
    expect(confirmation).toMatchObject({
      confirmed: true,
      applicationId: s.applicationId,
      sessionId,
      status: 'IN_PROGRESS',
      amount: 46350,
      base: 45000,
      fee: 1350,
      currency: 'CAD',
    });
    const app = stored(s.applicationId);
    expect(app.status).toBe('IN_PROGRESS');
    expect(app.paymentConfirmedAt).toBe(confirmation.paymentConfirmedAt);
    expect(app.startedAt).toBe(confirmation.paymentConfirmedAt);
    expect(await notificationsOf(s.seller)).toContainEqual(
      expect.objectContaining({
        type: 'PAYMENT_CONFIRMED',
        applicationId: s.applicationId,
        amount: 45000,
        currency: 'CAD',
      }),
    );
    expect(ledgerDoc(`charge:${s.applicationId}`)).toMatchObject({
      kind: 'charge',
      sessionId,
      chargeId,
      amount: 46350,
      base: 45000,
      currency: 'CAD',
      confirmedBy: 'confirm',
    });
    expect(ledgerDoc(`buyer-fee:${s.applicationId}`)).toMatchObject({
      kind: 'buyer_fee',
      amount: 1350,
      currency: 'CAD',
    });
    expect(ledgerDoc(`checkout:${sessionId}`)).toMatchObject({ status: 'paid' });

    const again = await s.buyer.post('/api/payments/confirm', { applicationId: s.applicationId, sessionId });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(confirmation);
    expect((await notificationsOf(s.seller)).filter((n) => n.type === 'PAYMENT_CONFIRMED')).toHaveLength(1);
    // No second session once paid.
    expect((await s.buyer.post('/api/payments/checkout', { applicationId: s.applicationId })).body).toEqual({
      error: 'Invalid application status',
    });
  });
});

describe('webhook (POST /api/stripe/webhook)', () => {
  it('checkout.session.completed with a valid signature confirms like /confirm; the same event id twice is processed once', async () => {
    const s = await scene();
    const { sessionId } = await checkout(s);
    stripe.markPaid(sessionId);
    const event = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      metadata: { applicationId: s.applicationId },
    });
    const first = await webhook(event.body, event.signature);
    expect(first).toEqual({ status: 200, body: { received: true, outcome: 'processed' } });
    expect(stored(s.applicationId).status).toBe('IN_PROGRESS');
    expect(ledgerDoc(`charge:${s.applicationId}`)).toMatchObject({ confirmedBy: 'webhook' });

    const replay = await webhook(event.body, event.signature);
    expect(replay).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    expect((await notificationsOf(s.seller)).filter((n) => n.type === 'PAYMENT_CONFIRMED')).toHaveLength(1);

    // The success page loading afterwards gets the confirmation, not an error.
    const page = await s.buyer.post('/api/payments/confirm', { applicationId: s.applicationId, sessionId });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ sessionId, status: 'IN_PROGRESS' });
  });

  it('refuses a forged signature, a missing one, a tampered body and one older than the tolerance', async () => {
    const s = await scene();
    const { sessionId } = await checkout(s);
    stripe.markPaid(sessionId);
    const object = { id: sessionId, object: 'checkout.session', metadata: { applicationId: s.applicationId } };
    const forged = signedEvent('whsec_not_ours', 'checkout.session.completed', object);
    expect((await webhook(forged.body, forged.signature)).status).toBe(400);
    expect((await webhook(forged.body)).status).toBe(400);
    const genuine = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', object);
    expect(
      (await webhook(genuine.body.replace('checkout.session.completed', 'account.updated'), genuine.signature)).status,
    ).toBe(400);
    const old = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', object, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect((await webhook(old.body, old.signature)).status).toBe(400);
    expect(stored(s.applicationId).status).toBe('PENDING_PAYMENT');
  });

  it('acknowledges, without acting, an event for an unpaid session or of a type it does not use', async () => {
    const s = await scene();
    const { sessionId } = await checkout(s);
    const unpaid = signedEvent(WEBHOOK_SECRET, 'checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      metadata: { applicationId: s.applicationId },
    });
    expect(await webhook(unpaid.body, unpaid.signature)).toEqual({
      status: 200,
      body: { received: true, outcome: 'ignored' },
    });
    expect(stored(s.applicationId).status).toBe('PENDING_PAYMENT');
    const other = signedEvent(WEBHOOK_SECRET, 'charge.refunded', { id: 'ch_1', object: 'charge' });
    expect((await webhook(other.body, other.signature)).body).toEqual({ received: true, outcome: 'ignored' });
  });
});

describe('Connect webhook (POST /api/stripe/connect-webhook): events on connected accounts', () => {
  /** A seller with a payout account that Stripe has just finished onboarding. */
  async function onboarded() {
    const client = new TestClient(server.url);
    const user = await signUpWithProfile(client);
    const { accountId } = await connect(client, user.id, user.email);
    expect(server.ctx.store.get('users', user.id)).toMatchObject({ payoutStatus: 'pending' });
    stripe.enableAccount(accountId);
    return { user, accountId };
  }

  it('an account.updated signed with the Connect secret is accepted and updates the account', async () => {
    const { user, accountId } = await onboarded();
    const event = signedEvent(
      CONNECT_WEBHOOK_SECRET,
      'account.updated',
      { id: accountId, object: 'account' },
      { account: accountId },
    );
    expect(await connectWebhook(event.body, event.signature)).toEqual({
      status: 200,
      body: { received: true, outcome: 'processed' },
    });
    expect(server.ctx.store.get('users', user.id)).toMatchObject({ payoutStatus: 'active' });
    expect(await connectWebhook(event.body, event.signature)).toEqual({
      status: 200,
      body: { received: true, outcome: 'duplicate' },
    });
  });

  it('the same event signed with the platform secret only is refused at the Connect endpoint, and not acted on at the platform one', async () => {
    const { user, accountId } = await onboarded();
    const object = { id: accountId, object: 'account' };
    const platformSigned = signedEvent(WEBHOOK_SECRET, 'account.updated', object, { account: accountId });
    expect((await connectWebhook(platformSigned.body, platformSigned.signature)).status).toBe(400);
    expect(await webhook(platformSigned.body, platformSigned.signature)).toEqual({
      status: 200,
      body: { received: true, outcome: 'ignored' },
    });
    expect(server.ctx.store.get('users', user.id)).toMatchObject({ payoutStatus: 'pending' });
    // Nor does the Connect secret open the platform endpoint.
    const connectSigned = signedEvent(CONNECT_WEBHOOK_SECRET, 'account.updated', object, { account: accountId });
    expect((await webhook(connectSigned.body, connectSigned.signature)).status).toBe(400);
    expect(server.ctx.store.get('users', user.id)).toMatchObject({ payoutStatus: 'pending' });
  });

  it('acts only on what happened on the connected account it names; checkout events belong to the platform endpoint', async () => {
    const { user, accountId } = await onboarded();
    // An account.updated about another account than the event's own is not taken.
    const other = await onboarded();
    const mismatched = signedEvent(
      CONNECT_WEBHOOK_SECRET,
      'account.updated',
      { id: accountId, object: 'account' },
      { account: other.accountId },
    );
    expect((await connectWebhook(mismatched.body, mismatched.signature)).body).toEqual({
      received: true,
      outcome: 'ignored',
    });
    expect(server.ctx.store.get('users', user.id)).toMatchObject({ payoutStatus: 'pending' });
    // A platform event (no `account`) at the Connect endpoint is acknowledged, not acted on.
    const s = await scene();
    const { sessionId } = await checkout(s);
    stripe.markPaid(sessionId);
    const platformEvent = signedEvent(CONNECT_WEBHOOK_SECRET, 'checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      metadata: { applicationId: s.applicationId },
    });
    expect((await connectWebhook(platformEvent.body, platformEvent.signature)).body).toEqual({
      received: true,
      outcome: 'ignored',
    });
    expect(stored(s.applicationId).status).toBe('PENDING_PAYMENT');
  });

  it('does not exist without STRIPE_CONNECT_WEBHOOK_SECRET (404), like the platform endpoint without its secret', async () => {
    const bare = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_test_bare',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      LOG_LEVEL: 'silent',
    });
    onTestFinished(() => bare.cleanup());
    const event = signedEvent(
      CONNECT_WEBHOOK_SECRET,
      'account.updated',
      { id: 'acct_x', object: 'account' },
      { account: 'acct_x' },
    );
    expect((await webhook(event.body, event.signature, '/api/stripe/connect-webhook', bare.url)).status).toBe(404);
  });
});

describe('Mark as Complete (POST /api/gigs/complete-gig)', () => {
  it('transfers 90% of the base to the connected account from the charge, then COMPLETED and GIG_COMPLETED', async () => {
    const s = await scene(45000);
    const { accountId } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    stripe.enableAccount(accountId);
    const { chargeId } = await payAndConfirm(s);

    const res = await complete(s);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, payout: 'sent', amount: 40500 });
    const [transfer] = transfersFor(s.applicationId);
    expect(transfer!.body).toMatchObject({
      amount: '40500',
      currency: 'cad',
      destination: accountId,
      transfer_group: s.applicationId,
      source_transaction: chargeId,
    });
    expect(transfer!.idempotencyKey).toBe(`application:${s.applicationId}:transfer`);
    const app = stored(s.applicationId);
    expect(app.status).toBe('COMPLETED');
    expect(typeof app.completedAt).toBe('number');
    expect(await notificationsOf(s.seller)).toContainEqual(
      expect.objectContaining({ type: 'GIG_COMPLETED', applicationId: s.applicationId, amount: 40500 }),
    );
    expect(ledgerDoc(`transfer:${s.applicationId}`)).toMatchObject({
      kind: 'transfer',
      status: 'sent',
      amount: 40500,
      destination: accountId,
      sourceTransaction: chargeId,
    });
    expect(ledgerDoc(`platform-fee:${s.applicationId}`)).toMatchObject({
      kind: 'platform_fee',
      amount: 4500,
      currency: 'CAD',
    });
  });

  it('50 concurrent calls make exactly one transfer', async () => {
    const s = await scene(99999);
    const { accountId } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    stripe.enableAccount(accountId);
    await payAndConfirm(s);
    const answers = await Promise.all(Array.from({ length: 50 }, () => complete(s)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.every((a) => a.body.success === true)).toBe(true);
    expect(transfersFor(s.applicationId)).toHaveLength(1);
    expect(stripe.transfers.filter((t) => t.transfer_group === s.applicationId).map((t) => t.amount)).toEqual([89999]);
    expect((await notificationsOf(s.seller)).filter((n) => n.type === 'GIG_COMPLETED')).toHaveLength(1);
  });

  it('without a payout account: completes, holds the payout, tells the freelancer; account.updated releases it once', async () => {
    const s = await scene(10000);
    const { chargeId } = await payAndConfirm(s);
    const res = await complete(s);
    expect(res.body).toEqual({ success: true, payout: 'held', amount: 9000 });
    expect(stored(s.applicationId).status).toBe('COMPLETED');
    expect(transfersFor(s.applicationId)).toHaveLength(0);
    expect(ledgerDoc(`transfer:${s.applicationId}`)).toMatchObject({
      status: 'held',
      amount: 9000,
      sourceTransaction: chargeId,
    });
    const note = (await notificationsOf(s.seller)).find((n) => n.type === 'GIG_COMPLETED')!;
    expect(note.message).toContain('Set up payouts in Settings');

    const { accountId } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    const pending = signedEvent(
      CONNECT_WEBHOOK_SECRET,
      'account.updated',
      { id: accountId, object: 'account' },
      { account: accountId },
    );
    expect((await connectWebhook(pending.body, pending.signature)).body).toMatchObject({ outcome: 'processed' });
    expect(transfersFor(s.applicationId)).toHaveLength(0);

    stripe.enableAccount(accountId);
    const ready = signedEvent(
      CONNECT_WEBHOOK_SECRET,
      'account.updated',
      { id: accountId, object: 'account' },
      { account: accountId },
    );
    expect((await connectWebhook(ready.body, ready.signature)).status).toBe(200);
    const [transfer] = transfersFor(s.applicationId);
    expect(transfer!.body).toMatchObject({
      amount: '9000',
      currency: 'cad',
      destination: accountId,
      source_transaction: chargeId,
    });
    expect(transfer!.idempotencyKey).toBe(`application:${s.applicationId}:transfer`);
    expect(ledgerDoc(`transfer:${s.applicationId}`)).toMatchObject({ status: 'sent', destination: accountId });
    expect(server.ctx.store.get('users', s.sellerUser.id)).toMatchObject({ payoutStatus: 'active' });
    expect(await notificationsOf(s.seller)).toContainEqual(
      expect.objectContaining({ message: 'Your payout for "Poster design" is on its way.' }),
    );

    const again = signedEvent(
      CONNECT_WEBHOOK_SECRET,
      'account.updated',
      { id: accountId, object: 'account' },
      { account: accountId },
    );
    await connectWebhook(again.body, again.signature);
    expect((await s.seller.get('/api/stripe/account-status')).body).toMatchObject({ state: 'connected', released: 0 });
    expect(transfersFor(s.applicationId)).toHaveLength(1);
  });

  it('a held payout is also released when the freelancer checks their payout status', async () => {
    const s = await scene(2000);
    const { accountId } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    await payAndConfirm(s);
    expect((await complete(s)).body).toMatchObject({ success: true, payout: 'held' });
    stripe.enableAccount(accountId);
    expect((await s.seller.get('/api/stripe/account-status')).body).toEqual({
      state: 'connected',
      accountId,
      released: 1,
    });
    expect(transfersFor(s.applicationId).map((t) => t.body.amount)).toEqual(['1800']);
  });

  it('a transfer the provider refuses leaves the work in progress; the retry uses a new key and pays once', async () => {
    const s = await scene(30000);
    const { accountId } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    stripe.enableAccount(accountId);
    await payAndConfirm(s);
    stripe.failTransfers(1);
    const failed = await complete(s);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ success: false, error: 'Payment transfer was not successful' });
    expect(stored(s.applicationId).status).toBe('IN_PROGRESS');
    const retry = await complete(s);
    expect(retry.body).toEqual({ success: true, payout: 'sent', amount: 27000 });
    expect(transfersFor(s.applicationId).map((t) => t.idempotencyKey)).toEqual([
      `application:${s.applicationId}:transfer`,
      `application:${s.applicationId}:transfer:retry-1`,
    ]);
    expect(stripe.transfers.filter((t) => t.transfer_group === s.applicationId)).toHaveLength(1);
  });

  it('nobody but the gig’s buyer completes, only paid work in progress, and userId must be the signed-in user', async () => {
    const s = await scene();
    const unpaid = await complete(s);
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.success).toBe(false);
    await payAndConfirm(s);
    const bySeller = await complete(s, s.seller, s.sellerUser.id);
    expect(bySeller.status).toBe(403);
    expect(bySeller.body).toEqual({ success: false, error: 'Only the buyer of this gig can mark the work complete.' });
    expect((await complete(s, s.stranger, s.strangerUser.id)).status).toBe(404);
    expect((await complete(s, s.stranger, s.buyerUser.id)).status).toBe(403);
    expect((await complete(s, new TestClient(server.url))).status).toBe(401);
    const wrongType = await s.buyer.post('/api/gigs/complete-gig', {
      gigId: s.gigId,
      applicationId: s.applicationId,
      userId: s.buyerUser.id,
      userType: 'seller',
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.success).toBe(false);
    expect(stored(s.applicationId).status).toBe('IN_PROGRESS');
    expect(transfersFor(s.applicationId)).toHaveLength(0);
  });

  it('zero budget: there is nothing to check out, and completing makes no transfer', async () => {
    const s = await scene(0);
    expect(stored(s.applicationId).status).toBe('IN_PROGRESS');
    const pay = await s.buyer.post('/api/payments/checkout', { applicationId: s.applicationId });
    expect(pay.status).toBe(409);
    expect(pay.body).toEqual({ error: 'Invalid application status' });
    const { accountId } = await connect(s.seller, s.sellerUser.id, s.sellerUser.email);
    stripe.enableAccount(accountId);
    expect((await complete(s)).body).toEqual({ success: true, payout: 'none', amount: 0 });
    expect(stored(s.applicationId).status).toBe('COMPLETED');
    expect(
      stripe.calls('/v1/checkout/sessions').filter((r) => (r.body.metadata as Doc)?.applicationId === s.applicationId),
    ).toHaveLength(0);
    expect(transfersFor(s.applicationId)).toHaveLength(0);
    expect(ledgerDoc(`transfer:${s.applicationId}`)).toBeUndefined();
  });
});
