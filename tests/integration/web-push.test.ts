import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationTarget } from '../../shared/display';
import { PUSH_LIMITS } from '../../shared/push';
import { PUSH_ERRORS } from '../../sync-server/push/routes';
import { generateVapidKeys } from '../../sync-server/push/vapid';
import { applyTo, gigDoc, offer, PASSWORD, person, write, type Person } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { startPushService, type Device, type PushService } from '../support/push-service';
import { waitFor } from '../support/wait';
import { chatMessage, openChat } from '../support/yjs-client';
import { conversationIdFor } from '../../shared/ids';

// Issue 17, part 1: web push. The server sends to a push service on 127.0.0.1 that checks each
// request's VAPID signature and decrypts the payload with the device's own keys (RFC 8291), so
// each test reads what the device would show.

let service: PushService;
let server: TestServer;

beforeAll(async () => {
  service = await startPushService();
  server = await startTestServer({ PUSH_SERVICE_ORIGINS: service.origin });
});

afterAll(async () => {
  await server?.cleanup();
  await service?.close();
});

const ALL_TYPES = ['new_application', 'FINAL_BUDGET_OFFER', 'new_message', 'GIG_STARTED', 'payment_needed'];

async function subscribe(p: Pick<Person, 'http'>, device: Device, types: string[] = ALL_TYPES) {
  return p.http.post<{ subscribed: boolean; types: string[]; error?: string }>('/api/push/subscribe', {
    ...device.subscription,
    types,
  });
}

const subscriptionOf = (p: Person, device: Device) =>
  p.http.get<{ subscribed: boolean; types: string[] }>(
    `/api/push/subscription?endpoint=${encodeURIComponent(device.subscription.endpoint)}`,
  );

const liveSubscriptions = (userId: string) =>
  [...server.ctx.store.all('pushsubscriptions')].filter((s) => !s._deleted && s.userId === userId);

