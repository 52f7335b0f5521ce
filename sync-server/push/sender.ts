import { isMessageNotification } from '../../shared/display';
import { pushPayload } from '../../shared/push-payload';
import type { Change, Stored } from '../store/store';
import { claimPushes } from './claims';
import { deliverPush, isAllowedEndpoint, type DeliveryOutcome } from './deliver';
import { FRESH_MS, SENDER_LIMITS, type SenderLimits } from './limits';
import { madeForKey, removeGoneSubscription, subscriptionsOf, type PushStore } from './subscriptions';
import type { VapidKeys } from './vapid';

/** Tries per push when the push service is busy or unreachable, with the wait before each retry. */
const MAX_ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 60_000;

type Job = {
  userId: string;
  notificationId: string;
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
  /** SENDER_LIMITS unless a test names smaller ones. */
  limits?: Partial<SenderLimits>;
};

/**
 * Sends a push for every notification the server creates (docs/decisions/030-installed-app.md). It
 * listens to the store's durable changes, so a notification written by any instance on a shared
 * store reaches it; each notification's push is claimed in a store decision (collection
 * `pushsends`), so exactly one instance sends it. A chat notification refreshed with a new message
 * (a new `createdAt`) is a new push; marking one read is not.
 *
 * Each user has a bounded share: of the claims kept, of the pushes waiting and of those in flight.
 * Users waiting are served in turn, so one user's flood (or slow push service) delays and drops
 * only that user's pushes.
 */
export class PushSender {
  private readonly unsubscribe: () => void;
  private readonly limits: SenderLimits;
  /** Pushes waiting, per user, the users in the order they are served next. */
  private readonly queues = new Map<string, Job[]>();
  private queued = 0;
  private inFlight = 0;
  private readonly inFlightOf = new Map<string, number>();
  /** Users whose pushes are being dropped: logged once until their queue has room again. */
  private readonly dropping = new Set<string>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: PushSenderOptions) {
    this.limits = { ...SENDER_LIMITS, ...options.limits };
    this.unsubscribe = options.store.onDurable((changes) => this.onChanges(changes));
  }

  /** Stops listening and waits for the pushes under way (retries still waiting are dropped). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    for (const t of this.timers) clearTimeout(t);
    this.queues.clear();
    this.queued = 0;
    await Promise.allSettled([...this.pending]);
  }

  private onChanges(changes: Change[]): void {
    const { store, now } = this.options;
    const byUser = new Map<string, Stored<'notifications'>[]>();
    for (const change of changes) {
      if (change.collection !== 'notifications' || change.doc._deleted) continue;
      const n = store.get('notifications', change.doc.id);
      if (!n || n._deleted || n.read || n._seq !== change.doc._seq) continue;
      if (now() - n.createdAt > FRESH_MS) continue;
      // Most users have no device subscribed: nothing is claimed or written for them.
      if (subscriptionsOf(store, n.userId).every((s) => !s.types.includes(n.type))) continue;
      byUser.set(n.userId, [...(byUser.get(n.userId) ?? []), n]);
    }
    // One claim decision per user and group of changes (claims.ts).
    for (const [userId, notifications] of byUser) this.track(this.claimAndQueue(userId, notifications));
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((err: unknown) => this.options.log('Push failed', err)).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  private async claimAndQueue(userId: string, notifications: Stored<'notifications'>[]): Promise<void> {
    const { store, now, log } = this.options;
    const outcomes = await claimPushes(store, userId, notifications, now(), this.limits.claimsPerUser);
    if (outcomes.includes('full'))
      log(`Push not sent: ${this.limits.claimsPerUser} pushes already sent to one user lately`);
    notifications.forEach((n, i) => {
      if (outcomes[i] === 'claimed' && !this.closed) this.queuePush(n);
    });
  }

  private queuePush(n: Stored<'notifications'>): void {
    const { store, vapid } = this.options;
    const payload = JSON.stringify(pushPayload(n));
    const urgency = isMessageNotification(n.type) ? 'high' : 'normal';
    for (const subscription of subscriptionsOf(store, n.userId)) {
      if (!subscription.types.includes(n.type)) continue;
      if (!this.sessionLive(subscription.sessionId) || !madeForKey(subscription, vapid.publicKey)) {
        // Its session ended without a logout (expired, or revoked): that device is signed out. Or
        // it was made for a key the server no longer has: every push to it would be refused.
        this.track(removeGoneSubscription(store, subscription));
        continue;
      }
      this.enqueue({ userId: n.userId, notificationId: n.id, subscription, payload, urgency, attempt: 1 });
    }
  }

  private sessionLive(sessionId: string): boolean {
    const session = this.options.store.get('sessions', sessionId);
    return !!session && !session._deleted && session.expiresAt > this.options.now();
  }

  private enqueue(job: Job): void {
    if (this.closed) return;
    const queue = this.queues.get(job.userId) ?? [];
    // A newer push of the same notification to the same device replaces the one still waiting
    // (a conversation's next message: the device would show only the newer one anyway).
    const same = queue.findIndex(
      (j) => j.notificationId === job.notificationId && j.subscription.id === job.subscription.id,
    );
    if (same >= 0) {
      queue[same] = job;
      return;
    }
    if (queue.length >= this.limits.queuedPerUser || this.queued >= this.limits.queued) {
      if (!this.dropping.has(job.userId)) {
        this.dropping.add(job.userId);
        this.options.log(
          queue.length >= this.limits.queuedPerUser
            ? `Push dropped: ${this.limits.queuedPerUser} pushes already waiting for one user`
            : `Push dropped: ${this.limits.queued} pushes already waiting`,
        );
      }
      return;
    }
    this.dropping.delete(job.userId);
    queue.push(job);
    this.queues.set(job.userId, queue);
    this.queued += 1;
    this.pump();
  }

  /** The next push to send: from the first user in turn who has one waiting and room in flight. */
  private next(): Job | undefined {
    for (const [userId, queue] of this.queues) {
      if ((this.inFlightOf.get(userId) ?? 0) >= this.limits.inFlightPerUser) continue;
      const job = queue.shift()!;
      // That user is served again after everyone else waiting.
      this.queues.delete(userId);
      if (queue.length > 0) this.queues.set(userId, queue);
      this.queued -= 1;
      return job;
    }
    return undefined;
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.limits.inFlight) {
      const job = this.next();
      if (!job) return;
      this.inFlight += 1;
      this.inFlightOf.set(job.userId, (this.inFlightOf.get(job.userId) ?? 0) + 1);
      this.track(
        this.send(job).finally(() => {
          this.inFlight -= 1;
          const left = (this.inFlightOf.get(job.userId) ?? 1) - 1;
          if (left > 0) this.inFlightOf.set(job.userId, left);
          else this.inFlightOf.delete(job.userId);
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
    const host = new URL(subscription.endpoint).host;
    if (outcome.kind === 'gone') {
      if (outcome.status === 401 || outcome.status === 403)
        log(
          `Push refused for ${host} (${outcome.status}: not this server's key): the device's subscription is removed`,
        );
      await removeGoneSubscription(store, subscription);
    } else if (outcome.kind === 'failed') log(`Push refused for ${host}: ${outcome.detail}`);
    else if (outcome.kind === 'retry') {
      if (job.attempt >= MAX_ATTEMPTS) {
        log(`Push given up for ${host}: ${outcome.detail}`);
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
