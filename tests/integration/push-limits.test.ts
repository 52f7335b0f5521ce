import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimsId } from '../../sync-server/push/claims';
import { CLAIM_KEPT_MS } from '../../sync-server/push/limits';
import type { PushClaimsRecord } from '../../sync-server/push/records';
import { PushSender, type PushSenderOptions } from '../../sync-server/push/sender';
import { saveSubscription } from '../../sync-server/push/subscriptions';
import { generateVapidKeys } from '../../sync-server/push/vapid';
import type { Store } from '../../sync-server/store/store';
import { startPushService, type Device, type PushService } from '../support/push-service';
import { openStoreFor, releaseStore } from '../support/store-under-test';
import { waitFor } from '../support/wait';

// Web push costs per user are bounded (decision 030, "Revised"): the claims kept for a user are
// pruned once they cannot matter and are capped, and the sender gives each user a bounded share
// of the pushes waiting and in flight, so one user's flood never crowds out anyone else's.

let service: PushService;
let dir: string;
let store: Store;
const senders: PushSender[] = [];
const keys = generateVapidKeys();
let clock = Date.now();
let serial = 0;

beforeAll(async () => {
  service = await startPushService();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-push-limits-'));
  store = await openStoreFor(dir);
});

afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  await store?.close();
  await releaseStore(dir);
  await fs.rm(dir, { recursive: true, force: true });
  await service?.close();
});

function sender(options: Partial<PushSenderOptions> = {}): { logs: string[] } {
  const logs: string[] = [];
  senders.push(
    new PushSender({
      store,
      vapid: { ...keys, subject: 'mailto:ops@example.com' },
      pushServiceOrigins: [service.origin],
      now: () => clock,
      log: (m) => logs.push(m),
      ...options,
    }),
  );
  return { logs };
}

/** A user signed in on a device with notifications on. */
async function subscribedUser(): Promise<{ userId: string; device: Device }> {
  serial += 1;
  const userId = `user-${serial}-${Math.random().toString(36).slice(2, 8)}`;
  const device = service.device();
  const sessionId = `sess-${userId}`;
  await store.commit([
    {
      collection: 'sessions',
      doc: { id: sessionId, userId, createdAt: clock, expiresAt: clock + 86_400_000, _deleted: false },
    },
  ]);
  await saveSubscription(store, {
    userId,
    sessionId,
    body: { ...device.subscription, types: ['GIG_STARTED'] },
    vapidKey: keys.publicKey,
    now: clock,
  });
  return { userId, device };
}

/** New notifications for a user, written at the clock's time, as a policy writes them. */
async function notify(userId: string, count = 1): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `n-${userId}-${clock}-${i}`);
  await store.commit(
    ids.map((id) => ({
      collection: 'notifications' as const,
      doc: {
        id,
        userId,
        type: 'GIG_STARTED',
        message: `Work started (${id})`,
        read: false,
        createdAt: clock,
        updatedAt: clock,
        _deleted: false,
      },
    })),
  );
  return ids;
}

const claimsOf = (userId: string) => (store.get('pushsends', claimsId(userId)) as PushClaimsRecord | undefined)?.claims;

describe('the claims kept for a user', () => {
  it('are one record per user, pruned of the claims whose notifications can no longer be pushed', async () => {
    sender();
    const { userId, device } = await subscribedUser();
    const first = await notify(userId, 2);
    await waitFor('both pushes arrive', () => device.received.length === 2);
    expect(
      claimsOf(userId)
        ?.map((c) => c.notificationId)
        .sort(),
    ).toEqual([...first].sort());

    clock += CLAIM_KEPT_MS + 1;
    const later = await notify(userId);
    await waitFor('the later push arrives', () => device.received.length === 3);
    await waitFor('the old claims are pruned', () => claimsOf(userId)?.length === 1);
    expect(claimsOf(userId)!.map((c) => c.notificationId)).toEqual(later);
    expect([...store.all('pushsends')].filter((r) => r.userId === userId).map((r) => r.id)).toEqual([claimsId(userId)]);
  });

  it('are capped: past the cap, that user’s newer notifications are not pushed until older claims age out', async () => {
    const { logs } = sender({ limits: { claimsPerUser: 3 } });
    const { userId, device } = await subscribedUser();
    await notify(userId, 5);
    await waitFor('the log says why', () => logs.some((l) => l.includes('3 pushes already sent to one user')));
    await waitFor('three pushes arrive', () => device.received.length === 3);
    expect(claimsOf(userId)).toHaveLength(3);

    clock += CLAIM_KEPT_MS + 1;
    await notify(userId);
    await waitFor('pushed again once the old claims aged out', () => device.received.length === 4);
    expect(claimsOf(userId)).toHaveLength(1);
  });
});

describe('the send queue', () => {
  it('gives each user a bounded share: one user’s flood to a slow push service neither delays nor drops another user’s push', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const flooder = await subscribedUser();
    const other = await subscribedUser();
    const { logs } = sender({
      limits: { inFlight: 4, inFlightPerUser: 2, queued: 50, queuedPerUser: 5 },
      // The flooded user's push service takes its time.
      fetch: async (input, init) => {
        if (String(input).startsWith(flooder.device.subscription.endpoint)) await held;
        return fetch(input, init);
      },
    });
    await notify(flooder.userId, 30);
    await waitFor('the flood overflows its share', () =>
      logs.some((l) => l.includes('5 pushes already waiting for one user')),
    );
    await notify(other.userId);
    await waitFor('the other user’s push arrives while the flood waits', () => other.device.received.length === 1);
    expect(flooder.device.received).toHaveLength(0);

    release();
    // Two were in flight and five waited; the rest of the flood was dropped.
    await waitFor('the flood’s share arrives', () => flooder.device.received.length === 7);
    expect(flooder.device.requests).toBe(7);
    // The thirty were claimed together (one decision of the user's claims, not thirty contending
    // for it): none failed, none came late.
    expect(logs).not.toContain('Push failed');
  });
});
