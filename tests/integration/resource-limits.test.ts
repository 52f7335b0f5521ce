import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { LIMITS } from '../../shared/constants';
import type { ChangesEvent } from '../../shared/sync/protocol';
import { QUOTA_MESSAGES } from '../../shared/validation/quotas';
import { RateLimiter } from '../../sync-server/http/rate-limit';
import { WRITE_QUOTAS } from '../../sync-server/replication/quotas';
import { STREAM_LIMITS } from '../../sync-server/replication/stream';
import { gigDoc, PASSWORD, person, push, signUpWithProfile, type Person } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startNodeClient } from '../support/node-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { openStream } from '../support/sse';
import { waitFor } from '../support/wait';

/**
 * Issue 18, item 3: no one account may take unbounded server resources. Change streams per
 * session and per user are capped, a stream whose reader stops reading is dropped once it falls
 * behind (its client resumes from its checkpoint), and pushes are held to per-user quotas,
 * answered 429 with nothing written. Rate limits are on here, as shipped.
 */

/** Stream limits hold whatever RATE_LIMITS says; the quotas are tested on a server with them on. */
let server: TestServer;
let limited: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  limited = await startTestServer({ RATE_LIMITS: 'on' });
});
afterAll(async () => {
  await server.cleanup();
  await limited.cleanup();
});

type Stream = Awaited<ReturnType<typeof openStream>>;
const streamUrl = () => `${server.url}/api/sync/stream`;
const newRows = (count: number, overrides: Record<string, unknown> = {}) =>
  Array.from({ length: count }, () => ({ assumedMasterState: null, newDocumentState: gigDoc(overrides) }));
/** A gig as large as its fields allow. */
const bigGig = () => ({
  title: 'T'.repeat(LIMITS.titleMax),
  description: 'D'.repeat(LIMITS.descriptionMax),
  skills: 'S'.repeat(LIMITS.skillsMax),
});

/** A stream whose reader takes the headers and then never reads another byte. */
function unreadStream(cookie: string): Promise<http.ClientRequest> {
  const u = new URL(streamUrl());
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: u.hostname,
        port: Number(u.port),
        path: u.pathname,
        agent: false,
        headers: { cookie, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
        res.pause();
        resolve(req);
      },
    );
    req.on('error', () => {});
  });
}

