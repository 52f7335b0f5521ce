import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSettlement } from '../../shared/work-machine';
import type { Application } from '../../shared/schemas/application';
import { applyTo, gigDoc, isoDay, offer, write } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { startStripeMock, type StripeMock } from '../support/stripe-mock';
import {
  acceptedOffer,
  askToCancel,
  balanceOf,
  cancelPaidWork,
  current,
  move,
  notificationsOf,
  openDispute,
  paidWork,
  refuseCancellation,
  retryPayment,
  statusOf,
  submitWork,
  testClock,
  type Mode,
} from '../support/work';

/**
 * Issue 15, cancellation: before payment either side withdraws or cancels; after payment the buyer
 * asks and the freelancer accepts (a full refund, fee included) or refuses, and the freelancer can
 * cancel on their own before delivery. Refunds go through the provider, in both modes: the
 * simulated provider and Stripe (the SDK against the local Stripe-compatible server).
 */

const REFUND_REFUSED = 'The payment provider refused the refund. Nothing was refunded; it can be tried again.';

describe.each(['simulated', 'stripe'] as const)('with the %s provider', (name) => {
  let server: TestServer;
  let mode: Mode;
  let stripe: StripeMock | undefined;
  const clock = testClock();

  beforeAll(async () => {
    const env: Record<string, string> = { LOG_LEVEL: 'silent', TIMER_INTERVAL_MS: '3600000' };
    if (name === 'stripe') {
      stripe = await startStripeMock();
      Object.assign(env, { STRIPE_SECRET_KEY: 'sk_test_cancellations', STRIPE_API_BASE: stripe.url });
      mode = { name, stripe };
    } else mode = { name };
    server = await startTestServer(env, undefined, { now: clock.now });
  });
  afterAll(async () => {
    await server.cleanup();
    await stripe?.close();
  });

  /** Refunds the provider made for one application, in order. */
  function refundsAt(applicationId: string): { amount: number }[] {
    const made = stripe
      ? stripe.refunds.filter((r) => (r.metadata as Record<string, unknown>).applicationId === applicationId)
      : [...server.ctx.store.all('ledger')].filter((d) => d.kind === 'sim_refund' && d.applicationId === applicationId);
    return made.map((r) => ({ amount: Number((r as Record<string, unknown>).amount) }));
  }

  describe('before payment', () => {
    it('the freelancer withdraws an application; the buyer is told and can no longer offer', async () => {
      const w = await acceptedOffer(server, 45000);
      const fresh = (await write(w.buyer.http, 'gigs', gigDoc({ title: 'Logo', projectDeadline: isoDay(365) })))
        .master!;
      const app = await applyTo(w.seller, fresh.id as string);
      const withdrawn = await move(server, w.seller.http, app.id as string, (doc) => ({ ...doc, status: 'WITHDRAWN' }));
      expect(withdrawn.refusal).toBeUndefined();
      expect(statusOf(server, app.id as string)).toBe('WITHDRAWN');
      expect(await notificationsOf(w.buyer.http)).toContainEqual(
        expect.objectContaining({ type: 'APPLICATION_WITHDRAWN', applicationId: app.id }),
      );
      const offered = await move(server, w.buyer.http, app.id as string, (doc) => ({
        ...doc,
        status: 'PENDING_ACCEPTANCE',
        finalBudget: 100,
      }));
      expect(offered.refusal).toBe('This application was withdrawn and can no longer change.');
    });

    it('the buyer withdraws an offer not yet accepted: back to a plain application, the freelancer told, a new offer possible', async () => {
      const w = await acceptedOffer(server, 45000);
      const fresh = (await write(w.buyer.http, 'gigs', gigDoc({ title: 'Mural', projectDeadline: isoDay(365) })))
        .master!;
      const offered = await offer(w.buyer.http, await applyTo(w.seller, fresh.id as string), 30000);
      const back = await move(server, w.buyer.http, offered.id as string, (doc) => ({
        ...doc,
        status: 'PENDING',
        finalBudget: null,
      }));
      expect(back.refusal).toBeUndefined();
      expect(current(server, offered.id as string)).toMatchObject({ status: 'PENDING', finalBudget: null });
      expect(await notificationsOf(w.seller.http)).toContainEqual(
        expect.objectContaining({ type: 'OFFER_WITHDRAWN', applicationId: offered.id }),
      );
      expect((await offer(w.buyer.http, current(server, offered.id as string), 35000)).status).toBe(
        'PENDING_ACCEPTANCE',
      );
    });

    it.each(['buyer', 'freelancer'] as const)(
      'the %s cancels an accepted offer before payment: CANCELLED, the other told, the gig open again, no checkout',
      async (who) => {
        const w = await acceptedOffer(server, 45000);
        expect(server.ctx.store.get('gigs', w.gigId)!.filledAt).toBeTypeOf('number');
        const client = who === 'buyer' ? w.buyer.http : w.seller.http;
        const cancelled = await move(server, client, w.applicationId, (doc) => ({ ...doc, status: 'CANCELLED' }));
        expect(cancelled.refusal).toBeUndefined();
        expect(statusOf(server, w.applicationId)).toBe('CANCELLED');
        expect(server.ctx.store.get('gigs', w.gigId)!.filledAt).toBeNull();
        const told = who === 'buyer' ? w.seller.http : w.buyer.http;
        expect(await notificationsOf(told)).toContainEqual(
          expect.objectContaining({ type: 'WORK_CANCELLED', applicationId: w.applicationId }),
        );
        const pay = await w.buyer.http.post('/api/payments/checkout', { applicationId: w.applicationId });
        expect(pay.status).toBe(409);
      },
    );

    it('paid work cannot be cancelled for free over replication, by either side', async () => {
      const w = await paidWork(server, mode);
      for (const client of [w.buyer.http, w.seller.http]) {
        const res = await move(server, client, w.applicationId, (doc) => ({ ...doc, status: 'CANCELLED' }));
        expect(res.refusal).toBe(
          'This work is paid: the freelancer can cancel it with a full refund, or either side can open a dispute.',
        );
      }
      expect(statusOf(server, w.applicationId)).toBe('IN_PROGRESS');
    });
  });

  describe('after payment', () => {
    it('the buyer asks to cancel; the freelancer refuses (either may then dispute), then accepts a second request: a full refund, fee included', async () => {
      const w = await paidWork(server, mode);
      expect((await askToCancel(server, w, 'Our launch was called off')).refusal).toBeUndefined();
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'CANCELLATION_REQUESTED',
        cancellation: { note: 'Our launch was called off', requestedAt: clock.at },
      });
      expect(await notificationsOf(w.seller.http)).toContainEqual(
        expect.objectContaining({ type: 'CANCELLATION_REQUESTED', applicationId: w.applicationId }),
      );
      // Only the freelancer answers.
      expect((await cancelPaidWork(w.buyer.http, w.applicationId)).status).toBe(403);
      expect((await refuseCancellation(server, { ...w, seller: w.buyer })).refusal).toBe(
        'Only the freelancer can accept or refuse a cancellation request.',
      );

      expect((await refuseCancellation(server, w)).refusal).toBeUndefined();
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'IN_PROGRESS',
        cancellation: { refusedAt: clock.at },
      });
      expect(await notificationsOf(w.buyer.http)).toContainEqual(
        expect.objectContaining({ type: 'CANCELLATION_REFUSED', applicationId: w.applicationId }),
      );

      await askToCancel(server, w);
      const done = await cancelPaidWork(w.seller.http, w.applicationId);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({
        status: 'REFUNDED',
        settlement: { kind: 'refund', by: 'freelancer', refund: 46350, toFreelancer: 0 },
      });
      expect(refundsAt(w.applicationId).map((r) => r.amount)).toEqual([46350]);
      if (stripe) {
        const [req] = stripe
          .calls('/v1/refunds')
          .filter((r) => (r.body.metadata as Record<string, unknown>).applicationId === w.applicationId);
        expect(req!.idempotencyKey).toBe(`application:${w.applicationId}:refund`);
        expect(req!.body).toMatchObject({ amount: '46350', reason: 'requested_by_customer' });
        expect(String(req!.body.charge)).toMatch(/^ch_/);
      }
      expect(server.ctx.store.get('ledger', `refund:${w.applicationId}`)).toMatchObject({
        status: 'sent',
        amount: 46350,
        fee: 1350,
      });
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 0,
        refunded: 46350,
        platformKept: 0,
        held: 0,
      });
      expect(await notificationsOf(w.buyer.http)).toContainEqual(
        expect.objectContaining({
          type: 'REFUND_ISSUED',
          amount: 46350,
          message: '“Sam Seller” cancelled “Poster design”: you were refunded in full (C$463.50)',
        }),
      );
      // The refunded work no longer holds its opening.
      expect(server.ctx.store.get('gigs', w.gigId)!.filledAt).toBeNull();

      const again = await cancelPaidWork(w.seller.http, w.applicationId);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'This work was refunded and can no longer change.' });
      expect(refundsAt(w.applicationId)).toHaveLength(1);
    });

    it('after a refused cancellation either side may open a dispute', async () => {
      const w = await paidWork(server, mode);
      await askToCancel(server, w);
      await refuseCancellation(server, w);
      expect(
        (await openDispute(server, w.buyer.http, w.applicationId, 'They will not stop or deliver')).refusal,
      ).toBeUndefined();
      expect(current(server, w.applicationId)).toMatchObject({ status: 'DISPUTED', dispute: { by: 'buyer' } });
    });

    it('the freelancer cancels paid work on their own before delivery (a full refund); once delivered they cannot', async () => {
      const w = await paidWork(server, mode);
      const res = await cancelPaidWork(w.seller.http, w.applicationId);
      expect(res.body).toMatchObject({ status: 'REFUNDED' });
      expect(balanceOf(server, w.applicationId)).toMatchObject({ refunded: 46350, held: 0 });

      const delivered = await paidWork(server, mode);
      await submitWork(server, delivered, 'Done');
      const late = await cancelPaidWork(delivered.seller.http, delivered.applicationId);
      expect(late.status).toBe(409);
      expect(late.body).toEqual({ error: 'Paid work can be cancelled only before it is delivered.' });
      expect(refundsAt(delivered.applicationId)).toHaveLength(0);
    });

    it('the freelancer cancels paid work under a dispute when nothing was ever submitted: a full refund closes the dispute, both told; with work submitted they cannot', async () => {
      const w = await paidWork(server, mode);
      expect((await openDispute(server, w.buyer.http, w.applicationId, 'Nothing has arrived')).refusal).toBeUndefined();
      expect((await cancelPaidWork(w.buyer.http, w.applicationId)).body).toEqual({
        error: 'Only the freelancer can cancel paid work.',
      });
      const res = await cancelPaidWork(w.seller.http, w.applicationId);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        status: 'REFUNDED',
        settlement: { kind: 'refund', by: 'freelancer', from: 'DISPUTED', refund: 46350, toFreelancer: 0 },
      });
      expect(refundsAt(w.applicationId).map((r) => r.amount)).toEqual([46350]);
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 0,
        refunded: 46350,
        platformKept: 0,
        held: 0,
      });
      expect(await notificationsOf(w.buyer.http)).toContainEqual(
        expect.objectContaining({
          type: 'REFUND_ISSUED',
          amount: 46350,
          message:
            '“Sam Seller” cancelled “Poster design”: you were refunded in full (C$463.50). The dispute is closed.',
        }),
      );
      expect(await notificationsOf(w.seller.http)).toContainEqual(
        expect.objectContaining({
          type: 'DISPUTE_RESOLVED',
          message:
            'The dispute on “Poster design” is closed: you cancelled the work and “Bea Buyer” was refunded in full (C$463.50)',
        }),
      );
      expect(server.ctx.store.get('gigs', w.gigId)!.filledAt).toBeNull();

      const delivered = await paidWork(server, mode);
      await submitWork(server, delivered, 'A first draft');
      await openDispute(server, delivered.buyer.http, delivered.applicationId, 'Not what we agreed');
      const refused = await cancelPaidWork(delivered.seller.http, delivered.applicationId);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: 'This work is under dispute: an operator will resolve it.' });
      expect(statusOf(server, delivered.applicationId)).toBe('DISPUTED');
      expect(refundsAt(delivered.applicationId)).toHaveLength(0);
    });

    it('nobody else cancels paid work: the buyer is refused, strangers and visitors find nothing', async () => {
      const w = await paidWork(server, mode);
      const stranger = (await acceptedOffer(server, 100)).buyer.http;
      expect((await cancelPaidWork(w.buyer.http, w.applicationId)).body).toEqual({
        error: 'Only the freelancer can cancel paid work.',
      });
      expect((await cancelPaidWork(stranger, w.applicationId)).status).toBe(404);
      expect((await cancelPaidWork(new TestClient(server.url), w.applicationId)).status).toBe(401);
      expect(statusOf(server, w.applicationId)).toBe('IN_PROGRESS');
    });

    it('a settlement left without an answer (a crash after the claim) is finished by the recovery timer, once', async () => {
      const w = await paidWork(server, mode);
      const app = server.ctx.store.get('applications', w.applicationId)! as unknown as Application;
      await server.ctx.store.commit([
        {
          collection: 'applications',
          doc: {
            ...app,
            ...startSettlement(app, 'refund', 'freelancer', 0, clock.at),
            updatedAt: clock.at + 1,
            _deleted: false,
          },
        },
      ]);
      expect(await server.timers.runDue()).toBe(0);
      clock.advance(61_000);
      await server.timers.runDue();
      expect(statusOf(server, w.applicationId)).toBe('REFUNDED');
      await server.timers.runDue();
      expect(refundsAt(w.applicationId)).toHaveLength(1);
    });
  });

  if (name === 'stripe') {
    it('a refund the provider refuses: SETTLEMENT_FAILED, nothing marked refunded, both told; a retry refunds once under a new key', async () => {
      const w = await paidWork(server, mode);
      stripe!.failRefunds(1);
      const refused = await cancelPaidWork(w.seller.http, w.applicationId);
      expect(refused.status).toBe(502);
      expect(refused.body).toEqual({ error: REFUND_REFUSED });
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'SETTLEMENT_FAILED',
        settlement: { kind: 'refund', failure: 'The refund could not be processed.' },
      });
      expect(server.ctx.store.get('ledger', `refund:${w.applicationId}`)).toMatchObject({
        status: 'pending',
        refusedAttempts: 1,
      });
      expect(balanceOf(server, w.applicationId)).toMatchObject({ refunded: 0, held: 45000 });
      for (const client of [w.buyer.http, w.seller.http])
        expect(await notificationsOf(client)).toContainEqual(
          expect.objectContaining({ type: 'PAYMENT_PROBLEM', applicationId: w.applicationId }),
        );
      // A stranger cannot retry; the buyer can.
      expect((await retryPayment(new TestClient(server.url), w.applicationId)).status).toBe(401);
      const retried = await retryPayment(w.buyer.http, w.applicationId);
      expect(retried.body).toMatchObject({ status: 'REFUNDED' });
      expect(
        stripe!.refunds.filter((r) => (r.metadata as Record<string, unknown>).applicationId === w.applicationId),
      ).toHaveLength(1);
      expect(
        stripe!
          .calls('/v1/refunds')
          .filter((r) => (r.body.metadata as Record<string, unknown>).applicationId === w.applicationId)
          .map((r) => r.idempotencyKey),
      ).toEqual([`application:${w.applicationId}:refund`, `application:${w.applicationId}:refund:retry-1`]);
      expect(balanceOf(server, w.applicationId)).toMatchObject({ refunded: 46350, held: 0 });
    });

    it('a payment confirmed after the accepted offer was cancelled is refunded in full, not started', async () => {
      const w = await acceptedOffer(server, 45000);
      const checkout = await w.buyer.http.post<{ sessionId: string }>('/api/payments/checkout', {
        applicationId: w.applicationId,
      });
      await move(server, w.seller.http, w.applicationId, (doc) => ({ ...doc, status: 'CANCELLED' }));
      stripe!.markPaid(checkout.body.sessionId);
      const confirm = await w.buyer.http.post('/api/payments/confirm', {
        applicationId: w.applicationId,
        sessionId: checkout.body.sessionId,
      });
      expect(confirm.status).toBe(409);
      expect(confirm.body).toEqual({ error: 'Invalid application status' });
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'REFUNDED',
        settlement: { by: 'server', refund: 46350 },
      });
      expect(refundsAt(w.applicationId).map((r) => r.amount)).toEqual([46350]);
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 0,
        refunded: 46350,
        platformKept: 0,
        held: 0,
      });
      expect(await notificationsOf(w.buyer.http)).toContainEqual(
        expect.objectContaining({ type: 'REFUND_ISSUED', applicationId: w.applicationId }),
      );
      // Loading the success page again confirms nothing and refunds nothing more.
      expect(
        (
          await w.buyer.http.post('/api/payments/confirm', {
            applicationId: w.applicationId,
            sessionId: checkout.body.sessionId,
          })
        ).status,
      ).toBe(409);
      expect(refundsAt(w.applicationId)).toHaveLength(1);
    });
  }
});
