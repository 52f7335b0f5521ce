import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { ChatHub } from './chat/hub';
import type { Config } from './config';
import { createContext, type AppContext } from './context';
import { INDEXES } from './indexes';
import { settleStoredGigs } from './policies/hiring';
import { startPush } from './push/push';
import { settleReputations } from './reviews/settle';
import { reviewTimerJobs } from './reviews/timers';
import { opensReviews } from '../shared/reviews';
import { ChangeStreamHub } from './replication/stream';
import { openJournalStore } from './store/journal-store';
import { describeIndexRebuild } from './store/postgres/index-keys';
import { PgStore } from './store/postgres/pg-store';
import type { Store } from './store/store';
import { Scheduler, type TimerJob } from './timers/scheduler';
import { MemoryWindowCounters, type WindowCounters } from './http/window-counters';
import { createPayments, type Payments } from './payments/payments';
import { autoReleaseJob, settlementRecoveryJob } from './payments/release';

export type RunningServer = {
  url: string;
  port: number;
  ctx: AppContext;
  /** The payments provider and its lock (tests reach the simulated provider's `failNext` here). */
  payments: Payments;
  /** Work made due by stored dates (tests run it with the clock they control: `timers.runDue()`). */
  timers: Scheduler;
  chat: ChatHub;
  /** The open change streams. */
  streams: ChangeStreamHub;
  close(): Promise<void>;
};

/** What the server does when stored dates pass; each module adds its jobs here. */
function timerJobs(ctx: AppContext, payments: Payments): TimerJob[] {
  return [autoReleaseJob(payments), settlementRecoveryJob(payments), ...reviewTimerJobs(ctx.store)];
}

/** Rate windows older than this are forgotten (the longest window, a write quota's, is a day). */
const COUNTER_WINDOW_KEEP_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * The store the configuration names: PostgreSQL when DATABASE_URL is set (any number of
 * instances share it, and count rate limits in it), otherwise the embedded store in DATA_DIR.
 */
async function openStore(config: Config): Promise<{ store: Store; counters: WindowCounters; stop: () => void }> {
  if (config.databaseUrl) {
    const store = await PgStore.open({
      connectionString: config.databaseUrl,
      indexes: INDEXES,
      poolSize: config.databasePoolSize,
      onIndexRebuild:
        config.logLevel === 'info' ? (r) => console.log(`PostgreSQL: ${describeIndexRebuild(r)}`) : undefined,
    });
    const prune = setInterval(
      () => void store.counters.prune(Date.now(), COUNTER_WINDOW_KEEP_MS).catch(() => {}),
      10 * 60_000,
    ).unref();
    return { store, counters: store.counters, stop: () => clearInterval(prune) };
  }
  const store = await openJournalStore({
    dataDir: config.dataDir,
    indexes: INDEXES,
    snapshotIntervalMs: config.snapshotIntervalMs,
    snapshotEveryCommits: config.snapshotEveryCommits,
  });
  return { store, counters: new MemoryWindowCounters(), stop: () => {} };
}

export type ServerOptions = {
  /** The server's clock (tests control it); Date.now by default. */
  now?: () => number;
  /** A chat room log's newest small entries are merged past this many (tests lower it). */
  chatCompactAfter?: number;
  /** False: replication pushes go through Express too (tests compare the two paths' answers). */
  pushPath?: boolean;
};

/** Opens the store, then serves the API, the change stream and the client on one HTTP server. */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const now = options.now ?? Date.now;
  const { store, counters, stop } = await openStore(config);
  await settleStoredGigs(store, now());
  await settleReputations(store, now());
  const ctx = createContext(config, store, now, counters);
  const payments = createPayments(ctx);
  const timers = new Scheduler(store, timerJobs(ctx, payments), {
    intervalMs: config.timerIntervalMs,
    now,
    log: ctx.log,
    instance: crypto.randomBytes(6).toString('hex'),
  });
  // A session ended on any instance (logout, a new login) closes its streams and chat sockets
  // here: the tombstone reaches every instance's store listeners.
  const unrevoke = store.onDurable((changes) => {
    for (const { collection, doc } of changes)
      if (collection === 'sessions' && doc._deleted) ctx.events.emit('session-revoked', doc.id);
  });
  // Completed work opens its review window: look for what that made due at once (the request to
  // review arrives with the completion, whichever way the work was completed), not at the next look.
  const unpoke = store.onDurable((changes) => {
    if (
      changes.some(
        (c) =>
          c.collection === 'applications' && opensReviews({ status: c.doc.status, completedAt: c.doc.completedAt }),
      )
    )
      void timers.runDue();
  });
  const hub = new ChangeStreamHub(ctx);
  const push = await startPush(ctx);
  const server = http.createServer(createApp(ctx, hub, { push, payments }, { pushPath: options.pushPath }));
  const chat = new ChatHub(ctx, { idleMs: config.chatRoomIdleMs, compactAfter: options.chatCompactAfter });
  chat.attach(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    hub.close();
    await push.close();
    await chat.close();
    await timers.stop();
    unrevoke();
    unpoke();
    stop();
    await store.close();
    throw err;
  }
  timers.start();
  const { port } = server.address() as AddressInfo;
  const host = config.host && config.host !== '0.0.0.0' && config.host !== '::' ? config.host : 'localhost';
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    payments,
    timers,
    chat,
    streams: hub,
    async close() {
      unpoke();
      await timers.stop();
      hub.close();
      await push.close();
      await chat.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      unrevoke();
      stop();
      await store.close();
    },
  };
}
