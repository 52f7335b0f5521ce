import { isMessageNotification } from '../../shared/display';
import { pushPayload } from '../../shared/push-payload';
import type { Change, Stored } from '../store/store';
import { deliverPush, isAllowedEndpoint, type DeliveryOutcome } from './deliver';
import { removeGoneSubscription, subscriptionsOf, type PushStore } from './subscriptions';
import type { VapidKeys } from './vapid';

/**
 * A notification older than this when its change arrives is not news: it was marked read, or a
 * restart replays it, or an old one was rewritten. Only fresh notifications are pushed.
 */
export const FRESH_MS = 10 * 60_000;
/** Pushes in flight at once, and waiting at most (past that the newest are dropped, and logged). */
const MAX_IN_FLIGHT = 8;
const MAX_QUEUED = 10_000;
/** Tries per push when the push service is busy or unreachable, with the wait before each retry. */
const MAX_ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 60_000;

type Job = {
  subscription: Stored<'pushsubscriptions'>;
  payload: string;
  urgency: 'normal' | 'high';
  attempt: number;
};

export type PushSenderOptions = {
  store: PushStore;
  vapid: VapidKeys & { subject: string };
  pushServiceOrigins: readonly string[];
  now: () => number;
  log: (message: string, err?: unknown) => void;
  fetch?: typeof fetch;
};

/**
 * Sends a push for every notification the server creates (docs/decisions/030-installed-app.md). It
 * listens to the store's durable changes, so a notification written by any instance on a shared
 * store reaches it; each notification's push is claimed in a store decision (collection
 * `pushsends`), so exactly one instance sends it. A chat notification refreshed with a new message
 * (a new `createdAt`) is a new push; marking one read is not.
 */
export class PushSender {
  private readonly unsubscribe: () => void;
  private readonly queue: Job[] = [];
  private inFlight = 0;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: PushSenderOptions) {
    this.unsubscribe = options.store.onDurable((changes) => this.onChanges(changes));
  }

  /** Stops listening and waits for the pushes under way (retries still waiting are dropped). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    for (const t of this.timers) clearTimeout(t);
    this.queue.length = 0;
    await Promise.allSettled([...this.pending]);
  }

  private onChanges(changes: Change[]): void {
    const { store, now } = this.options;
    for (const change of changes) {
      if (change.collection !== 'notifications' || change.doc._deleted) continue;
      const n = store.get('notifications', change.doc.id);
      if (!n || n._deleted || n.read || n._seq !== change.doc._seq) continue;
      if (now() - n.createdAt > FRESH_MS) continue;
      // Most users have no device subscribed: nothing is claimed or written for them.
      if (subscriptionsOf(store, n.userId).every((s) => !s.types.includes(n.type))) continue;
      this.track(this.claimAndQueue(n));
    }
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((err: unknown) => this.options.log('Push failed', err)).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  private async claimAndQueue(n: Stored<'notifications'>): Promise<void> {
    const { store, now } = this.options;
    const claimedAt = now();
    const { value: claimed } = await store.transaction((read) => {
      const claim = read.get('pushsends', n.id);
      if (claim && !claim._deleted && claim.createdAt >= n.createdAt) return { writes: [], value: false };
      const doc = { id: n.id, userId: n.userId, createdAt: n.createdAt, claimedAt, _deleted: false };
      return { writes: [{ collection: 'pushsends', doc }], value: true };
    });
    if (!claimed || this.closed) return;
    const payload = JSON.stringify(pushPayload(n));
    const urgency = isMessageNotification(n.type) ? 'high' : 'normal';
    for (const subscription of subscriptionsOf(store, n.userId)) {
      if (!subscription.types.includes(n.type)) continue;
      if (!this.sessionLive(subscription.sessionId)) {
        // Its session ended without a logout (expired, or revoked): that device is signed out.
        this.track(removeGoneSubscription(store, subscription));
        continue;
      }
      this.enqueue({ subscription, payload, urgency, attempt: 1 });
    }
  }

  private sessionLive(sessionId: string): boolean {
    const session = this.options.store.get('sessions', sessionId);
    return !!session && !session._deleted && session.expiresAt > this.options.now();
  }

  private enqueue(job: Job): void {
    if (this.closed) return;
    if (this.queue.length >= MAX_QUEUED) {
      this.options.log(`Push dropped: ${MAX_QUEUED} pushes already waiting`);
      return;
    }
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.inFlight += 1;
      this.track(
        this.send(job).finally(() => {
          this.inFlight -= 1;
          this.pump();
        }),
      );
    }
  }

  private async send(job: Job): Promise<void> {
    const { store, vapid, pushServiceOrigins, log } = this.options;
    const { subscription } = job;
    // The configuration may have changed since the device subscribed.
    if (!isAllowedEndpoint(subscription.endpoint, pushServiceOrigins)) return;
    const outcome: DeliveryOutcome = await deliverPush(subscription, job.payload, vapid, {
      urgency: job.urgency,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
    if (outcome.kind === 'gone') await removeGoneSubscription(store, subscription);
    else if (outcome.kind === 'failed')
      log(`Push refused for ${new URL(subscription.endpoint).host}: ${outcome.detail}`);
    else if (outcome.kind === 'retry') {
      if (job.attempt >= MAX_ATTEMPTS) {
        log(`Push given up for ${new URL(subscription.endpoint).host}: ${outcome.detail}`);
        return;
      }
      const wait = Math.min(MAX_RETRY_WAIT_MS, outcome.retryAfterMs ?? 1000 * 2 ** job.attempt);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.enqueue({ ...job, attempt: job.attempt + 1 });
      }, wait);
      timer.unref();
      this.timers.add(timer);
    }
  }
}