describe('VAPID keys', () => {
  it('are made at the first start, kept in the store, and the same after a restart', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-push-keys-'));
    try {
      const first = await startTestServer({}, dir);
      const p = await person(first.url);
      const key = (await p.http.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
      expect(Buffer.from(key, 'base64url')).toHaveLength(65);
      await first.cleanup();
      const again = await startTestServer({}, dir);
      try {
        const client = TestClient.withSession(again.url, p.http.sessionToken());
        expect((await client.get<{ publicKey: string }>('/api/push/key')).body.publicKey).toBe(key);
      } finally {
        await again.cleanup();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set, and a pair that does not match is refused at start', async () => {
    const keys = generateVapidKeys();
    const configured = await startTestServer({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    try {
      const p = await person(configured.url);
      expect((await p.http.get<{ publicKey: string }>('/api/push/key')).body.publicKey).toBe(keys.publicKey);
    } finally {
      await configured.cleanup();
    }
    const other = generateVapidKeys();
    await expect(
      startTestServer({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: other.privateKey }),
    ).rejects.toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: not a P-256 key pair/);
  });

  it('are asked for by signed-in users only', async () => {
    const res = await new TestClient(server.url).get('/api/push/key');
    expect(res.status).toBe(401);
    expect(res.body).toHaveProperty('error');
  });
});

describe('sending a push for every notification the server creates', () => {
  it("carries the notifications page's text and the URL its click opens, encrypted for the device and signed", async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const applicant = await person(server.url, { name: 'Ari Applicant' });
    const device = service.device();
    const key = (await buyer.http.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
    expect((await subscribe(buyer, device)).body).toEqual({ subscribed: true, types: ALL_TYPES });

    const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Album cover' }))).master!;
    await applyTo(applicant, gig.id as string);

    const push = await waitFor('the push reaches the device', () => device.received[0]);
    const stored = [...server.ctx.store.all('notifications')].find(
      (n) => n.userId === buyer.user.id && n.type === 'new_application',
    )!;
    expect(push.payload).toMatchObject({
      userId: buyer.user.id,
      notificationId: stored.id,
      type: 'new_application',
      title: 'Creative Gigs',
      body: stored.message,
      url: notificationTarget(stored),
    });
    expect(push.payload.url).toBe('/applications');
    expect(push.payload.body).toContain('Album cover');
    expect(push.vapid.publicKey).toBe(key);
    expect(push.vapid.sub).toMatch(/^(mailto:|https:)/);
    expect(push.headers).toMatchObject({ contentEncoding: 'aes128gcm', ttl: '86400', urgency: 'normal' });
    expect(service.errors).toEqual([]);
  });

  it('sends each device only the notification types it asked for', async () => {
    const buyer = await person(server.url);
    const applicant = await person(server.url);
    const offers = service.device();
    const messages = service.device();
    await subscribe(applicant, offers, ['FINAL_BUDGET_OFFER']);
    await subscribe(applicant, messages, ['new_message']);
    const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Tour poster' }))).master!;
    const application = await applyTo(applicant, gig.id as string);
    await offer(buyer.http, application, 25_000);
    await waitFor('the offer reaches the offers device', () => offers.received.length === 1);
    expect(offers.received[0]!.payload).toMatchObject({ type: 'FINAL_BUDGET_OFFER', url: '/basket?view=seller' });

    const room = conversationIdFor(buyer.user.id, applicant.user.id);
    const chat = openChat(buyer.http, room);
    try {
      await chat.synced();
      chat.send(chatMessage(buyer.user.id, applicant.user.id, 'Can you start Monday?'));
      const message = await waitFor('the message reaches the messages device', () => messages.received[0]);
      expect(message.payload).toMatchObject({
        type: 'new_message',
        url: `/exchange/${buyer.user.id}`,
        tag: `conversation-${room}`,
      });
      expect(message.payload.body).toContain('Can you start Monday?');
      expect(message.headers.urgency).toBe('high');
    } finally {
      chat.destroy();
    }
    expect(offers.received).toHaveLength(1);
    expect(messages.received).toHaveLength(1);
  });

  it.each([
    [410, 'it ended'],
    [404, 'it is unknown there'],
    [403, 'it refuses the signature: the device subscribed with another key'],
    [401, 'it refuses the signature'],
  ])('forgets a subscription the push service answers %i for (%s), and sends nothing more to it', async (status) => {
    const buyer = await person(server.url);
    const applicant = await person(server.url);
    const gone = service.device();
    const kept = service.device();
    await subscribe(buyer, gone);
    await subscribe(buyer, kept);
    gone.answer = status;
    const gig = (await write(buyer.http, 'gigs', gigDoc())).master!;
    await applyTo(applicant, gig.id as string);
    await waitFor('the kept device got its push', () => kept.received.length === 1);
    await waitFor('the gone subscription is removed', async () => !(await subscriptionOf(buyer, gone)).body.subscribed);
    expect((await subscriptionOf(buyer, kept)).body.subscribed).toBe(true);
    expect(liveSubscriptions(buyer.user.id).map((s) => s.endpoint)).toEqual([kept.subscription.endpoint]);
    // The next notification goes to the kept device only: the push service is not asked again.
    const asked = gone.requests;
    const second = (await write(buyer.http, 'gigs', gigDoc())).master!;
    await applyTo(applicant, second.id as string);
    await waitFor('the kept device got the second push', () => kept.received.length === 2);
    expect(gone.requests).toBe(asked);
  });
});

describe('VAPID keys that change', () => {
  it('end the subscriptions made for the old keys at start: the device shows notifications off until turned on again', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-push-rekey-'));
    const [before, after] = [generateVapidKeys(), generateVapidKeys()];
    const env = (keys: { publicKey: string; privateKey: string }) => ({
      PUSH_SERVICE_ORIGINS: service.origin,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
    });
    try {
      const first = await startTestServer(env(before), dir);
      const buyer = await person(first.url);
      const applicant = await person(first.url);
      const device = service.device();
      await subscribe(buyer, device);
      expect((await subscriptionOf(buyer, device)).body.subscribed).toBe(true);
      await first.cleanup();

      const again = await startTestServer(env(after), dir);
      try {
        const b = TestClient.withSession(again.url, buyer.http.sessionToken());
        const a = { http: TestClient.withSession(again.url, applicant.http.sessionToken()), user: applicant.user };
        const state = await b.get<{ subscribed: boolean }>(
          `/api/push/subscription?endpoint=${encodeURIComponent(device.subscription.endpoint)}`,
        );
        expect(state.body.subscribed).toBe(false);
        expect([...again.ctx.store.all('pushsubscriptions')].filter((d) => !d._deleted)).toEqual([]);
        // Turned on again, with the new key: pushes signed with it reach the device.
        const on = await b.post<{ subscribed: boolean }>('/api/push/subscribe', {
          ...device.subscription,
          types: ALL_TYPES,
        });
        expect(on.body.subscribed).toBe(true);
        const second = (await write(b, 'gigs', gigDoc())).master!;
        await applyTo(a, second.id as string);
        const push = await waitFor('the push signed with the new key arrives', () => device.received[0]);
        expect(push.vapid.publicKey).toBe(after.publicKey);
        expect(device.received).toHaveLength(1);
        expect(device.requests).toBe(1);
      } finally {
        await again.cleanup();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('subscriptions per user and device', () => {
  it('are changed by subscribing again from the same device, and turned off by unsubscribing', async () => {
    const p = await person(server.url);
    const device = service.device();
    await subscribe(p, device, ['new_message']);
    await subscribe(p, device, ['new_message', 'FINAL_BUDGET_OFFER']);
    expect((await subscriptionOf(p, device)).body).toEqual({
      subscribed: true,
      types: ['new_message', 'FINAL_BUDGET_OFFER'],
    });
    expect(liveSubscriptions(p.user.id)).toHaveLength(1);
    const off = await p.http.post('/api/push/unsubscribe', { endpoint: device.subscription.endpoint });
    expect(off.body).toEqual({ subscribed: false, types: [] });
    expect((await subscriptionOf(p, device)).body.subscribed).toBe(false);
  });

  it('are removed when the session that made them logs out, and never sent for a session that ended otherwise', async () => {
    const buyer = await person(server.url);
    const applicant = await person(server.url);
    const laptop = service.device();
    await subscribe(buyer, laptop);
    expect(liveSubscriptions(buyer.user.id)).toHaveLength(1);
    expect((await buyer.http.post('/api/auth/logout')).status).toBe(200);
    expect(liveSubscriptions(buyer.user.id)).toHaveLength(0);

    // Signing in again from the same browser ends the old session without a logout.
    const phone = service.device();
    await buyer.http.post('/api/auth/login', { email: buyer.user.email, password: PASSWORD });
    await subscribe(buyer, phone);
    const tablet = service.device();
    const other = new TestClient(server.url);
    await other.post('/api/auth/login', { email: buyer.user.email, password: PASSWORD });
    await subscribe({ http: other }, tablet);
    await other.post('/api/auth/login', { email: buyer.user.email, password: PASSWORD }); // a new session there
    const gig = (await write(buyer.http, 'gigs', gigDoc())).master!;
    await applyTo(applicant, gig.id as string);
    await waitFor('the phone got its push', () => phone.received.length === 1);
    await waitFor('the ended session’s device is forgotten', () => liveSubscriptions(buyer.user.id).length === 1);
    expect(tablet.received).toEqual([]);
    expect(laptop.received).toEqual([]);
  });

  it(`are at most ${PUSH_LIMITS.devicesPerUser} per user: a new device replaces the one updated longest ago`, async () => {
    const p = await person(server.url);
    const devices = Array.from({ length: PUSH_LIMITS.devicesPerUser + 1 }, () => service.device());
    for (const d of devices) expect((await subscribe(p, d, ['new_message'])).status).toBe(200);
    expect(liveSubscriptions(p.user.id)).toHaveLength(PUSH_LIMITS.devicesPerUser);
    expect((await subscriptionOf(p, devices[0]!)).body.subscribed).toBe(false);
    expect((await subscriptionOf(p, devices.at(-1)!)).body.subscribed).toBe(true);
  });

  it(`never make more than ${PUSH_LIMITS.devicesPerUser} records for one user, however many endpoints subscribe and unsubscribe`, async () => {
    const p = await person(server.url);
    const records = () => [...server.ctx.store.all('pushsubscriptions')].filter((s) => s.userId === p.user.id);
    for (let i = 0; i < 4 * PUSH_LIMITS.devicesPerUser; i++) {
      const d = service.device();
      expect((await subscribe(p, d, ['new_message'])).status).toBe(200);
      if (i % 3 === 1) await p.http.post('/api/push/unsubscribe', { endpoint: d.subscription.endpoint });
    }
    // Tombstones included: the store never forgets a record, so the ids are the user's few slots.
    expect(records().length).toBeLessThanOrEqual(PUSH_LIMITS.devicesPerUser);
    expect(liveSubscriptions(p.user.id)).toHaveLength(PUSH_LIMITS.devicesPerUser);
  });

  it('belong to one user per device: another user subscribing from it takes it over', async () => {
    const first = await person(server.url);
    const second = await person(server.url);
    const shared = service.device();
    await subscribe(first, shared);
    await subscribe(second, shared);
    expect(liveSubscriptions(first.user.id)).toHaveLength(0);
    expect(liveSubscriptions(second.user.id)).toHaveLength(1);
  });

  it('refuse endpoints that are not a known push service, bad keys and repeated types, writing nothing', async () => {
    const p = await person(server.url);
    const device = service.device();
    const seqBefore = server.ctx.store.durableSeq();
    const cases: [Record<string, unknown>, string][] = [
      [{ endpoint: 'https://internal.example/push/1' }, PUSH_ERRORS.unknownService],
      [{ endpoint: 'http://169.254.169.254/latest/meta-data' }, PUSH_ERRORS.unknownService],
      [{ endpoint: `${service.origin.replace('http://', 'http://user:pw@')}/push/x` }, 'endpoint:'],
      [{ endpoint: `${service.origin}/${'x'.repeat(PUSH_LIMITS.endpointMax)}` }, 'endpoint:'],
      [{ endpoint: 'not a url' }, 'endpoint:'],
      [{ keys: { p256dh: 'A'.repeat(87), auth: device.subscription.keys.auth } }, PUSH_ERRORS.badKeys],
      [{ keys: { p256dh: device.subscription.keys.p256dh, auth: 'short' } }, 'keys.auth'],
      [{ types: ['new_message', 'new_message'] }, 'types'],
      [{ types: ['not_a_type'] }, 'types'],
      [{ extra: true }, 'Unexpected field'],
    ];
    for (const [change, message] of cases) {
      const res = await p.http.post<{ error: string }>('/api/push/subscribe', {
        ...device.subscription,
        types: ['new_message'],
        ...change,
      });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.error, JSON.stringify(change)).toContain(message);
    }
    expect(
      (await new TestClient(server.url).post('/api/push/subscribe', { ...device.subscription, types: [] })).status,
    ).toBe(401);
    expect(server.ctx.store.durableSeq()).toBe(seqBefore);
  });
});
