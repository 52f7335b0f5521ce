import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { signedEvent } from '../support/stripe-mock';
import {
  CONNECT_WEBHOOK_SECRET,
  stripe,
  server,
  scene,
  stored,
  ledgerDoc,
  notificationsOf,
  transfersFor,
  payAndConfirm,
  connect,
  connectWebhook,
  complete,
  type Doc,
  useStripeServer,
} from '../support/stripe-payments';

/**
 * Payments through the Stripe provider, against a local Stripe-compatible server
 * (docs/architecture.md "Payments" and the decisions on PENDING_PAYMENT and Mark as Complete): Mark as Complete and its transfer.
 */

useStripeServer();

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
