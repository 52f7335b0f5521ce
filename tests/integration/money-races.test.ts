import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../shared/constants';
import { startTestServer, type TestServer } from '../support/in-process-server';
import {
  approve,
  balanceOf,
  current,
  notificationsOf,
  onboard,
  openDispute,
  paidWork,
  submitWork,
  testClock,
  type Mode,
  type Work,
} from '../support/work';

/**
 * Issue 15: "A buyer's money always ends in exactly one of: paid out, refunded, split by an
 * operator". The buyer's approval, the automatic release and a dispute racing on one delivered
 * application end in exactly one outcome: one payout (by the buyer or automatically) with the
 * dispute refused, or the dispute with nothing paid out. Runs on both stores.
 */

const SIMULATED: Mode = { name: 'simulated' };
const clock = testClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent', TIMER_INTERVAL_MS: '3600000' }, undefined, { now: clock.now });
});
afterAll(async () => {
  await server.cleanup();
});

const transfersOf = (applicationId: string) =>
  [...server.ctx.store.all('ledger')].filter((d) => d.kind === 'sim_transfer' && d.transferGroup === applicationId);

describe('concurrent approve + automatic release + dispute on one application', () => {
  it('end in exactly one outcome, whichever starts first', async () => {
    const works: Work[] = [];
    for (let i = 0; i < 6; i++) {
      const w = await paidWork(server, SIMULATED);
      await onboard(server, SIMULATED, w.seller);
      await submitWork(server, w, `Delivery ${i}`);
      works.push(w);
    }
    clock.advance(14 * DAY_MS);

    // Each application's three moves start in another order; the timer looks once for all of them.
    const answers = await Promise.all(
      works.map(async (w, i) => {
        let approval!: ReturnType<typeof approve>;
        let dispute!: ReturnType<typeof openDispute>;
        let timer!: Promise<number>;
        const starts = [
          () => (approval = approve(w)),
          () => (dispute = openDispute(server, w.buyer.http, w.applicationId, 'Not as agreed')),
          () => (timer = server.timers.runDue()),
        ];
        for (let k = 0; k < 3; k++) starts[(i + k) % 3]!();
        await timer;
        return { w, approval: await approval, dispute: await dispute };
      }),
    );
    await server.timers.runDue();

    const outcomes = new Set<string>();
    for (const { w, approval, dispute } of answers) {
      const app = current(server, w.applicationId);
      const transfers = transfersOf(w.applicationId);
      const notes = [...(await notificationsOf(w.seller.http))].filter((n) => n.applicationId === w.applicationId);
      if (app.status === 'COMPLETED') {
        const by = (app.settlement as { by: string }).by;
        outcomes.add(`paid out (${by})`);
        expect(['buyer', 'automatic']).toContain(by);
        expect(transfers).toHaveLength(1);
        expect(dispute.refusal ?? (dispute.master?.status !== 'DISPUTED' ? 'conflict' : undefined)).toBeDefined();
        expect(app.dispute).toBeUndefined();
        expect(balanceOf(server, w.applicationId)).toEqual({
          charged: 46350,
          transferred: 40500,
          refunded: 0,
          platformKept: 5850,
          held: 0,
        });
        // One notice of the payout, from the path that won.
        expect(notes.filter((n) => n.type === 'GIG_COMPLETED' || n.type === 'PAYMENT_RELEASED')).toHaveLength(1);
        if (by === 'buyer') expect(approval.body).toMatchObject({ success: true });
      } else {
        outcomes.add('disputed');
        expect(app.status).toBe('DISPUTED');
        expect(transfers).toHaveLength(0);
        expect(app.settlement).toBeUndefined();
        expect(approval.status).toBe(409);
        expect(balanceOf(server, w.applicationId)).toMatchObject({ transferred: 0, refunded: 0, held: 45000 });
        expect(notes.filter((n) => n.type === 'DISPUTE_OPENED')).toHaveLength(1);
      }
    }
    console.log(`money races: outcomes seen ${[...outcomes].join(', ')}`);
  });

  it('fifty approvals racing the automatic release still pay once', async () => {
    const w = await paidWork(server, SIMULATED);
    await onboard(server, SIMULATED, w.seller);
    await submitWork(server, w, 'Final');
    clock.advance(14 * DAY_MS);
    const answers = await Promise.all([server.timers.runDue(), ...Array.from({ length: 50 }, () => approve(w))]);
    expect(current(server, w.applicationId).status).toBe('COMPLETED');
    expect(transfersOf(w.applicationId)).toHaveLength(1);
    const approvals = answers.slice(1) as Awaited<ReturnType<typeof approve>>[];
    // Each approval either paid, found it paid, or found the automatic release under way.
    for (const a of approvals) expect([200, 409]).toContain(a.status);
    expect(balanceOf(server, w.applicationId).held).toBe(0);
  });
});
