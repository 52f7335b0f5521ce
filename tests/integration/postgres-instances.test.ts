import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesEvent, SyncDocument } from '../../shared/sync/protocol';
import { TestClient } from '../support/http-client';
import { startTestCluster } from '../support/postgres/cluster';
import { createTestDatabase } from '../support/postgres/database';
import { startServerProcess } from '../support/crash/killable-server';
import {
  applicationDoc,
  gigDoc,
  isoDay,
  pullAll,
  signUpWithProfile,
  write,
  type SignedUpUser,
} from '../support/fixtures';
import { testClock } from '../support/work';
import { SHARED_ORIGIN, startInstances, type Instances } from '../support/postgres/instances';
import { openStream } from '../support/sse';
import { waitFor } from '../support/wait';

/**
 * Three server instances on one PostgreSQL database behind one address (docs/decisions/023):
 * every request of a user may land on any of them, and what one instance commits reaches the
 * streams of all.
 */

let cluster: Instances;
beforeAll(async () => {
  cluster = await startInstances(3);
});
afterAll(async () => {
  await cluster?.close();
});

type Someone = { http: TestClient; user: SignedUpUser };

/** A user whose requests are spread over the instances; retried only where the test says so. */
async function someone(name: string): Promise<Someone> {
  const http = cluster.client();
  return { http, user: await signUpWithProfile(http, { name }) };
}

const stream = (i: number, who: Someone) => openStream(`${cluster.urls[i]}/api/sync/stream`, who.http.cookieHeader());

type Stream = Awaited<ReturnType<typeof stream>>;

/** The documents of `collection` a stream has received, by id, newest version last. */
function received(s: Stream, collection: string): Map<string, SyncDocument> {
  const docs = new Map<string, SyncDocument>();
  for (const e of s.events) {
    if (e.event !== 'changes') continue;
    const data = e.data as ChangesEvent;
    if (data.collection !== collection) continue;
    for (const d of data.documents) docs.set(d.id, d);
  }
  return docs;
}

async function pay(buyer: Someone, applicationId: string): Promise<string> {
  const checkout = await buyer.http.post<{ sessionId: string }>('/api/payments/checkout', { applicationId });
  expect(checkout.status).toBe(200);
  const { sessionId } = checkout.body;
  const paid = await buyer.http.post(`/api/payments/simulated/checkout/${sessionId}/pay`, {});
  expect(paid.status).toBe(200);
  return sessionId;
}

async function onboard(seller: Someone): Promise<void> {
  const connect = await seller.http.post<{ accountLink: string }>('/api/stripe/create-connect-account', {
    email: seller.user.email,
    userId: seller.user.id,
    hostname: 'gigs.test',
  });
  expect(connect.status).toBe(200);
  const done = await seller.http.post(new URL(connect.body.accountLink).pathname, {});
  expect(done.status).toBe(200);
}

/** A gig with an application by `seller`, offered and accepted: PENDING_PAYMENT. */
async function acceptedOffer(buyer: Someone, seller: Someone, title: string, finalBudget = 50_000) {
  const gig = (await write(buyer.http, 'gigs', gigDoc({ title }))).master!;
  const applied = await write(seller.http, 'applications', applicationDoc(String(gig.id), seller.user.id));
  expect(applied.refusal).toBeUndefined();
  const offered = await write(
    buyer.http,
    'applications',
    { ...applied.master!, status: 'PENDING_ACCEPTANCE', finalBudget },
    applied.master!,
  );
  expect(offered.refusal).toBeUndefined();
  const accepted = await write(
    seller.http,
    'applications',
    { ...offered.master!, status: 'IN_PROGRESS' },
    offered.master!,
  );
  expect(accepted.refusal).toBeUndefined();
  expect(accepted.master!.status).toBe('PENDING_PAYMENT');
  return { gigId: String(gig.id), applicationId: String(accepted.master!.id) };
}

