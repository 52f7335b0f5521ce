import crypto from 'node:crypto';
import { PUSH_LIMITS, type PushSubscriptionBody } from '../../shared/push';
import type { DecisionReader, DocWrite, Store, Stored } from '../store/store';
import type { PushSubscriptionRecord } from './records';

/**
 * The devices each user has notifications on (collection `pushsubscriptions`, server-only).
 * Every read-then-write is a store decision, so it holds on a store shared by several instances.
 */

type StoredSubscription = Stored<'pushsubscriptions'>;

/** What web push needs of the store: reads, decisions and durable changes (any implementation). */
export type PushStore = Pick<Store, 'get' | 'byIndex' | 'transaction' | 'onDurable'>;

const hash = (text: string) => crypto.createHash('sha256').update(text).digest('base64url');

/** One record per user and device: the id is derived from both, never from anything else the device sends. */
export function subscriptionId(userId: string, endpoint: string): string {
  return `ps-${hash(`${userId}\n${endpoint}`)}`;
}

/** The index key of an endpoint, whoever it belongs to (a device has one user at a time). */
export function endpointKey(endpoint: string): string {
  return hash(endpoint);
}

function live(docs: StoredSubscription[]): StoredSubscription[] {
  return docs.filter((d) => !d._deleted);
}

const tombstone = (doc: StoredSubscription): DocWrite => ({
  collection: 'pushsubscriptions',
  doc: { ...doc, _deleted: true },
});

/** The live subscriptions of a user. */
export function subscriptionsOf(store: Pick<DecisionReader, 'byIndex'>, userId: string): StoredSubscription[] {
  return live(store.byIndex('pushsubscriptions', 'userId', userId));
}

/**
 * Turns notifications on for a device, or changes its types. The device's record is replaced; a
 * record of the same device for another user (who never logged out there) is removed, since a device
 * shows one user's notifications; past the per-user limit of devices, the one updated longest ago
 * makes room.
 */
export async function saveSubscription(
  store: PushStore,
  input: { userId: string; sessionId: string; body: PushSubscriptionBody; now: number },
): Promise<PushSubscriptionRecord> {
  const { userId, sessionId, body, now } = input;
  const id = subscriptionId(userId, body.endpoint);
  const key = endpointKey(body.endpoint);
  const { value } = await store.transaction((read) => {
    const writes: DocWrite[] = [];
    const current = read.get('pushsubscriptions', id);
    const record: PushSubscriptionRecord = {
      id,
      userId,
      sessionId,
      endpoint: body.endpoint,
      endpointKey: key,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      types: body.types,
      createdAt: current && !current._deleted ? current.createdAt : now,
      updatedAt: now,
    };
    writes.push({ collection: 'pushsubscriptions', doc: { ...record, _deleted: false } });
    for (const other of live(read.byIndex('pushsubscriptions', 'endpointKey', key)))
      if (other.id !== id) writes.push(tombstone(other));
    const others = subscriptionsOf(read, userId)
      .filter((d) => d.id !== id)
      .sort((a, b) => a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : 1));
    for (const old of others.slice(0, Math.max(0, others.length - (PUSH_LIMITS.devicesPerUser - 1))))
      writes.push(tombstone(old));
    return { writes, value: record };
  });
  return value;
}

/** This user's subscription on the device with `endpoint`, if notifications are on there. */
export function subscriptionFor(store: PushStore, userId: string, endpoint: string): StoredSubscription | undefined {
  const doc = store.get('pushsubscriptions', subscriptionId(userId, endpoint));
  return doc && !doc._deleted ? doc : undefined;
}

/** Turns notifications off for this user on the device with `endpoint`; false when they were not on. */
export async function removeSubscription(store: PushStore, userId: string, endpoint: string): Promise<boolean> {
  const id = subscriptionId(userId, endpoint);
  const { value } = await store.transaction((read) => {
    const doc = read.get('pushsubscriptions', id);
    return doc && !doc._deleted ? { writes: [tombstone(doc)], value: true } : { writes: [], value: false };
  });
  return value;
}

/** Logging out of a session turns off the notifications of the device it was on. */
export async function removeSessionSubscriptions(store: PushStore, sessionId: string): Promise<void> {
  await store.transaction((read) => ({
    writes: live(read.byIndex('pushsubscriptions', 'sessionId', sessionId)).map(tombstone),
    value: undefined,
  }));
}

/**
 * The push service says the subscription is gone (404/410): the record goes, unless the device has
 * subscribed again meanwhile with a new endpoint or keys (then it is another subscription).
 */
export async function removeGoneSubscription(
  store: PushStore,
  gone: Pick<PushSubscriptionRecord, 'id' | 'endpoint' | 'p256dh'>,
): Promise<void> {
  await store.transaction((read) => {
    const doc = read.get('pushsubscriptions', gone.id);
    const same = doc && !doc._deleted && doc.endpoint === gone.endpoint && doc.p256dh === gone.p256dh;
    return { writes: same ? [tombstone(doc)] : [], value: undefined };
  });
}