describe('change streams', () => {
  it(`a session holds at most ${STREAM_LIMITS.perSession} streams: opening another closes its oldest`, async () => {
    const me = await person(server.url);
    const streams: Stream[] = [];
    for (let i = 0; i < STREAM_LIMITS.perSession + 2; i++) {
      const s = await openStream(streamUrl(), me.http.cookieHeader());
      expect(s.status).toBe(200);
      await s.waitFor((e) => e.event === 'hello');
      streams.push(s);
    }
    onTestFinished(() => streams.forEach((s) => s.close()));
    // The two oldest were ended by the server; the newest ones live and get changes.
    await Promise.all(streams.slice(0, 2).map((s) => s.ended));
    const gig = (await push(me.http, 'gigs', newRows(1))).body.conflicts[0]!;
    for (const s of streams.slice(2))
      await s.waitFor((e) => e.event === 'changes' && JSON.stringify(e.data).includes(gig.id as string));
    expect(server.streams.openFor(me.user.id)).toBe(STREAM_LIMITS.perSession);
  });

  it(`a user holds at most ${STREAM_LIMITS.perUser} streams over all their sessions`, async () => {
    const me = await person(server.url);
    const sessions = [me.http];
    const logins = Math.ceil(STREAM_LIMITS.perUser / STREAM_LIMITS.perSession);
    for (let i = 0; i < logins; i++) {
      const device = new TestClient(server.url);
      expect((await device.post('/api/auth/login', { email: me.user.email, password: PASSWORD })).status).toBe(200);
      sessions.push(device);
    }
    const streams: Stream[] = [];
    for (const device of sessions) {
      for (let i = 0; i < STREAM_LIMITS.perSession; i++) {
        const s = await openStream(streamUrl(), device.cookieHeader());
        await s.waitFor((e) => e.event === 'hello');
        streams.push(s);
      }
    }
    onTestFinished(() => streams.forEach((s) => s.close()));
    const excess = streams.length - STREAM_LIMITS.perUser;
    expect(excess).toBeGreaterThan(0);
    await Promise.all(streams.slice(0, excess).map((s) => s.ended));
    expect(server.streams.openFor(me.user.id)).toBe(STREAM_LIMITS.perUser);
  });

  it(
    'a stream whose reader stops reading is dropped once it falls behind; a reading stream gets every change',
    { timeout: 120_000 },
    async () => {
      const writer = await person(server.url);
      const stalled = await person(server.url);
      const reader = await person(server.url);
      const unread = await unreadStream(stalled.http.cookieHeader());
      const reading = await openStream(streamUrl(), reader.http.cookieHeader());
      onTestFinished(() => {
        unread.destroy();
        reading.close();
      });
      await waitFor(
        'both streams open',
        () => server.streams.openFor(stalled.user.id) === 1 && server.streams.openFor(reader.user.id) === 1,
      );
      const droppedBefore = server.streams.dropped;
      // Big pushes until the stalled stream is dropped (the kernel's socket buffers take some first).
      const pushed: string[] = [];
      for (let batch = 0; batch < 40 && server.streams.dropped === droppedBefore; batch++) {
        const res = await push(writer.http, 'gigs', newRows(200, bigGig()));
        expect(res.status).toBe(200);
        pushed.push(...res.body.conflicts.map((c) => c.id as string));
      }
      expect(server.streams.dropped).toBe(droppedBefore + 1);
      expect(server.streams.openFor(stalled.user.id)).toBe(0);
      // The reading stream was never dropped and saw every gig.
      await waitFor(
        'every gig on the reading stream',
        () => {
          const seen = new Set(
            reading.events.flatMap((e) =>
              e.event === 'changes' ? (e.data as ChangesEvent).documents.map((d) => d.id) : [],
            ),
          );
          return pushed.every((id) => seen.has(id));
        },
        30_000,
      );
      expect(server.streams.openFor(reader.user.id)).toBe(1);
      expect(server.streams.dropped).toBe(droppedBefore + 1);
    },
  );

  it('the client reconnects when the server closes its stream and catches up from its checkpoint', async () => {
    const me = await person(server.url);
    const other = await person(server.url);
    const client = await startNodeClient(me.http, me.user.id);
    onTestFinished(() => client.close());
    await client.sync.awaitInSync();
    const first = (await push(other.http, 'gigs', newRows(1, { title: 'Before the drop' }))).body.conflicts[0]!;
    await waitFor('the first gig at the client', () => client.db.gigs.findOne(first.id as string).exec(), 10_000);
    // Opening as many streams on the session as it may hold closes the client's own stream,
    // as a dropped one is; a gig written meanwhile must still reach the client.
    const crowd = [];
    for (let i = 0; i < STREAM_LIMITS.perSession; i++)
      crowd.push(await openStream(streamUrl(), me.http.cookieHeader()));
    const missed = (await push(other.http, 'gigs', newRows(1, { title: 'While the stream was gone' }))).body
      .conflicts[0]!;
    crowd.forEach((s) => s.close());
    await waitFor(
      'the gig written while the stream was away, at the client',
      () => client.db.gigs.findOne(missed.id as string).exec(),
      20_000,
    );
  });
});

