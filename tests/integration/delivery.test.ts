import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DAY_MS } from '../../shared/constants';
import { pullAll, signUpWithProfile, write } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { releaseStore } from '../support/store-under-test';
import {
  acceptedOffer,
  approve,
  balanceOf,
  current,
  move,
  notificationsOf,
  onboard,
  openDispute,
  paidWork,
  requestChanges,
  statusOf,
  submitWork,
  testClock,
  type Mode,
} from '../support/work';

/**
 * Issue 15, delivery: the freelancer submits work, the buyer approves and pays or requests changes,
 * and delivered work the buyer leaves unanswered is paid out automatically after AUTO_RELEASE_DAYS,
 * exactly once, with a clock the test controls.
 */

const SIMULATED: Mode = { name: 'simulated' };
const ENV = { LOG_LEVEL: 'silent', TIMER_INTERVAL_MS: '3600000' };
const clock = testClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(ENV, undefined, { now: clock.now });
});
afterAll(async () => {
  await server.cleanup();
});

const transfersOf = (s: TestServer, applicationId: string) =>
  [...s.ctx.store.all('ledger')].filter((d) => d.kind === 'sim_transfer' && d.transferGroup === applicationId);

describe('delivery → approve and pay', () => {
  it('the freelancer submits a note and a link: DELIVERED, kept with the server’s time, the buyer told, the release date 14 days on', async () => {
    const w = await paidWork(server, SIMULATED);
    await onboard(server, SIMULATED, w.seller);
    const { refusal } = await submitWork(server, w, 'Final poster, print-ready', 'https://files.example/poster.pdf');
    expect(refusal).toBeUndefined();
    const app = current(server, w.applicationId);
    expect(app).toMatchObject({
      status: 'DELIVERED',
      submissions: [
        { note: 'Final poster, print-ready', link: 'https://files.example/poster.pdf', submittedAt: clock.at },
      ],
      deliveredAt: clock.at,
      autoReleaseAt: clock.at + 14 * DAY_MS,
    });
    expect(await notificationsOf(w.buyer.http)).toContainEqual(
      expect.objectContaining({ type: 'WORK_DELIVERED', applicationId: w.applicationId }),
    );

    const approved = await approve(w);
    expect(approved.body).toEqual({ success: true, payout: 'sent', amount: 40500 });
    expect(statusOf(server, w.applicationId)).toBe('COMPLETED');
    expect(current(server, w.applicationId)).toMatchObject({
      autoReleaseAt: null,
      settlement: { kind: 'release', by: 'buyer', toFreelancer: 40500, refund: 0, settledAt: clock.at },
    });
    expect(transfersOf(server, w.applicationId)).toHaveLength(1);
    expect(balanceOf(server, w.applicationId)).toEqual({
      charged: 46350,
      transferred: 40500,
      refunded: 0,
      platformKept: 5850,
      held: 0,
    });
    // Nothing is left to release automatically.
    clock.advance(15 * DAY_MS);
    await server.timers.runDue();
    expect(transfersOf(server, w.applicationId)).toHaveLength(1);
  });

  it('refuses a submission without a note, with a link that is not http(s), and from anyone but the freelancer', async () => {
    const w = await paidWork(server, SIMULATED);
    expect((await submitWork(server, w, '   ')).refusal).toBe('Please describe the work you are submitting');
    expect((await submitWork(server, w, 'ok', 'javascript:alert(1)')).refusal).toBe('Please enter a valid URL');
    expect((await submitWork(server, w, 'x'.repeat(2001))).refusal).toBeDefined();
    const byBuyer = await move(server, w.buyer.http, w.applicationId, (doc) => ({
      ...doc,
      status: 'DELIVERED',
      submissions: [{ note: 'Forged delivery', submittedAt: 1 }],
    }));
    expect(byBuyer.refusal).toBe('Only the freelancer on this work can submit it.');
    expect(statusOf(server, w.applicationId)).toBe('IN_PROGRESS');
  });
});

