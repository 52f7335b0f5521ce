import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { isoDay, write } from '../support/fixtures';
import { signedEvent } from '../support/stripe-mock';
import {
  WEBHOOK_SECRET,
  stripe,
  server,
  scene,
  stored,
  ledgerDoc,
  notificationsOf,
  checkout,
  payAndConfirm,
  webhook,
  type Doc,
  useStripeServer,
} from '../support/stripe-payments';

/**
 * Payments through the Stripe provider, against a local Stripe-compatible server
 * (docs/architecture.md "Payments" and the decisions on PENDING_PAYMENT and Mark as Complete): checkout, its confirmation and the platform webhook.
 */

useStripeServer();

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