describe('per-user write quotas', () => {
  const pushedKey = (p: Person) => p.user.id;

  it(`more than ${WRITE_QUOTAS.pushedPerMinute} documents pushed in a minute: 429 with the message, nothing written, and the same batch lands once the minute has passed`, async () => {
    const me = await person(limited.url);
    const first = await push(me.http, 'gigs', newRows(50));
    expect(first.status).toBe(200);
    const mine = first.body.conflicts as Record<string, unknown>[];
    // Edits count as much as new documents: here the same 50 gigs, over and over.
    let edits = mine;
    let refusedAt = -1;
    for (let round = 0; round < 20 && refusedAt < 0; round++) {
      const res = await push(
        me.http,
        'gigs',
        edits.map((g) => ({ assumedMasterState: g, newDocumentState: { ...g, title: `Edit ${round}` } })),
      );
      if (res.status === 429) {
        refusedAt = round;
        expect(res.body).toEqual({ error: QUOTA_MESSAGES.tooManyChanges });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      } else {
        expect(res.status).toBe(200);
        edits = res.body.conflicts as Record<string, unknown>[];
      }
    }
    // Taken: the profile written at sign-up (one document), the first 50, then 50 a round.
    const taken = 1 + 50 + 50 * refusedAt;
    expect(taken).toBeLessThanOrEqual(WRITE_QUOTAS.pushedPerMinute);
    expect(taken + 50).toBeGreaterThan(WRITE_QUOTAS.pushedPerMinute);
    expect(limited.ctx.store.get('gigs', edits[0]!.id as string)!.title).toBe(`Edit ${refusedAt - 1}`);
    const fresh = newRows(50);
    expect((await push(me.http, 'gigs', fresh)).status).toBe(429);
    expect(limited.ctx.store.get('gigs', fresh[0]!.newDocumentState.id as string)).toBeUndefined();
    // Another user is not held back by it.
    const other = await person(limited.url);
    expect((await push(other.http, 'gigs', newRows(10))).status).toBe(200);
    // The minute passes.
    await limited.ctx.limits.writes.pushed.reset(pushedKey(me));
    const again = await push(me.http, 'gigs', fresh);
    expect(again.status).toBe(200);
    expect(again.body.refused).toEqual([]);
    expect(limited.ctx.store.get('gigs', fresh[0]!.newDocumentState.id as string)).toBeDefined();
  });

  it(`more than ${WRITE_QUOTAS.createdPerDay.gigs} new gigs in a day: 429, nothing written; edits of existing gigs go on`, async () => {
    const me = await person(limited.url);
    const limit = WRITE_QUOTAS.createdPerDay.gigs!;
    const created = [];
    for (let n = 0; n < limit; n += 50) {
      const res = await push(me.http, 'gigs', newRows(Math.min(50, limit - n)));
      expect(res.status).toBe(200);
      created.push(...(res.body.conflicts as Record<string, unknown>[]));
      await limited.ctx.limits.writes.pushed.reset(pushedKey(me)); // only the daily quota is under test
    }
    const over = newRows(1);
    const refused = await push(me.http, 'gigs', over);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: QUOTA_MESSAGES.tooManyCreated });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(limited.ctx.store.get('gigs', over[0]!.newDocumentState.id as string)).toBeUndefined();
    // A batch mixing an edit with a new gig is refused whole, so it can be sent again as it is.
    const edit = { assumedMasterState: created[0]!, newDocumentState: { ...created[0]!, title: 'Still editable' } };
    expect((await push(me.http, 'gigs', [edit, ...over])).status).toBe(429);
    expect(limited.ctx.store.get('gigs', created[0]!.id as string)!.title).not.toBe('Still editable');
    const editOnly = await push(me.http, 'gigs', [edit]);
    expect(editOnly.status).toBe(200);
    expect(limited.ctx.store.get('gigs', created[0]!.id as string)!.title).toBe('Still editable');
  });

  it('the client keeps a write the server answered 429, shows why in the sync status, and sends it once the quota has passed', async () => {
    const http = new TestClient(limited.url);
    const user = await signUpWithProfile(http);
    const client = await startNodeClient(http, user.id);
    onTestFinished(() => client.close());
    await client.sync.awaitInSync();
    // The user spent the quota elsewhere (another device), in a window that ends in 3 s.
    const quotas = limited.ctx.limits.writes;
    const minute = quotas.pushed;
    quotas.pushed = new RateLimiter('pushed', WRITE_QUOTAS.pushedPerMinute, 3_000);
    onTestFinished(() => void (quotas.pushed = minute));
    await quotas.pushed.take(user.id, WRITE_QUOTAS.pushedPerMinute, 'spent');
    const gig = gigDoc({ title: 'Posted while throttled' });
    await client.app.local.insert('gigs', gig as never);
    await waitFor(
      'the sync status to say why',
      () => client.sync.status.throttled === QUOTA_MESSAGES.tooManyChanges,
      10_000,
    );
    expect(client.sync.status.pending).toBe(1);
    expect(limited.ctx.store.get('gigs', gig.id as string)).toBeUndefined();
    expect(await client.db.gigs.findOne(gig.id as string).exec()).not.toBeNull();
    expect(await client.db.syncproblems.findOne().exec()).toBeNull();
    // Sent again after the Retry-After the server gave, once the window has passed.
    await waitFor('the gig on the server', () => limited.ctx.store.get('gigs', gig.id as string), 30_000);
    await waitFor(
      'the outbox emptied and the status cleared',
      () => client.outbox.count === 0 && client.sync.status.throttled === undefined,
      10_000,
    );
  }, 60_000);

  it('RATE_LIMITS=off turns the quotas off (benchmarks)', async () => {
    const off = await startTestServer({ RATE_LIMITS: 'off' });
    onTestFinished(() => off.cleanup());
    const { http } = await person(off.url);
    for (let i = 0; i < 3; i++)
      expect((await push(http, 'gigs', newRows(WRITE_QUOTAS.createdPerDay.gigs!))).status).toBe(200);
  });
});
