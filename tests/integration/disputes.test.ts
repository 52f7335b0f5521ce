import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../../shared/chat-doc';
import { conversationIdFor } from '../../shared/ids';
import type { Person } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { operatorPerson } from '../support/operators';
import { startStripeMock, type StripeMock } from '../support/stripe-mock';
import {
  approve,
  balanceOf,
  current,
  notificationsOf,
  onboard,
  openDispute,
  paidWork,
  resolveDispute,
  statusOf,
  submitWork,
  testClock,
  type Mode,
  type Work,
} from '../support/work';

/**
 * Issue 15, disputes: either side opens one with a reason after payment and before completion; it
 * freezes the automatic release; an operator (OPERATOR_EMAILS) sees it with the gig, both parties,
 * the payment, the submissions and the conversation, and resolves it: a refund in full, a release
 * in full, or a split with the buyer's fee refunded pro rata. The ledger balances every time.
 */

const OPERATOR_EMAIL = 'opal.operator@example.com';

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
      OPERATOR_EMAILS: `someone-else@example.com, ${OPERATOR_EMAIL.toUpperCase()}`,
    };
    if (name === 'stripe') {
      stripe = await startStripeMock();
      Object.assign(env, { STRIPE_SECRET_KEY: 'sk_test_disputes', STRIPE_API_BASE: stripe.url });
      mode = { name, stripe };
    } else mode = { name };
    server = await startTestServer(env, undefined, { now: clock.now });
    operator = await operatorPerson(server, { name: 'Opal Operator', email: OPERATOR_EMAIL });
  });
  afterAll(async () => {
    await server.cleanup();
    await stripe?.close();
  });

  /** Paid, delivered work the buyer disputes, with a message in their conversation. */
  async function disputed(): Promise<Work> {
    const w = await paidWork(server, mode);
    await onboard(server, mode, w.seller);
    await submitWork(server, w, 'Here is the logo', 'https://files.example/logo.svg');
    // The conversation's log as the chat server writes it (its own suites cover how messages get there).
    const room = conversationIdFor(w.buyer.user.id, w.seller.user.id);
    const doc = new Y.Doc();
    doc.getArray(CHAT_MESSAGES_ARRAY).push([
      {
        id: 'm1',
        content: 'Files are up, let me know!',
        senderId: w.seller.user.id,
        receiverId: w.buyer.user.id,
        clientTime: 1,
      },
    ]);
    doc.getMap(CHAT_STAMPS_MAP).set('m1', clock.at);
    await server.ctx.store.openChat(room);
    await server.ctx.store.appendChatUpdate(room, Y.encodeStateAsUpdate(doc));
    const { refusal } = await openDispute(
      server,
      w.buyer.http,
      w.applicationId,
      'The logo is not vector art as agreed',
    );
    expect(refusal).toBeUndefined();
    return w;
  }

  const transferred = (applicationId: string) =>
    stripe
      ? stripe.transfers.filter((t) => t.transfer_group === applicationId).map((t) => Number(t.amount))
      : [...server.ctx.store.all('ledger')]
          .filter((d) => d.kind === 'sim_transfer' && d.transferGroup === applicationId)
          .map((d) => Number((d as Record<string, unknown>).amount));
  const refunded = (applicationId: string) =>
    stripe
      ? stripe.refunds
          .filter((r) => (r.metadata as Record<string, unknown>).applicationId === applicationId)
          .map((r) => Number(r.amount))
      : [...server.ctx.store.all('ledger')]
          .filter((d) => d.kind === 'sim_refund' && d.applicationId === applicationId)
          .map((d) => Number((d as Record<string, unknown>).amount));

  it('opening one tells both, pauses the automatic release, and shows it to operators with everything they need', async () => {
    const w = await disputed();
    expect(current(server, w.applicationId)).toMatchObject({
      status: 'DISPUTED',
      autoReleaseAt: null,
      dispute: { by: 'buyer', reason: 'The logo is not vector art as agreed', openedAt: clock.at },
    });
    for (const client of [w.buyer.http, w.seller.http])
      expect(await notificationsOf(client)).toContainEqual(
        expect.objectContaining({ type: 'DISPUTE_OPENED', applicationId: w.applicationId }),
      );

    clock.advance(15 * 24 * 60 * 60 * 1000);
    await server.timers.runDue();
    expect(statusOf(server, w.applicationId)).toBe('DISPUTED');

    const page = await operator.http.get<{ disputes: Record<string, unknown>[]; failed: unknown[] }>(
      '/api/operator/disputes',
    );
    expect(page.status).toBe(200);
    const shown = page.body.disputes.find((d) => d.applicationId === w.applicationId);
    expect(shown).toMatchObject({
      status: 'DISPUTED',
      gig: { id: w.gigId, title: 'Poster design', deleted: false },
      buyer: { id: w.buyer.user.id, name: 'Bea Buyer', email: w.buyer.user.email },
      freelancer: { id: w.seller.user.id, name: 'Sam Seller', email: w.seller.user.email },
      payment: { base: 45000, fee: 1350, total: 46350, currency: 'CAD' },
      submissions: [{ note: 'Here is the logo', link: 'https://files.example/logo.svg' }],
      dispute: { by: 'buyer', reason: 'The logo is not vector art as agreed' },
      conversation: [{ from: 'freelancer', content: 'Files are up, let me know!' }],
    });
  });

  it('resolved with a refund in full: the buyer gets everything back, fee included', async () => {
    const w = await disputed();
    const res = await resolveDispute(operator.http, w.applicationId, 'refund');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'REFUNDED',
      settlement: { kind: 'refund', by: 'operator', refund: 46350, toFreelancer: 0 },
    });
    expect(refunded(w.applicationId)).toEqual([46350]);
    expect(transferred(w.applicationId)).toEqual([]);
    expect(balanceOf(server, w.applicationId)).toEqual({
      charged: 46350,
      transferred: 0,
      refunded: 46350,
      platformKept: 0,
      held: 0,
    });
    for (const client of [w.buyer.http, w.seller.http])
      expect(await notificationsOf(client)).toContainEqual(
        expect.objectContaining({
          type: 'DISPUTE_RESOLVED',
          message: 'The dispute on “Poster design” was resolved: refunded to the buyer in full (C$463.50)',
        }),
      );
  });

  it('resolved with a release in full: the freelancer gets 90%, the platform keeps 10% and the fee', async () => {
    const w = await disputed();
    const res = await resolveDispute(operator.http, w.applicationId, 'release');
    expect(res.body).toMatchObject({
      status: 'COMPLETED',
      settlement: { kind: 'release', toFreelancer: 40500, refund: 0 },
    });
    expect(transferred(w.applicationId)).toEqual([40500]);
    expect(refunded(w.applicationId)).toEqual([]);
    expect(balanceOf(server, w.applicationId)).toEqual({
      charged: 46350,
      transferred: 40500,
      refunded: 0,
      platformKept: 5850,
      held: 0,
    });
  });

  it('resolved with a split: the chosen part to the freelancer (less 10%), the rest and the fee pro rata to the buyer', async () => {
    const w = await disputed();
    const res = await resolveDispute(operator.http, w.applicationId, 'split', 20000);
    expect(res.body).toMatchObject({
      status: 'SPLIT',
      settlement: { kind: 'split', freelancerBase: 20000, toFreelancer: 18000, refund: 25750 },
    });
    expect(transferred(w.applicationId)).toEqual([18000]);
    expect(refunded(w.applicationId)).toEqual([25750]);
    // 46350 charged = 18000 transferred + 25750 refunded + (2000 platform fee + 600 of the fee kept).
    expect(balanceOf(server, w.applicationId)).toEqual({
      charged: 46350,
      transferred: 18000,
      refunded: 25750,
      platformKept: 2600,
      held: 0,
    });
    expect(server.ctx.store.get('ledger', `platform-fee:${w.applicationId}`)).toMatchObject({ amount: 2000 });
    expect(server.ctx.store.get('ledger', `refund:${w.applicationId}`)).toMatchObject({ amount: 25750, fee: 750 });
    expect(
      (await operator.http.get<{ disputes: { applicationId: string }[] }>('/api/operator/disputes')).body.disputes.map(
        (d) => d.applicationId,
      ),
    ).not.toContain(w.applicationId);
    // Resolved once: a second resolution changes nothing.
    const again = await resolveDispute(operator.http, w.applicationId, 'refund');
    expect(again.status).toBe(409);
    expect(refunded(w.applicationId)).toEqual([25750]);
  });

  it('a split must give each side something; the freelancer can open one too, on work in progress', async () => {
    const w = await paidWork(server, mode);
    expect(
      (await openDispute(server, w.seller.http, w.applicationId, 'The buyer stopped answering')).refusal,
    ).toBeUndefined();
    expect(current(server, w.applicationId)).toMatchObject({ dispute: { by: 'freelancer' } });
    for (const amount of [0, 45000])
      expect((await resolveDispute(operator.http, w.applicationId, 'split', amount)).body).toEqual({
        error: 'A split gives each side part of the final budget.',
      });
    expect((await resolveDispute(operator.http, w.applicationId, 'split')).status).toBe(409);
    expect(statusOf(server, w.applicationId)).toBe('DISPUTED');
  });

  it('a dispute needs a reason, paid work and a party; completed work takes none', async () => {
    const w = await paidWork(server, mode);
    expect((await openDispute(server, w.buyer.http, w.applicationId, '  ')).refusal).toBe(
      'Please give a reason for the dispute',
    );
    const done = await paidWork(server, mode);
    await approve(done);
    expect((await openDispute(server, done.buyer.http, done.applicationId, 'Too late')).refusal).toBe(
      'This work is completed and can no longer change.',
    );
  });

  it('an operator’s malformed resolution is refused with 400 and changes nothing', async () => {
    const w = await paidWork(server, mode);
    await openDispute(server, w.buyer.http, w.applicationId, 'Late');
    for (const body of [
      { applicationId: w.applicationId, outcome: 'everything' },
      { applicationId: w.applicationId, outcome: 'split', freelancerAmount: -1 },
      { applicationId: w.applicationId, outcome: 'split', freelancerAmount: 1.5 },
      { applicationId: w.applicationId, outcome: 'refund', note: 'x' },
      { applicationId: { toString: 'x' }, outcome: 'refund' },
      { outcome: 'refund' },
    ]) {
      const res = await operator.http.post<{ error?: string }>('/api/operator/disputes/resolve', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await resolveDispute(operator.http, 'toString', 'refund')).status).toBe(404);
    expect(statusOf(server, w.applicationId)).toBe('DISPUTED');
  });

  it('nothing of the operator area exists for anyone else; an operator cannot resolve their own dispute', async () => {
    const w = await disputed();
    for (const client of [w.buyer.http, w.seller.http, new TestClient(server.url)]) {
      const list = await client.get('/api/operator/disputes');
      expect(list.status).toBe(404);
      expect(list.body).toEqual({ error: 'Not found' });
      const resolve = await resolveDispute(client, w.applicationId, 'refund');
      expect(resolve.status).toBe(404);
    }
    expect(statusOf(server, w.applicationId)).toBe('DISPUTED');
    const own = await paidWork(server, mode, 45000, operator);
    await openDispute(server, own.seller.http, own.applicationId, 'Not paid for extra rounds');
    expect((await resolveDispute(operator.http, own.applicationId, 'release')).body).toEqual({
      error: 'An operator cannot resolve a dispute they take part in.',
    });
    expect(statusOf(server, own.applicationId)).toBe('DISPUTED');
    expect((await w.buyer.http.get<{ operator?: boolean }>('/api/auth/session')).body.operator).toBeUndefined();
    expect((await operator.http.get<{ operator?: boolean }>('/api/auth/session')).body.operator).toBe(true);
  });
});
