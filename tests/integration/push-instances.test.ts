import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../sync-server/config';
import { INDEXES } from '../../sync-server/indexes';
import { PushSender } from '../../sync-server/push/sender';
import { saveSubscription, type PushStore } from '../../sync-server/push/subscriptions';
import { loadVapidKeys } from '../../sync-server/push/vapid';
import { PgStore } from '../../sync-server/store/postgres/pg-store';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';
import { startPushService, type PushService } from '../support/push-service';
import { waitFor } from '../support/wait';

// Web push on a store shared by several server instances (issue 17 with issue 14): one key pair
// however many instances start at once, and one push per notification whichever instance wrote it.

let db: TestDatabase;
let service: PushService;
const stores: PgStore[] = [];
const senders: PushSender[] = [];

/** PgStore's own reads are not typed by collection yet (issue 14 is under way); its documents are the same. */
const typed = (store: PgStore) => store as unknown as PushStore;

async function instance(): Promise<PgStore> {
  const store = await PgStore.open({ connectionString: db.url, indexes: INDEXES, poolSize: 5, idlePollMs: 200 });
  stores.push(store);
  return store;
}

beforeAll(async () => {
  db = await createTestDatabase();
  service = await startPushService();
});

afterEach(async () => {
  await Promise.all(senders.splice(0).map((s) => s.close()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  await service?.close();
  await db?.drop();
});

const config = () => readConfig({ PUSH_SERVICE_ORIGINS: service.origin });

describe('web push with several instances on one database', () => {
  it('gives every instance starting at once the same VAPID key pair', async () => {
    const instances = await Promise.all([instance(), instance(), instance()]);
    const keys = await Promise.all(instances.map((s) => loadVapidKeys(config(), s, Date.now())));
    expect(new Set(keys.map((k) => k.publicKey)).size).toBe(1);
    expect(new Set(keys.map((k) => k.privateKey)).size).toBe(1);
    const later = await instance();
    expect(await loadVapidKeys(config(), later, Date.now())).toEqual(keys[0]);
  });

  it('sends each notification once, whichever instance wrote it', async () => {
    const [a, b] = [await instance(), await instance()];
    const keys = await loadVapidKeys(config(), a, Date.now());
    for (const store of [a, b])
      senders.push(
        new PushSender({
          store: typed(store),
          vapid: { ...keys, subject: 'mailto:ops@example.com' },
          pushServiceOrigins: [service.origin],
          now: Date.now,
          log: () => {},
        }),
      );
    const device = service.device();
    const now = Date.now();
    await a.commit([
      {
        collection: 'sessions',
        doc: { id: 'sess-1', userId: 'user-1', createdAt: now, expiresAt: now + 3_600_000, _deleted: false },
      },
    ]);
    await saveSubscription(typed(b), {
      userId: 'user-1',
      sessionId: 'sess-1',
      body: { ...device.subscription, types: ['new_message', 'FINAL_BUDGET_OFFER'] },
      vapidKey: keys.publicKey,
      now,
    });
    const notification = (id: string, type: string, message: string, createdAt = Date.now()) => ({
      collection: 'notifications' as const,
      doc: { id, userId: 'user-1', type, message, read: false, createdAt, updatedAt: createdAt, _deleted: false },
    });
    // Both instances see every write: each must learn the subscription before the notification.
    await waitFor('both instances have the subscription', () =>
      [a, b].every((s) => s.byIndex('pushsubscriptions', 'userId', 'user-1').length === 1),
    );
    await a.commit([notification('n-one', 'FINAL_BUDGET_OFFER', 'Bea sent you an offer')]);
    await b.commit([notification('n-two', 'new_message', 'Bea: hello')]);
    await waitFor('both pushes arrive', () => device.received.length >= 2, 10_000);
    // A chat notification refreshed with a newer message is a new push; marking one read is not.
    await a.commit([notification('n-two', 'new_message', 'Bea: are you there?', Date.now() + 1)]);
    await waitFor('the refreshed message arrives', () => device.received.length >= 3, 10_000);
    const read = a.get('notifications', 'n-one')!;
    await b.commit([{ collection: 'notifications', doc: { ...read, read: true } }]);
    await a.commit([notification('n-three', 'new_message', 'Bea: see you')]);
    await waitFor('the last message arrives', () => device.received.length >= 4, 10_000);
    expect(device.received.map((p) => p.payload.body).sort()).toEqual([
      'Bea sent you an offer',
      'Bea: are you there?',
      'Bea: hello',
      'Bea: see you',
    ]);
    // One claim per notification, in the user's one claims record (written by whichever instance
    // won each, read here once replicated).
    const claims = () =>
      [...a.all('pushsends')].flatMap((r) => ('claims' in r ? r.claims.map((c) => c.notificationId) : [r.id])).sort();
    await waitFor('every claim on instance a', () => claims().length === 3, 10_000);
    expect(claims()).toEqual(['n-one', 'n-three', 'n-two']);
    expect([...a.all('pushsends')].map((r) => r.id)).toEqual(['user:user-1']);
    expect(service.errors).toEqual([]);
  });
});