describe('users spread over three instances', () => {
  it('hire, pay and complete, and every stream on every instance sees what its user may see, no more', async () => {
    const buyer = await someone('Bea Spread');
    const seller = await someone('Sam Spread');
    const stranger = await someone('Stan Spread');
    const streams = {
      buyer: await stream(0, buyer),
      seller: await stream(1, seller),
      stranger: await stream(2, stranger),
    };
    try {
      const { gigId, applicationId } = await acceptedOffer(buyer, seller, 'Mural across instances');
      await onboard(seller);
      await pay(buyer, applicationId);
      const done = await buyer.http.post('/api/gigs/complete-gig', {
        gigId,
        applicationId,
        userId: buyer.user.id,
        userType: 'buyer',
      });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ success: true, payout: 'sent', amount: 45_000 });

      // Each stream, on its own instance, ends with the application completed (or never sees it).
      for (const who of ['buyer', 'seller'] as const)
        await waitFor(
          `the ${who}'s stream shows the completion`,
          () => received(streams[who], 'applications').get(applicationId)?.status === 'COMPLETED',
        );
      await waitFor('the stranger sees the gig', () => received(streams.stranger, 'gigs').has(gigId));
      expect(received(streams.stranger, 'applications').size).toBe(0);
      const types = (s: Stream) => [...received(s, 'notifications').values()].map((n) => n.type).sort();
      await waitFor('the seller is told of the payment and the completion', () =>
        ['GIG_COMPLETED', 'PAYMENT_CONFIRMED'].every((t) => types(streams.seller).includes(t)),
      );
      expect(types(streams.stranger)).toEqual([]);
      for (const n of received(streams.buyer, 'notifications').values()) expect(n.userId).toBe(buyer.user.id);

      // Whichever instance answers, the pulls agree.
      for (const url of cluster.urls) {
        const pinned = cluster.on(cluster.urls.indexOf(url), seller.http.sessionToken());
        const { documents } = await pullAll(pinned, 'applications');
        expect(documents.find((d) => d.id === applicationId)).toMatchObject({ status: 'COMPLETED' });
      }
    } finally {
      for (const s of Object.values(streams)) s.close();
    }
  });

  it('a device that resumes on another instance gets from its checkpoint exactly what changed, once', async () => {
    const owner = await someone('Olga Resume');
    const first = await pullAll(cluster.on(0, owner.http.sessionToken()), 'gigs');
    const titles = Array.from({ length: 12 }, (_, i) => `Resume ${i}`);
    // Written through every instance at once.
    await Promise.all(titles.map((title) => write(owner.http, 'gigs', gigDoc({ title }))));
    const resumed = await pullAll(cluster.on(2, owner.http.sessionToken()), 'gigs', first.checkpoint.seq);
    const mine = resumed.documents.filter((d) => d.createdBy === owner.user.id).map((d) => d.title);
    expect(mine.sort()).toEqual([...titles].sort());
    expect(new Set(resumed.documents.map((d) => d.id)).size).toBe(resumed.documents.length);
    // And from there, on the third instance, nothing again.
    const again = await pullAll(cluster.on(1, owner.http.sessionToken()), 'gigs', resumed.checkpoint.seq);
    expect(again.documents.filter((d) => d.createdBy === owner.user.id)).toEqual([]);
  });

  it('a logout on one instance ends that session’s streams on the others, and its cookie is refused everywhere', async () => {
    const user = await someone('Lou Logout');
    const token = user.http.sessionToken();
    const open = [await stream(1, user), await stream(2, user)];
    const out = await cluster.on(0, token).post('/api/auth/logout', {});
    expect(out.status).toBe(200);
    await Promise.all(open.map((s) => s.ended));
    for (let i = 0; i < 3; i++) expect((await cluster.on(i, token).get('/api/auth/session')).status).toBe(401);
  });
});

