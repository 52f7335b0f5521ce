import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../shared/constants';
import { gateDecisions } from '../support/decision-gate';
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
 * dispute refused, or the dispute with nothing paid out. First with the interleaving under the
 * test's control, so that each of the three wins in some round (decision 031, revised), then left
 * to the event loop. Runs on both stores.
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

type Contender = 'approve' | 'release' | 'dispute';
type Doc = Record<string, unknown>;

/** Which contender a decision on `applicationId` is, by what it would write. */
const contenderOf =
  (applicationId: string) =>
  (writes: { collection: string; doc: Doc }[]): Contender | undefined => {
    const doc = writes.find((w) => w.collection === 'applications' && w.doc.id === applicationId)?.doc;
    if (doc?.status === 'DISPUTED') return 'dispute';
    if (doc?.status !== 'SETTLING') return undefined;
    const by = (doc.settlement as { by?: string } | undefined)?.by;
    return by === 'buyer' ? 'approve' : by === 'automatic' ? 'release' : undefined;
  };

/**
 * One race on delivered work whose release date has passed: the three contenders are started
 * while one another's decisions are in flight (each held by the gate once it has read the work and
 * is about to claim it), and `winner`'s claim is let through first. Approve and the automatic
 * release take the application's lock in this process, so the second of them to start waits there
 * (on several instances it would meet the others at the store's decision instead).
 */
async function race(winner: Contender, others: [Contender, Contender]) {
  const w = await paidWork(server, SIMULATED);
  await onboard(server, SIMULATED, w.seller);
  await submitWork(server, w, `Delivery for ${winner}`);
  clock.advance(14 * DAY_MS + 1);
  const gate = gateDecisions(server.ctx.store, contenderOf(w.applicationId));
  const started: Partial<Record<Contender, Promise<unknown>>> = {};
  const start = (c: Contender) => {
    started[c] =
      c === 'approve'
        ? approve(w)
        : c === 'dispute'
          ? openDispute(server, w.buyer.http, w.applicationId, 'Not as agreed')
          : server.timers.runDue();
  };
  try {
    start(winner);
    await gate.arrived(winner);
    for (const c of others) {
      const lockTaken = c !== 'dispute' && (started.approve !== undefined || started.release !== undefined);
      start(c);
      if (!lockTaken) await gate.arrived(c);
    }
    await gate.release(winner);
    for (const c of gate.holding()) await gate.release(c);
    await Promise.all(Object.values(started));
    const approval = (await started.approve) as Awaited<ReturnType<typeof approve>>;
    const dispute = (await started.dispute) as Awaited<ReturnType<typeof openDispute>>;
    return { w, approval, dispute };
  } finally {
    gate.close();
  }
}

/** The one outcome the application ended in, checked whole: money, ledger, answers and notices. */
async function outcomeOf(
  w: Work,
  approval: Awaited<ReturnType<typeof approve>>,
  dispute: Awaited<ReturnType<typeof openDispute>>,
): Promise<Contender> {
  const app = current(server, w.applicationId);
  const transfers = transfersOf(w.applicationId);
  const notes = [...(await notificationsOf(w.seller.http))].filter((n) => n.applicationId === w.applicationId);
  if (app.status === 'COMPLETED') {
    const by = (app.settlement as { by: string }).by;
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
    expect(notes.filter((n) => n.type === (by === 'buyer' ? 'GIG_COMPLETED' : 'PAYMENT_RELEASED'))).toHaveLength(1);
    // The buyer's approval paid, or found it paid: never an error, never a second payout.
    expect(approval.body).toMatchObject({ success: true, payout: 'sent', amount: 40500 });
    return by === 'buyer' ? 'approve' : 'release';
  }
  expect(app.status).toBe('DISPUTED');
  expect(transfers).toHaveLength(0);
  expect(app.settlement).toBeUndefined();
  expect(approval.status).toBe(409);
  expect(balanceOf(server, w.applicationId)).toMatchObject({ transferred: 0, refunded: 0, held: 45000 });
  expect(notes.filter((n) => n.type === 'DISPUTE_OPENED')).toHaveLength(1);
  return 'dispute';
}

describe('concurrent approve + automatic release + dispute on one application', () => {
  it('each of the three wins when its claim comes first, and exactly one outcome holds every time', async () => {
    const rounds: [Contender, [Contender, Contender]][] = [
      ['approve', ['dispute', 'release']],
      ['approve', ['release', 'dispute']],
      ['release', ['dispute', 'approve']],
      ['release', ['approve', 'dispute']],
      ['dispute', ['approve', 'release']],
      ['dispute', ['release', 'approve']],
    ];
    const winners = new Set<Contender>();
    for (const [winner, others] of rounds) {
      const { w, approval, dispute } = await race(winner, others);
      const won = await outcomeOf(w, approval, dispute);
      expect(won, `round won by ${winner} first, then ${others.join(', ')}`).toBe(winner);
      winners.add(won);
    }
    expect([...winners].sort()).toEqual(['approve', 'dispute', 'release']);
  });

  it('left to the event loop, they end in exactly one outcome, whichever starts first', async () => {
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

    for (const { w, approval, dispute } of answers) await outcomeOf(w, approval, dispute);
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