describe('delivery → request changes → delivery → automatic release', () => {
  it('pays out once after 14 days unanswered, tells both, and never again (also after a restart)', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-release-'));
    const own = testClock();
    let s = await startTestServer(ENV, dir, { now: own.now });
    onTestFinished(async () => {
      await s.close();
      await fs.rm(dir, { recursive: true, force: true });
      await releaseStore(dir);
    });
    const w = await paidWork(s, SIMULATED);
    await onboard(s, SIMULATED, w.seller);

    await submitWork(s, w, 'First cut');
    own.advance(2 * DAY_MS);
    expect((await requestChanges(s, w, 'Warmer colours, please')).refusal).toBeUndefined();
    expect(current(s, w.applicationId)).toMatchObject({ status: 'IN_PROGRESS', autoReleaseAt: null });
    expect(await notificationsOf(w.seller.http)).toContainEqual(
      expect.objectContaining({
        type: 'CHANGES_REQUESTED',
        message: expect.stringContaining('Warmer colours, please'),
      }),
    );
    own.advance(DAY_MS);
    await submitWork(s, w, 'Second cut, warmer');
    const delivered = own.at;
    expect(current(s, w.applicationId)).toMatchObject({
      status: 'DELIVERED',
      autoReleaseAt: delivered + 14 * DAY_MS,
      submissions: [
        { note: 'First cut', changesRequested: { note: 'Warmer colours, please' } },
        { note: 'Second cut, warmer', submittedAt: delivered },
      ],
    });

    own.advance(14 * DAY_MS - 60_000);
    expect(await s.timers.runDue()).toBe(0);
    expect(statusOf(s, w.applicationId)).toBe('DELIVERED');

    own.advance(60_000);
    await s.timers.runDue();
    expect(current(s, w.applicationId)).toMatchObject({
      status: 'COMPLETED',
      completedAt: own.at,
      settlement: { kind: 'release', by: 'automatic', toFreelancer: 40500 },
    });
    const message = 'Payment released automatically after 14 days for “Poster design”';
    for (const client of [w.buyer.http, w.seller.http])
      expect(
        (await notificationsOf(client)).filter((n) => n.type === 'PAYMENT_RELEASED').map((n) => n.message),
      ).toEqual([message]);
    expect(transfersOf(s, w.applicationId).map((t) => (t as Record<string, unknown>).amount)).toEqual([40500]);
    expect(balanceOf(s, w.applicationId).held).toBe(0);

    own.advance(DAY_MS);
    await s.timers.runDue();
    await s.close();
    s = await startTestServer(ENV, dir, { now: own.now });
    await s.timers.runDue();
    expect(transfersOf(s, w.applicationId)).toHaveLength(1);
    const released = [...s.ctx.store.all('notifications')].filter(
      (n) => n.type === 'PAYMENT_RELEASED' && n.applicationId === w.applicationId,
    );
    expect(released.map((n) => n.userId).sort()).toEqual([w.buyer.user.id, w.seller.user.id].sort());
  });

  it('a restart before the date keeps it: the timer is derived from the stored date', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-release-'));
    const own = testClock();
    let s = await startTestServer(ENV, dir, { now: own.now });
    onTestFinished(async () => {
      await s.close();
      await fs.rm(dir, { recursive: true, force: true });
      await releaseStore(dir);
    });
    const w = await paidWork(s, SIMULATED);
    await submitWork(s, w, 'Done');
    await s.close();
    own.advance(14 * DAY_MS);
    s = await startTestServer(ENV, dir, { now: own.now });
    await s.timers.runDue();
    // No payout account yet: completed, the payout held for the freelancer.
    expect(statusOf(s, w.applicationId)).toBe('COMPLETED');
    expect(s.ctx.store.get('ledger', `transfer:${w.applicationId}`)).toMatchObject({ status: 'held', amount: 40500 });
    const note = [...s.ctx.store.all('notifications')].find(
      (n) => n.type === 'PAYMENT_RELEASED' && n.userId === w.seller.user.id,
    )!;
    expect(note.message).toContain('Set up payouts in Settings');
  });

  it('AUTO_RELEASE_DAYS sets the wait; a dispute freezes it', async () => {
    const own = testClock();
    const s = await startTestServer({ ...ENV, AUTO_RELEASE_DAYS: '3' }, undefined, { now: own.now });
    onTestFinished(() => s.cleanup());
    const released = await paidWork(s, SIMULATED);
    const disputed = await paidWork(s, SIMULATED);
    await submitWork(s, released, 'Done');
    await submitWork(s, disputed, 'Done too');
    expect(current(s, released.applicationId).autoReleaseAt).toBe(own.at + 3 * DAY_MS);
    expect(
      (await openDispute(s, disputed.buyer.http, disputed.applicationId, 'The files do not open')).refusal,
    ).toBeUndefined();
    expect(current(s, disputed.applicationId)).toMatchObject({ status: 'DISPUTED', autoReleaseAt: null });
    own.advance(3 * DAY_MS);
    await s.timers.runDue();
    expect(statusOf(s, released.applicationId)).toBe('COMPLETED');
    expect((await notificationsOf(released.seller.http)).find((n) => n.type === 'PAYMENT_RELEASED')!.message).toContain(
      'after 3 days',
    );
    expect(statusOf(s, disputed.applicationId)).toBe('DISPUTED');
    expect(balanceOf(s, disputed.applicationId)).toMatchObject({ transferred: 0, refunded: 0, held: 45000 });
  });

  it('a zero-budget delivery completes automatically with nothing to pay', async () => {
    const w = await acceptedOffer(server, 0);
    await submitWork(server, w, 'For the love of it');
    clock.advance(14 * DAY_MS);
    await server.timers.runDue();
    expect(statusOf(server, w.applicationId)).toBe('COMPLETED');
    expect(server.ctx.store.get('ledger', `transfer:${w.applicationId}`)).toBeUndefined();
  });
});