describe('exactly once, whatever the number of instances', () => {
  it('six checkouts at once over three instances open one session; nine completions pay one transfer', async () => {
    const buyer = await someone('Bea Once');
    const seller = await someone('Sam Once');
    const { gigId, applicationId } = await acceptedOffer(buyer, seller, 'Exactly once', 20_000);
    await onboard(seller);

    const checkouts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        cluster
          .on(i % 3, buyer.http.sessionToken())
          .post<{ sessionId: string }>('/api/payments/checkout', { applicationId }),
      ),
    );
    expect(checkouts.map((c) => c.status)).toEqual(Array(6).fill(200));
    expect(new Set(checkouts.map((c) => c.body.sessionId)).size).toBe(1);
    const store = cluster.servers[0]!.ctx.store;
    await store.catchUp();
    const ledger = [...store.all('ledger')].filter(
      (d) => !d._deleted && 'applicationId' in d && d.applicationId === applicationId,
    );
    expect(ledger.filter((d) => d.kind === 'checkout')).toHaveLength(1);

    const paid = await buyer.http.post(`/api/payments/simulated/checkout/${checkouts[0]!.body.sessionId}/pay`, {});
    expect(paid.status).toBe(200);
    const completions = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        cluster.on(i % 3, buyer.http.sessionToken()).post('/api/gigs/complete-gig', {
          gigId,
          applicationId,
          userId: buyer.user.id,
          userType: 'buyer',
        }),
      ),
    );
    expect(completions.map((c) => c.status)).toEqual(Array(9).fill(200));
    expect(completions.filter((c) => !c.body.alreadyCompleted).length).toBeGreaterThanOrEqual(1);
    await store.catchUp();
    const forThis = [...store.all('ledger')].filter(
      (d) =>
        !d._deleted &&
        d.kind === 'sim_transfer' &&
        (d.metadata as { applicationId?: string } | undefined)?.applicationId === applicationId,
    );
    expect(forThis).toHaveLength(1);
    expect(store.get('ledger', `transfer:${applicationId}`)).toMatchObject({ status: 'sent', amount: 18_000 });
    const notes = (await pullAll(seller.http, 'notifications')).documents;
    expect(notes.filter((n) => n.type === 'GIG_COMPLETED' && n.applicationId === applicationId)).toHaveLength(1);
    expect(notes.filter((n) => n.type === 'PAYMENT_CONFIRMED' && n.applicationId === applicationId)).toHaveLength(1);
  });

  it('[issue 15] delivered work is released automatically once, with three instances looking at the same moment', async () => {
    const clock = testClock();
    const three = await startInstances(3, { TIMER_INTERVAL_MS: '3600000' }, undefined, { now: clock.now });
    try {
      const client = () => three.client();
      const buyer = { http: client(), user: undefined as unknown as SignedUpUser };
      buyer.user = await signUpWithProfile(buyer.http, { name: 'Bea Release' });
      const seller = { http: client(), user: undefined as unknown as SignedUpUser };
      seller.user = await signUpWithProfile(seller.http, { name: 'Sam Release' });
      const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Released once', projectDeadline: isoDay(365) })))
        .master!;
      const applied = (await write(seller.http, 'applications', applicationDoc(String(gig.id), seller.user.id)))
        .master!;
      const offered = (
        await write(
          buyer.http,
          'applications',
          { ...applied, status: 'PENDING_ACCEPTANCE', finalBudget: 30_000 },
          applied,
        )
      ).master!;
      const accepted = (await write(seller.http, 'applications', { ...offered, status: 'IN_PROGRESS' }, offered))
        .master!;
      const applicationId = String(accepted.id);
      const checkout = await buyer.http.post<{ sessionId: string }>('/api/payments/checkout', { applicationId });
      expect(
        (await buyer.http.post(`/api/payments/simulated/checkout/${checkout.body.sessionId}/pay`, {})).status,
      ).toBe(200);
      const connect = await seller.http.post<{ accountLink: string }>('/api/stripe/create-connect-account', {
        email: seller.user.email,
        userId: seller.user.id,
      });
      expect((await seller.http.post(new URL(connect.body.accountLink).pathname, {})).status).toBe(200);
      const store = three.servers[0]!.ctx.store;
      await store.catchUp();
      const paid = store.get('applications', applicationId)!;
      const delivered = await write(
        seller.http,
        'applications',
        { ...paid, _seq: undefined, status: 'DELIVERED', submissions: [{ note: 'Done', submittedAt: 1 }] },
        paid,
      );
      expect(delivered.refusal).toBeUndefined();

      clock.advance(14 * 24 * 60 * 60 * 1000);
      await Promise.all(three.servers.flatMap((s) => [s.timers.runDue(), s.timers.runDue()]));
      await Promise.all(three.servers.map((s) => s.ctx.store.catchUp()));
      expect(store.get('applications', applicationId)).toMatchObject({
        status: 'COMPLETED',
        settlement: { by: 'automatic' },
      });
      const transfers = [...store.all('ledger')].filter(
        (d) => !d._deleted && d.kind === 'sim_transfer' && d.transferGroup === applicationId,
      );
      expect(transfers).toHaveLength(1);
      const released = [...store.all('notifications')].filter(
        (n) => n.type === 'PAYMENT_RELEASED' && n.applicationId === applicationId,
      );
      expect(released).toHaveLength(2);
    } finally {
      await three.close();
    }
  });

  it('one sign-up per email when the same sign-up lands on three instances at once', async () => {
    const email = `race-${Date.now()}@example.com`;
    const body = {
      name: 'Rae Race',
      email,
      password: 'Str0ngPassword',
      confirmPassword: 'Str0ngPassword',
      termsAccepted: true,
    };
    const answers = await Promise.all([0, 1, 2, 0, 1, 2].map((i) => cluster.on(i).post('/api/auth/signup', body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error)).toEqual(
      Array(5).fill('An account with this email already exists. Please log in instead.'),
    );
  });
});

