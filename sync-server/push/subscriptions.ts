import crypto from 'node:crypto';
import { PUSH_LIMITS, type PushSubscriptionBody } from '../../shared/push';
import type { DecisionReader, DocWrite, Store, Stored } from '../store/store';
import type { PushSubscriptionRecord } from './records';

/**
 * The devices each user has notifications on (collection `pushsubscriptions`, server-only).
 * Every read-then-write is a store decision, so it holds on a store shared by several instances.
 *
 * A user's records live under `PUSH_LIMITS.devicesPerUser` ids of their own (slots), whatever the
 * endpoints: the store keeps a tombstone of every record it ever held, so a record id per endpoint
 * would let one user pile up records without end by subscribing from ever new endpoints. A new
 * device takes a free slot, or the one of the device updated longest ago.
 */

type StoredSubscription = Stored<'pushsubscriptions'>;

/** What web push needs of the store: reads, decisions and durable changes (any implementation). */
export type PushStore = Pick<Store, 'get' | 'byIndex' | 'all' | 'transaction' | 'onDurable'>;

const hash = (text: string) => crypto.createHash('sha256').update(text).digest('base64url');

/** The ids a user's subscriptions may have: one per device slot, derived from the user alone. */
export function subscriptionSlots(userId: string): string[] {
  const base = `ps-${hash(userId)}`;
  return Array.from({ length: PUSH_LIMITS.devicesPerUser }, (_, slot) => `${base}-${slot}`);
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

const byAge = (a: StoredSubscription, b: StoredSubscription) => a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : 1);

/** The live subscriptions of a user. */
export function subscriptionsOf(store: Pick<DecisionReader, 'byIndex'>, userId: string): StoredSubscription[] {
  return live(store.byIndex('pushsubscriptions', 'userId', userId));
}

/** A user's live record for the device with `endpoint`, whatever its id. */
function recordOf(store: Pick<DecisionReader, 'byIndex'>, userId: string, endpoint: string) {
  return live(store.byIndex('pushsubscriptions', 'endpointKey', endpointKey(endpoint))).find(
    (d) => d.userId === userId && d.endpoint === endpoint,
  );
}

/**
 * Whether a record was made for the server's current VAPID key. A record from before keys were
 * recorded (no `vapidKey`) is taken to be: if it was not, the push service's 401/403 ends it.
 */
export function madeForKey(doc: Pick<PushSubscriptionRecord, 'vapidKey'>, publicKey: string): boolean {
  return doc.vapidKey === undefined || doc.vapidKey === publicKey;
}

/**
 * Turns notifications on for a device, or changes its types. The device's record is rewritten in
 * its slot; a record of the same device for another user (who never logged out there) is removed,
 * since a device shows one user's notifications; a new device takes a free slot of the user, or
 * the slot of the device updated longest ago (which then gets no more notifications).
 */
export async function saveSubscription(
  store: PushStore,
  input: { userId: string; sessionId: string; body: PushSubscriptionBody; vapidKey: string; now: number },
): Promise<PushSubscriptionRecord> {
  const { userId, sessionId, body, vapidKey, now } = input;
  const key = endpointKey(body.endpoint);
  const slots = subscriptionSlots(userId);
  const { value } = await store.transaction((read) => {
    const writes: DocWrite[] = [];
    const current = recordOf(read, userId, body.endpoint);
    const inSlot = (id: string) => slots.includes(id);
    // Its own slot; else a free one; else the slot of the device updated longest ago.
    const id =
      current && inSlot(current.id)
        ? current.id
        : (slots.find((s) => {
            const doc = read.get('pushsubscriptions', s);
            return !doc || doc._deleted;
          }) ?? slots.map((s) => read.get('pushsubscriptions', s)!).sort(byAge)[0]!.id);
    const record: PushSubscriptionRecord = {
      id,
      userId,
      sessionId,
      endpoint: body.endpoint,
      endpointKey: key,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      types: body.types,
      vapidKey,
      createdAt: current ? current.createdAt : now,
      updatedAt: now,
    };
    writes.push({ collection: 'pushsubscriptions', doc: { ...record, _deleted: false } });
    // The device's record under an id from before the slots, and other users' records of it.
    for (const other of live(read.byIndex('pushsubscriptions', 'endpointKey', key)))
      if (other.id !== id) writes.push(tombstone(other));
    // Records from before the slots still count towards the limit: the oldest make room.
    const others = subscriptionsOf(read, userId).filter((d) => d.id !== id && d.endpoint !== body.endpoint);
    const legacy = others.filter((d) => !inSlot(d.id)).sort(byAge);
    const excess = others.length - (PUSH_LIMITS.devicesPerUser - 1);
    for (const old of legacy.slice(0, Math.max(0, excess))) writes.push(tombstone(old));
    return { writes, value: record };
  });
  return value;
}

/** This user's subscription on the device with `endpoint`, if notifications are on there (for this key). */
export function subscriptionFor(
  store: Pick<DecisionReader, 'byIndex'>,
  userId: string,
  endpoint: string,
  publicKey: string,
): StoredSubscription | undefined {
  const doc = recordOf(store, userId, endpoint);
  return doc && madeForKey(doc, publicKey) ? doc : undefined;
}

/** Turns notifications off for this user on the device with `endpoint`; false when they were not on. */
export async function removeSubscription(store: PushStore, userId: string, endpoint: string): Promise<boolean> {
  const { value } = await store.transaction((read) => {
    const doc = recordOf(read, userId, endpoint);
    return doc ? { writes: [tombstone(doc)], value: true } : { writes: [], value: false };
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
 * The subscription can never get a push from this server (the push service said 404/410, or
 * refused the server's signature; the server's key changed): the record goes, unless the device
 * has subscribed again meanwhile with a new endpoint or keys (then it is another subscription).
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

/**
 * At start: the records made for another VAPID key than the server's (the keys were changed) are
 * removed. Their devices' subscriptions are bound to the old key, so every push service refuses
 * what the server sends them; the devices show notifications off and can turn them on again.
 */
export async function removeOtherKeysSubscriptions(store: PushStore, publicKey: string): Promise<number> {
  const stale = [...store.all('pushsubscriptions')].filter((d) => !d._deleted && !madeForKey(d, publicKey));
  let removed = 0;
  for (let i = 0; i < stale.length; i += 100) {
    const batch = stale.slice(i, i + 100);
    const { value } = await store.transaction((read) => {
      const writes = batch
        .map((d) => read.get('pushsubscriptions', d.id))
        .filter((d): d is StoredSubscription => !!d && !d._deleted && !madeForKey(d, publicKey))
        .map(tombstone);
      return { writes, value: writes.length };
    });
    removed += value;
  }
  return removed;
}
