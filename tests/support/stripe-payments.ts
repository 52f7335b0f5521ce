import { afterAll, beforeAll, expect } from 'vitest';
import type { TestClient } from './http-client';
import { applyTo, createPayoutAccount, gigDoc, offerAndAccept, person, pullAll, write } from './fixtures';
import { startTestServer, type TestServer } from './in-process-server';
import { startStripeMock, type StripeMock } from './stripe-mock';

/**
 * What the Stripe payment tests share (tests/integration/payments-stripe-*.test.ts): a server in
 * Stripe mode against a local Stripe-compatible server (`useStripeServer`, the `server` and
 * `stripe` it started), a buyer's gig with an accepted offer, and the calls the tests make.
 */

export const WEBHOOK_SECRET = 'whsec_test_secret';
export const CONNECT_WEBHOOK_SECRET = 'whsec_test_connect_secret';
export let stripe: StripeMock;
export let server: TestServer;

/** Starts the Stripe mock and a server in Stripe mode for the file's tests, and stops both after them. */
export function useStripeServer(): void {
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
}

export type Doc = Record<string, unknown>;

/** A buyer's gig, a seller whose offer of `finalBudget` is accepted, and a stranger. */
export async function scene(finalBudget = 45000, gig: Doc = {}) {
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
export type Scene = Awaited<ReturnType<typeof scene>>;

export const stored = (applicationId: string) => server.ctx.store.get('applications', applicationId)!;
export const ledgerDoc = (id: string) => server.ctx.store.get('ledger', id);
export const notificationsOf = async (client: TestClient) => (await pullAll(client, 'notifications')).documents;
export const transfersFor = (applicationId: string) =>
  stripe.calls('/v1/transfers').filter((r) => r.body.transfer_group === applicationId);

export async function checkout(s: Scene) {
  const res = await s.buyer.post<{ url: string; sessionId: string; error?: string }>('/api/payments/checkout', {
    applicationId: s.applicationId,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function payAndConfirm(s: Scene) {
  const { sessionId } = await checkout(s);
  const { chargeId } = stripe.markPaid(sessionId);
  const res = await s.buyer.post('/api/payments/confirm', { applicationId: s.applicationId, sessionId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { sessionId, chargeId, confirmation: res.body };
}

export async function connect(client: TestClient, userId: string, email: string) {
  const res = await createPayoutAccount(client, { id: userId, email }, 'evil.example');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function webhook(body: string, signature?: string, path = '/api/stripe/webhook', url = server.url) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body,
  });
  return { status: res.status, body: (await res.json()) as Doc };
}

export const connectWebhook = (body: string, signature?: string) =>
  webhook(body, signature, '/api/stripe/connect-webhook');

export const complete = (s: Scene, client = s.buyer, userId = s.buyerUser.id) =>
  client.post<{ success: boolean; error?: string; payout?: string; amount?: number }>('/api/gigs/complete-gig', {
    gigId: s.gigId,
    applicationId: s.applicationId,
    userId,
    userType: 'buyer',
  });