// A cluster of its own, and child servers: slow to start on a loaded machine.
describe('PostgreSQL restarting under the instances', { timeout: 120_000 }, () => {
  it('answers 503 with a clear message while the database is down, serves reads from memory, and recovers by itself', async () => {
    const own = await startTestCluster();
    const db = await createTestDatabase(own.adminUrl);
    const pair = await startInstances(2, {}, db);
    try {
      const writer = pair.client();
      const user = await signUpWithProfile(writer, { name: 'Rhea Restart' });
      const before = (await write(writer, 'gigs', gigDoc({ title: 'Before the restart' }))).master!;
      const watcher = openStream(`${pair.urls[1]}/api/sync/stream`, writer.cookieHeader());
      const events = await watcher;
      // Each instance learns of the other's writes from the database, a moment later: both hold
      // the gig before the database goes away (what an instance never read, it cannot serve).
      for (let i = 0; i < 2; i++)
        await waitFor(
          `the gig held by instance ${i}`,
          async () =>
            (await pullAll(pair.on(i, writer.sessionToken()), 'gigs')).documents.some((d) => d.id === before.id),
          15_000,
        );

      await own.stopServer();
      for (let i = 0; i < 2; i++) {
        const health = await pair.on(i).get('/api/health');
        expect(health.status).toBe(503);
        expect(health.body.error).toBe('The service is briefly unavailable. Please try again in a moment.');
        const refused = await pair
          .on(i, writer.sessionToken())
          .post('/api/sync/gigs/push', [
            { newDocumentState: { ...gigDoc({ title: 'While down' }), createdBy: user.id } },
          ]);
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('2');
        expect(refused.body.error).toBe('The service is briefly unavailable. Please try again in a moment.');
        // What the instance holds is still served.
        const pulled = await pullAll(pair.on(i, writer.sessionToken()), 'gigs');
        expect(pulled.documents.map((d) => d.id)).toContain(before.id);
      }

      await own.startServer();
      for (let i = 0; i < 2; i++)
        await waitFor(
          `instance ${i} healthy again`,
          async () => (await pair.on(i).get('/api/health')).status === 200,
          15_000,
        );
      const after = await write(pair.on(0, writer.sessionToken()), 'gigs', gigDoc({ title: 'After the restart' }));
      expect(after.refusal).toBeUndefined();
      // The other instance's stream, open through the outage, hears of it.
      await waitFor(
        'the write after the restart on the stream of the other instance',
        () =>
          events.events.some(
            (e) => e.event === 'changes' && (e.data as ChangesEvent).documents.some((d) => d.id === after.master!.id),
          ),
        10_000,
      );
      events.close();
    } finally {
      await pair.close();
      await own.stop();
    }
  });
});

