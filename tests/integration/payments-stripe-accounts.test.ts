import { describe, expect, it, onTestFinished } from 'vitest';
import { TestClient } from '../support/http-client';
import { createPayoutAccount, pullAll, signUpWithProfile, write } from '../support/fixtures';
import { signedEvent } from '../support/stripe-mock';
import { startTestServer } from '../support/in-process-server';
import {
  WEBHOOK_SECRET,
  CONNECT_WEBHOOK_SECRET,
  stripe,
  server,
  scene,
  stored,
  checkout,
  connect,
  webhook,
  connectWebhook,
  type Doc,
  useStripeServer,
} from '../support/stripe-payments';

/**
 * Payments through the Stripe provider, against a local Stripe-compatible server
 * (docs/architecture.md "Payments" and the decisions on PENDING_PAYMENT and Mark as Complete): payout accounts and the Connect webhook.
 */

useStripeServer();

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
