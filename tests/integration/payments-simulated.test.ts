import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { applyTo, createPayoutAccount, gigDoc, offerAndAccept, person, pullAll, write } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';
import type { StoredDoc } from '../../sync-server/store/store';

/**
 * The default payments provider (no STRIPE_SECRET_KEY): the whole flow over HTTP, with the local
 * pages that stand in for Stripe's onboarding and Checkout (docs/architecture.md "Payments").
 */

const NOTICE = 'Payments are simulated — no real money moves.';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await server.cleanup();
});

async function scene(finalBudget = 45000) {
  const buyer = await person(server.url, { name: 'Bea Buyer' });
  const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Poster <design>' }))).master!;
  const seller = await person(server.url, { name: 'Sam Seller' });
  const accepted = await offerAndAccept(buyer.http, seller.http, await applyTo(seller, gig.id as string), finalBudget);
  return {
    buyer: buyer.http,
    buyerUser: buyer.user,
    seller: seller.http,
    sellerUser: seller.user,
    gigId: gig.id as string,
    applicationId: accepted.id as string,
  };
}
type Scene = Awaited<ReturnType<typeof scene>>;

const stored = (applicationId: string) => server.ctx.store.get('applications', applicationId)!;
const path = (url: string) => url.slice(server.url.length);

/** Follows the simulated onboarding link and presses its button, as the page's script does. */
async function onboard(s: Scene) {
  const connect = await createPayoutAccount(s.seller, s.sellerUser);
  expect(connect.status).toBe(200);
  const { accountId, accountLink } = connect.body;
  expect(accountId).toMatch(/^acct_sim_/);
  expect(accountLink).toMatch(new RegExp(`^${server.url}/api/payments/simulated/onboarding/link_sim_`));
  const page = await s.seller.get<string>(path(accountLink));
  expect(page.status).toBe(200);
  expect(page.body).toContain(NOTICE);
  expect(page.body).toContain('Complete onboarding');
  const done = await s.seller.post<{ next: string }>(path(accountLink), {});
  expect(done.status).toBe(200);
  expect(done.body.next).toBe(`${server.url}/settings`);
  return accountId;
}