describe('an instance killed mid-load', { timeout: 120_000 }, () => {
  it('loses no acknowledged write; the writers carry on through the other instances', async () => {
    const db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, PUBLIC_ORIGIN: SHARED_ORIGIN };
    const children = await Promise.all([0, 1, 2].map(() => startServerProcess(env)));
    try {
      const urls = children.map((c) => c.url);
      const owners = await Promise.all(
        [0, 1, 2, 3].map(async (i) => {
          const http = TestClient.spread(urls, SHARED_ORIGIN);
          return { http, user: await signUpWithProfile(http, { name: `Kim Kill ${i}` }) };
        }),
      );
      const acknowledged = new Set<string>();
      /** Every answer but a success, for the assertions' messages: status and error. */
      const answers: string[] = [];
      /** Requests that threw instead of answering, for the messages. */
      let threw = 0;
      /** What each write not acknowledged (yet) met, attempt by attempt, for the messages. */
      const unanswered = new Map<string, string[]>();
      let killed = false;
      const writer = async ({ http }: { http: TestClient }) => {
        for (let n = 0; n < 40; n++) {
          const doc = gigDoc({ title: `Load ${n}` });
          // A request cut off as the instance dies fails; the browser tries again, landing
          // elsewhere (the balancer sends a refused connection to another instance at once). A 503
          // ("try again in a moment") is tried again after a pause, as the app's sync does (it
          // waits at least a second); any other answer is a failure of the test.
          const met: string[] = [];
          unanswered.set(String(doc.id), met);
          for (let attempt = 0; attempt < 10; attempt++) {
            try {
              const res = await http.post<{ refused: unknown[]; error?: string }>('/api/sync/gigs/push', [
                { newDocumentState: doc },
              ]);
              if (res.status === 200 && res.body.refused.length === 0) {
                acknowledged.add(String(doc.id));
                unanswered.delete(String(doc.id));
                break;
              }
              answers.push(`${res.status} ${JSON.stringify(res.body)}`);
              met.push(String(res.status));
              if (res.status === 503)
                await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 100 * (attempt + 1))));
            } catch (err) {
              // Cut off by the killed instance (kept for the messages).
              threw++;
              met.push(String((err as { cause?: unknown }).cause ?? err));
            }
          }
          if (n === 10 && !killed) {
            killed = true;
            await children[1]!.kill();
          }
        }
      };
      await Promise.all(owners.map(writer));
      expect(killed).toBe(true);
      expect(
        answers.filter((a) => !a.startsWith('503 ')),
        'answers other than 503',
      ).toEqual([]);
      expect(
        acknowledged.size,
        `acknowledged; the writes not acknowledged met: ${JSON.stringify(Object.fromEntries(unanswered))}; ` +
          `other answers: ${answers.join('; ')}; ${threw} requests threw`,
      ).toBe(owners.length * 40);
      const reader = TestClient.spread([urls[0]!, urls[2]!], SHARED_ORIGIN);
      reader.setCookie('sid', owners[0]!.http.sessionToken()!);
      const { documents } = await pullAll(reader, 'gigs');
      const stored = new Set(documents.map((d) => d.id));
      for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    } finally {
      await Promise.all(children.map((c) => c.stop().catch(() => {})));
      await db.drop();
    }
  });
});
