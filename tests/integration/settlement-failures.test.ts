import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../shared/constants';
import type { Person } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { operatorPerson } from '../support/operators';
import { startStripeMock, type StripeMock } from '../support/stripe-mock';
import {
  approve,
  balanceOf,
  cancelPaidWork,
  current,
  failNext,
  notificationsOf,
  onboard,
  openDispute,
  paidWork,
  providerMoves,
  resolveDispute,
  retryPayment,
  statusOf,
  submitWork,
  testClock,
  type Mode,
} from '../support/work';

/**
 * Decision 031, revised: settlements the payment provider did not answer, or refused. A call
 * answered with a server error may or may not have moved the money, and Stripe replays that
 * answer to every later call with the same idempotency key: the next try (a party's or an
 * operator's "Try again", the recovery timer, "Approve and pay" again) asks the provider first,
 * records what it finds, and otherwise tries under a new key; the ledger never counts money twice.
 * In both modes: the simulated provider and Stripe (the SDK against the local Stripe-compatible server).
 */

const NO_ANSWER = 'The payment provider did not answer. The payment will be tried again shortly.';
const OPERATOR_EMAIL = 'settlements.operator@example.com';

describe.each(['simulated', 'stripe'] as const)('with the %s provider', (name) => {
  let server: TestServer;
  let mode: Mode;
  let stripe: StripeMock | undefined;
  let operator: Person;
  const clock = testClock();

  beforeAll(async () => {
    const env: Record<string, string> = {
      LOG_LEVEL: 'silent',
      TIMER_INTERVAL_MS: '3600000',
      OPERATOR_EMAILS: OPERATOR_EMAIL,
    };
    if (name === 'stripe') {
      stripe = await startStripeMock();
      Object.assign(env, { STRIPE_SECRET_KEY: 'sk_test_settlements', STRIPE_API_BASE: stripe.url });
      mode = { name, stripe };
    } else mode = { name };
    server = await startTestServer(env, undefined, { now: clock.now });
    operator = await operatorPerson(server, { name: 'Opal Operator', email: OPERATOR_EMAIL });
  });
  afterAll(async () => {
    await server.cleanup();
    await stripe?.close();
  });

  const moves = (applicationId: string) => providerMoves(server, mode, applicationId);
  const ledgerEntry = (id: string) => server.ctx.store.get('ledger', id);
  /** The distinct idempotency keys the server sent the Stripe mock for this application's refunds or transfers. */
  const keysSent = (path: '/v1/refunds' | '/v1/transfers', applicationId: string) => [
    ...new Set(
      stripe!
        .calls(path)
        .filter((r) => (r.body.metadata as Record<string, unknown>).applicationId === applicationId)
        .map((r) => r.idempotencyKey),
    ),
  ];
  const notices = async (w: { seller: Person; buyer: Person; applicationId: string }, type: string) =>
    [...(await notificationsOf(w.buyer.http)), ...(await notificationsOf(w.seller.http))].filter(
      (n) => n.type === type && n.applicationId === w.applicationId,
    );

  describe('a server error: did the money move?', () => {
    it('a refund the provider made but answered with a server error: "Try again" finds it and records it, refunding nothing more', async () => {
      const w = await paidWork(server, mode);
      failNext(server, mode, 'refund', 500, true);
      const first = await cancelPaidWork(w.seller.http, w.applicationId);
      expect(first.status).toBe(502);
      expect(first.body).toEqual({ error: NO_ANSWER });
      expect(statusOf(server, w.applicationId)).toBe('SETTLING');
      const made = moves(w.applicationId).refunds;
      expect(made).toEqual([{ id: expect.any(String), amount: 46350 }]);
      expect(ledgerEntry(`refund:${w.applicationId}`)).toMatchObject({
        status: 'pending',
        refusedAttempts: 0,
        unanswered: { key: `application:${w.applicationId}:refund`, status: 500 },
      });
      expect(balanceOf(server, w.applicationId)).toMatchObject({ refunded: 0, held: 45000 });

      const again = await retryPayment(w.buyer.http, w.applicationId);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ status: 'REFUNDED' });
      expect(moves(w.applicationId).refunds).toEqual(made);
      expect(ledgerEntry(`refund:${w.applicationId}`)).toMatchObject({
        status: 'sent',
        refundId: made[0]!.id,
        refusedAttempts: 0,
        unanswered: null,
      });
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 0,
        refunded: 46350,
        platformKept: 0,
        held: 0,
      });
      if (stripe) expect(keysSent('/v1/refunds', w.applicationId)).toEqual([`application:${w.applicationId}:refund`]);
      expect(await notices(w, 'REFUND_ISSUED')).toHaveLength(1);
    });

    it('a refund the provider did not make and answered with a server error: the recovery timer tries again under a new key, once', async () => {
      const w = await paidWork(server, mode);
      failNext(server, mode, 'refund', 500, false);
      expect((await cancelPaidWork(w.seller.http, w.applicationId)).body).toEqual({ error: NO_ANSWER });
      expect(moves(w.applicationId).refunds).toEqual([]);

      clock.advance(61_000);
      await server.timers.runDue();
      expect(statusOf(server, w.applicationId)).toBe('REFUNDED');
      expect(moves(w.applicationId).refunds.map((r) => r.amount)).toEqual([46350]);
      expect(ledgerEntry(`refund:${w.applicationId}`)).toMatchObject({
        status: 'sent',
        refusedAttempts: 1,
        unanswered: null,
      });
      if (stripe)
        expect(keysSent('/v1/refunds', w.applicationId)).toEqual([
          `application:${w.applicationId}:refund`,
          `application:${w.applicationId}:refund:retry-1`,
        ]);
      await server.timers.runDue();
      expect(moves(w.applicationId).refunds).toHaveLength(1);
      expect(balanceOf(server, w.applicationId)).toMatchObject({ refunded: 46350, held: 0 });
    });

    it('a payout the provider made but answered with a server error: "Approve and pay" says it is being settled; the recovery timer records the transfer, paying nothing more', async () => {
      const w = await paidWork(server, mode);
      await onboard(server, mode, w.seller);
      await submitWork(server, w, 'Final files');
      failNext(server, mode, 'transfer', 500, true);
      const approved = await approve(w);
      expect(approved.status).toBe(202);
      expect(approved.body).toEqual({ success: true, payout: 'pending', amount: 40500 });
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'SETTLING',
        settlement: { kind: 'release', by: 'buyer' },
      });
      const made = moves(w.applicationId).transfers;
      expect(made).toEqual([{ id: expect.any(String), amount: 40500 }]);

      clock.advance(61_000);
      await server.timers.runDue();
      expect(statusOf(server, w.applicationId)).toBe('COMPLETED');
      expect(moves(w.applicationId).transfers).toEqual(made);
      expect(ledgerEntry(`transfer:${w.applicationId}`)).toMatchObject({
        status: 'sent',
        transferId: made[0]!.id,
        refusedAttempts: 0,
        unanswered: null,
      });
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 40500,
        refunded: 0,
        platformKept: 5850,
        held: 0,
      });
      if (stripe)
        expect(keysSent('/v1/transfers', w.applicationId)).toEqual([`application:${w.applicationId}:transfer`]);
      expect(await notices(w, 'GIG_COMPLETED')).toHaveLength(1);
    });

    it('a payout the provider did not make and answered with a server error: Mark as Complete again pays once, under a new key', async () => {
      const w = await paidWork(server, mode);
      await onboard(server, mode, w.seller);
      failNext(server, mode, 'transfer', 500, false);
      expect((await approve(w)).body).toEqual({ success: true, payout: 'pending', amount: 40500 });
      expect(moves(w.applicationId).transfers).toEqual([]);

      const again = await approve(w);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ success: true, payout: 'sent', amount: 40500 });
      expect(moves(w.applicationId).transfers.map((t) => t.amount)).toEqual([40500]);
      expect(ledgerEntry(`transfer:${w.applicationId}`)).toMatchObject({ status: 'sent', refusedAttempts: 1 });
      if (stripe)
        expect(keysSent('/v1/transfers', w.applicationId)).toEqual([
          `application:${w.applicationId}:transfer`,
          `application:${w.applicationId}:transfer:retry-1`,
        ]);
      expect(balanceOf(server, w.applicationId)).toMatchObject({ transferred: 40500, held: 0 });
    });

    it('a settlement left unanswered is listed on the operators’ page, and its "Try again" ends it', async () => {
      const w = await paidWork(server, mode);
      await onboard(server, mode, w.seller);
      await openDispute(server, w.buyer.http, w.applicationId, 'Half of it arrived');
      failNext(server, mode, 'refund', 500, false);
      const resolved = await resolveDispute(operator.http, w.applicationId, 'split', 20000);
      expect(resolved.status).toBe(502);
      expect(resolved.body).toEqual({ error: NO_ANSWER });
      const failed = async () =>
        (
          await operator.http.get<{ failed: { applicationId: string; status: string }[] }>('/api/operator/disputes')
        ).body.failed.filter((d) => d.applicationId === w.applicationId);
      expect(await failed()).toEqual([]);
      // Listed once it has waited ten minutes for an answer (the recovery timer is not run here).
      clock.advance(11 * 60_000);
      expect(await failed()).toMatchObject([{ status: 'SETTLING', settlement: { kind: 'split' } }]);

      const tried = await retryPayment(operator.http, w.applicationId);
      expect(tried.status, JSON.stringify(tried.body)).toBe(200);
      expect(tried.body).toMatchObject({ status: 'SPLIT' });
      expect(moves(w.applicationId).refunds.map((r) => r.amount)).toEqual([25750]);
      expect(moves(w.applicationId).transfers.map((t) => t.amount)).toEqual([18000]);
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 18000,
        refunded: 25750,
        platformKept: 2600,
        held: 0,
      });
      expect(await failed()).toEqual([]);
    });
  });

  describe('a payout the provider refuses', () => {
    const NOTHING_MOVED = (title: string) =>
      `The payment provider refused the payout for “${title}”. Nothing was marked paid; it can be tried again from My Gigs.`;

    it('after the automatic release: SETTLEMENT_FAILED, both told nothing moved; a party’s retry pays once under a new key', async () => {
      const w = await paidWork(server, mode);
      await onboard(server, mode, w.seller);
      await submitWork(server, w, 'Final files');
      failNext(server, mode, 'transfer', 400);
      clock.advance(14 * DAY_MS + 1);
      await server.timers.runDue();
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'SETTLEMENT_FAILED',
        settlement: { kind: 'release', by: 'automatic', failure: expect.any(String), refundedAt: null },
      });
      expect(moves(w.applicationId).transfers).toEqual([]);
      expect(balanceOf(server, w.applicationId)).toMatchObject({ transferred: 0, refunded: 0, held: 45000 });
      const problems = await notices(w, 'PAYMENT_PROBLEM');
      expect(problems.map((n) => n.message)).toEqual([NOTHING_MOVED('Poster design'), NOTHING_MOVED('Poster design')]);
      // The timer does not try a refusal again by itself.
      clock.advance(61_000);
      await server.timers.runDue();
      expect(statusOf(server, w.applicationId)).toBe('SETTLEMENT_FAILED');

      const retried = await retryPayment(w.seller.http, w.applicationId);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({ status: 'COMPLETED', settlement: { by: 'automatic' } });
      expect(moves(w.applicationId).transfers.map((t) => t.amount)).toEqual([40500]);
      expect(ledgerEntry(`transfer:${w.applicationId}`)).toMatchObject({ status: 'sent', refusedAttempts: 1 });
      if (stripe)
        expect(keysSent('/v1/transfers', w.applicationId)).toEqual([
          `application:${w.applicationId}:transfer`,
          `application:${w.applicationId}:transfer:retry-1`,
        ]);
      expect(await notices(w, 'PAYMENT_RELEASED')).toHaveLength(2);
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 40500,
        refunded: 0,
        platformKept: 5850,
        held: 0,
      });
    });

    it('after an operator’s release: the operator is told it was refused, sees it listed, and tries again', async () => {
      const w = await paidWork(server, mode);
      await onboard(server, mode, w.seller);
      await openDispute(server, w.buyer.http, w.applicationId, 'The buyer went quiet');
      failNext(server, mode, 'transfer', 400);
      const resolved = await resolveDispute(operator.http, w.applicationId, 'release');
      expect(resolved.status).toBe(502);
      expect(resolved.body).toEqual({
        error: 'The payment provider refused the payment. Nothing moved; it can be tried again.',
      });
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'SETTLEMENT_FAILED',
        settlement: { kind: 'release', by: 'operator' },
      });
      expect(moves(w.applicationId).transfers).toEqual([]);
      const page = await operator.http.get<{ failed: { applicationId: string }[] }>('/api/operator/disputes');
      expect(page.body.failed.map((d) => d.applicationId)).toContain(w.applicationId);

      const tried = await retryPayment(operator.http, w.applicationId);
      expect(tried.body).toMatchObject({ status: 'COMPLETED', settlement: { by: 'operator', toFreelancer: 40500 } });
      expect(moves(w.applicationId).transfers.map((t) => t.amount)).toEqual([40500]);
      expect(balanceOf(server, w.applicationId)).toMatchObject({ transferred: 40500, refunded: 0, held: 0 });
    });

    it('a split whose refund went out and whose payout was refused: SETTLEMENT_FAILED saying so; the retry pays out without refunding again', async () => {
      const w = await paidWork(server, mode);
      await onboard(server, mode, w.seller);
      await openDispute(server, w.buyer.http, w.applicationId, 'Half of it arrived');
      failNext(server, mode, 'transfer', 400);
      const resolved = await resolveDispute(operator.http, w.applicationId, 'split', 20000);
      expect(resolved.status).toBe(502);
      expect(resolved.body).toEqual({
        error:
          'The payment provider refused the freelancer’s payout. The buyer’s refund went out; only the payout can be tried again.',
      });
      expect(current(server, w.applicationId)).toMatchObject({
        status: 'SETTLEMENT_FAILED',
        settlement: { kind: 'split', refund: 25750, toFreelancer: 18000, refundedAt: clock.at },
      });
      expect(moves(w.applicationId).refunds.map((r) => r.amount)).toEqual([25750]);
      expect(moves(w.applicationId).transfers).toEqual([]);
      expect(ledgerEntry(`refund:${w.applicationId}`)).toMatchObject({ status: 'sent', amount: 25750 });
      // Refunded 25,750 and kept 600 of the fee so far: the freelancer's 20,000 is still held.
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 0,
        refunded: 25750,
        platformKept: 600,
        held: 20000,
      });
      const message =
        'The payment provider refused the freelancer’s payout of C$180.00 for “Poster design”. The buyer’s refund of C$257.50 went out; only the payout is left, and it can be tried again from My Gigs.';
      expect((await notices(w, 'PAYMENT_PROBLEM')).map((n) => n.message)).toEqual([message, message]);

      const retried = await retryPayment(w.buyer.http, w.applicationId);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({ status: 'SPLIT' });
      expect(moves(w.applicationId).refunds.map((r) => r.amount)).toEqual([25750]);
      expect(moves(w.applicationId).transfers.map((t) => t.amount)).toEqual([18000]);
      if (stripe) expect(keysSent('/v1/refunds', w.applicationId)).toEqual([`application:${w.applicationId}:refund`]);
      expect(balanceOf(server, w.applicationId)).toEqual({
        charged: 46350,
        transferred: 18000,
        refunded: 25750,
        platformKept: 2600,
        held: 0,
      });
    });
  });
});