describe('moves that arrive late are judged when they arrive', () => {
  it('a "Request changes" written against delivered work that was released meanwhile is refused, or answered with the server’s state', async () => {
    const w = await paidWork(server, SIMULATED);
    await submitWork(server, w, 'Done');
    const seenByBuyer = current(server, w.applicationId);
    clock.advance(14 * DAY_MS);
    await server.timers.runDue();
    expect(statusOf(server, w.applicationId)).toBe('COMPLETED');

    const withChanges = (doc: Record<string, unknown>) => {
      const submissions = [...(doc.submissions as Record<string, unknown>[])];
      submissions[0] = { ...submissions[0], changesRequested: { note: 'Please redo the lettering', at: 1 } };
      return { ...doc, status: 'IN_PROGRESS', submissions, autoReleaseAt: null };
    };
    // Pushed against the version the device had: a conflict, answered with the server's state.
    const stale = await write(w.buyer.http, 'applications', withChanges(seenByBuyer), seenByBuyer);
    expect(stale.master).toMatchObject({ status: 'COMPLETED' });
    // Pushed again on the server's version (the device's conflict handler does not): refused with why.
    const now = current(server, w.applicationId);
    const again = await write(w.buyer.http, 'applications', withChanges(now), now);
    expect(again.refusal).toBe('This work is completed and can no longer change.');
    expect(statusOf(server, w.applicationId)).toBe('COMPLETED');
  });

  it('nobody but the two parties sees delivered work', async () => {
    const w = await paidWork(server, SIMULATED);
    await submitWork(server, w, 'Secret draft', 'https://files.example/draft');
    const stranger = new TestClient(server.url);
    await signUpWithProfile(stranger);
    const seen = (await pullAll(stranger, 'applications')).documents.map((d) => d.id);
    expect(seen).not.toContain(w.applicationId);
  });
});