describe("the stand-in pages wear the app's look", () => {
  it("load the app's base stylesheet (its colours, font and buttons) from a file, keep the notice, and need no inline script", async () => {
    const s = await scene(10_000);
    const checkout = await s.buyer.post<{ url: string }>('/api/payments/checkout', { applicationId: s.applicationId });
    const connect = await createPayoutAccount(s.seller, s.sellerUser);
    for (const [http, url] of [
      [s.buyer, checkout.body.url],
      [s.seller, connect.body.accountLink],
    ] as const) {
      const page = await http.get<string>(path(url));
      expect(page.status).toBe(200);
      expect(page.body).toContain(NOTICE);
      expect(page.body).toContain('<link rel="stylesheet" href="/api/payments/simulated/page.css">');
      expect(page.body).toMatch(/<button type="button" class="button" data-action=/);
      expect(page.body).not.toMatch(/<script>|<style>|style="/);
    }
    const css = await s.buyer.get<string>('/api/payments/simulated/page.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/text\/css/);
    const base = readFileSync(new URL('../../client/styles/base.css', import.meta.url), 'utf8');
    expect(css.body.startsWith(base)).toBe(true);
    for (const rule of [/--brand:\s*#3b2f8f/, /font-family:\s*system-ui/, /\.button\s*\{/, /\.notice\s*\{/])
      expect(base).toMatch(rule);
  });
});

describe('simulated payments, end to end over HTTP', () => {
  it('connect account, checkout, simulated pay, confirm, complete', async () => {
    const s = await scene(45000);
    expect((await s.seller.get('/api/stripe/account-status')).body).toEqual({
      state: 'none',
      accountId: null,
      released: 0,
    });
    const accountId = await onboard(s);
    expect((await s.seller.get('/api/stripe/account-status')).body).toEqual({
      state: 'connected',
      accountId,
      released: 0,
    });
    expect(server.ctx.store.get('users', s.sellerUser.id)).toMatchObject({
      stripeAccountId: accountId,
      payoutStatus: 'active',
    });

    const checkout = await s.buyer.post<{ url: string; sessionId: string }>('/api/payments/checkout', {
      applicationId: s.applicationId,
    });
    expect(checkout.status).toBe(200);
    const { url, sessionId } = checkout.body;
    expect(url).toBe(`${server.url}/api/payments/simulated/checkout/${sessionId}`);
    const page = await s.buyer.get<string>(path(url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain(NOTICE);
    expect(page.body).toContain('Poster &lt;design&gt;');
    expect(page.body).toContain('C$450.00');
    expect(page.body).toContain('C$13.50');
    expect(page.body).toContain('Pay C$463.50');
    // The content security policy allows no inline script: the button's script is a file.
    expect(page.body).not.toMatch(/<script>/);
    const script = await s.buyer.get<string>('/api/payments/simulated/page.js');
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.body).toContain("method: 'POST'");

    const early = await s.buyer.post('/api/payments/confirm', { applicationId: s.applicationId, sessionId });
    expect(early.status).toBe(402);
    expect(stored(s.applicationId).status).toBe('PENDING_PAYMENT');

    const paid = await s.buyer.post<{ next: string }>(`/api/payments/simulated/checkout/${sessionId}/pay`, {});
    expect(paid.status).toBe(200);
    const success = new URL(paid.body.next);
    expect(success.pathname).toBe('/payment/success');
    expect(Object.fromEntries(success.searchParams)).toEqual({
      gigId: s.gigId,
      applicationId: s.applicationId,
      amount: '463.50',
      title: 'Poster <design>',
      currency: 'CAD',
      session_id: sessionId,
    });
    // Paying started the work already (the simulated stand-in for the webhook) …
    expect(stored(s.applicationId).status).toBe('IN_PROGRESS');
    // … and the success page's confirmation answers the same confirmation.
    const confirm = await s.buyer.post('/api/payments/confirm', { applicationId: s.applicationId, sessionId });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({
      confirmed: true,
      sessionId,
      amount: 46350,
      base: 45000,
      fee: 1350,
      currency: 'CAD',
      status: 'IN_PROGRESS',
    });
    const notes = (await pullAll(s.seller, 'notifications')).documents;
    expect(notes.filter((n) => n.type === 'PAYMENT_CONFIRMED')).toHaveLength(1);

    const done = await s.buyer.post('/api/gigs/complete-gig', {
      gigId: s.gigId,
      applicationId: s.applicationId,
      userId: s.buyerUser.id,
      userType: 'buyer',
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true, payout: 'sent', amount: 40500 });
    expect(stored(s.applicationId).status).toBe('COMPLETED');
    const transfer: StoredDoc = server.ctx.store.get('ledger', `transfer:${s.applicationId}`)!;
    expect(transfer).toMatchObject({ status: 'sent', amount: 40500, destination: accountId });
    expect(String(transfer.transferId)).toMatch(/^tr_sim_/);
    expect(String(transfer.sourceTransaction)).toMatch(/^ch_sim_/);
  });

  it('holds the payout of a freelancer without a payout account and releases it when onboarding completes', async () => {
    const s = await scene(1000);
    const { body } = await s.buyer.post<{ sessionId: string }>('/api/payments/checkout', {
      applicationId: s.applicationId,
    });
    await s.buyer.post(`/api/payments/simulated/checkout/${body.sessionId}/pay`, {});
    const done = await s.buyer.post('/api/gigs/complete-gig', {
      gigId: s.gigId,
      applicationId: s.applicationId,
      userId: s.buyerUser.id,
      userType: 'buyer',
    });
    expect(done.body).toEqual({ success: true, payout: 'held', amount: 900 });
    expect(server.ctx.store.get('ledger', `transfer:${s.applicationId}`)).toMatchObject({ status: 'held' });
    await onboard(s);
    expect(server.ctx.store.get('ledger', `transfer:${s.applicationId}`)).toMatchObject({
      status: 'sent',
      amount: 900,
    });
  });

  it('the simulated pages belong to their user, need a session, and their POSTs keep the same-origin rule', async () => {
    const s = await scene();
    const { body } = await s.buyer.post<{ url: string; sessionId: string }>('/api/payments/checkout', {
      applicationId: s.applicationId,
    });
    const pagePath = path(body.url);
    expect((await s.seller.get<string>(pagePath)).status).toBe(404);
    const anon = await new TestClient(server.url).get(pagePath);
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe('/login');
    expect((await s.seller.post(`${pagePath}/pay`, {})).status).toBe(404);
    const crossSite = await fetch(`${server.url}${pagePath}/pay`, {
      method: 'POST',
      headers: { cookie: s.buyer.cookieHeader(), origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    expect(stored(s.applicationId).status).toBe('PENDING_PAYMENT');
  });

  it('has no webhook: the simulated pages call the server directly', async () => {
    const res = await fetch(`${server.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect((await new TestClient(server.url).get('/api/public-config')).body).toMatchObject({
      paymentsMode: 'simulated',
    });
  });
});
