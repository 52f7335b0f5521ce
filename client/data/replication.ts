import type { ReplicationPullHandlerResult, RxCollection, RxReplicationPullStreamItem, WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { Subject } from 'rxjs';
import {
  isReplicated,
  readChangesEvent,
  readPullAnswer,
  readPushAnswer,
  pullPath,
  STREAM_EVENTS,
  type ChangesEvent,
  type Checkpoint,
  type PushedDocument,
  type PushRow,
  type Refusal,
} from '../../shared/sync/protocol';
import { REPLICATED_NAMES, toLocal, type DocTypes, type ReplicatedName } from './collections';
import { rememberPushed, type PushedStates } from './conflict-handler';
import { changedSince, pushedStatesOf, type AppDatabase } from './database';
import { EventStream, type StreamStatus } from './event-stream';
import type { Outbox } from './outbox';
import { isStoreFailure, PullRewinds, storable, type RewindPersistence } from './pull-guard';
import { pulledUnchanged, replicationIdentifier } from './pull-marks';
import { clean, HttpStatusError, syncRequest } from './sync-http';
import { INITIAL_STATUS, type SharedStatus, type SyncStatus } from './sync-status';
import type { WorkOffline } from './work-offline';

export { localStorageRewinds } from './pull-guard';

export type { Checkpoint } from '../../shared/sync/protocol';

export type { SyncStatus } from './sync-status';

export type SyncOptions = {
  /** '' in the browser (same origin); the server's URL in Node. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Extra headers (Node: the session cookie and Origin; the browser sends its own). */
  headers?: () => Record<string, string>;
  outbox: Outbox;
  /** Ids (`collection:id`) the server just refused; read by the conflict handler. */
  refused: Set<string>;
  /** What this device pushed of each document; read by the conflict handler (default: the database's own). */
  pushed?: PushedStates;
  /** The server says the session is gone. */
  onUnauthorized: () => void;
  /** Wait to become the leader tab before replicating (one tab replicates for all). */
  waitForLeadership?: boolean;
  /** Where the replicating tab publishes its status and the other tabs read it (default: this tab alone). */
  shared?: SharedStatus;
  /** The "Work offline" switch: while on, nothing is sent or fetched. */
  workOffline?: WorkOffline;
  /** Collections a new device pulls first: those of the screen the user opened (first-screen.ts). */
  firstCollections?: readonly ReplicatedName[];
  batchSize?: number;
  /** Where the collections still to be pulled again after a failed store are kept (default: memory only). */
  rewinds?: RewindPersistence;
  /** A pull's or push's time bound (default SYNC_REQUEST_TIMEOUT_MS, sync-http.ts). */
  requestTimeoutMs?: number;
  /** How long the change stream may stay silent before it is connected again (default STREAM_SILENCE_MS). */
  streamSilenceMs?: number;
};

/** The longest the other collections wait for the opened screen's first pass on a new device. */
const FIRST_SCREEN_WAIT_MS = 3_000;

/** The performance mark set when the first pulled gigs arrive. */
const FIRST_GIGS_MARK = 'sync:first-gigs';

/** The longest a push waits after a 429 before it is tried again (the server's Retry-After may be hours). */
const MAX_THROTTLED_RETRY_MS = 5 * 60_000;

/** What the controller needs of one collection's replication, whatever its document type. */
type CollectionReplication = {
  state: ReplicationHandle;
  /** The change stream (re)connected: whatever changed meanwhile comes by pull (RxDB's RESYNC). */
  resync(): void;
  /** A `changes` event for this collection. */
  changes(event: ChangesEvent): void;
  complete(): void;
};

/** The members of RxDB's replication state the controller uses (they do not depend on the document type). */
type ReplicationHandle = Pick<
  RxReplicationState<unknown, Checkpoint>,
  | 'active$'
  | 'error$'
  | 'received$'
  | 'retryTime'
  | 'reSync'
  | 'awaitInSync'
  | 'awaitInitialReplication'
  | 'cancel'
  | 'start'
  | 'pause'
>;

/**
 * Replicates every collection with the sync server (RxDB's HTTP protocol, see
 * sync-server/replication): pull with a checkpoint, push with conflicts, one change stream for all
 * collections, RESYNC whenever the stream (re)connects, retries with exponential backoff.
 * Status is exposed as events; `destroy()` removes every listener and timer it added.
 */
export class SyncController {
  readonly status$: Subject<SyncStatus> = new Subject();
  private replications = new Map<ReplicatedName, CollectionReplication>();
  private stream: EventStream | undefined;
  private readonly fetchFn: typeof fetch;
  private active = new Map<ReplicatedName, boolean>();
  private received: number;
  private initialDone: boolean;
  /** The collections whose first pass of the device's first sync is done. */
  private firstPassed: Set<string>;
  private caughtUp = false;
  private online: boolean;
  private cleanups: (() => void)[] = [];
  private destroyed = false;
  private unauthorizedReported = false;
  private rewinds: PullRewinds;
  /** Collections pulling again from the start, with the store-failure mark they started at. */
  private rewinding = new Map<ReplicatedName, number>();
  private unstorable = 0;
  private retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private throttled: string | undefined;
  /** Per collection, how long to wait before pushing again after a 429. */
  private throttledWait = new Map<ReplicatedName, number>();
  /** This tab replicates (RxDB's leader election); the others show the leader's status. */
  private leading = false;
  /** "Work offline" is on: replication and the change stream are paused. */
  private paused: boolean;
  private started = false;
  private lastHeardAt: number | null;
  /** Per collection, the changes (`collection:id`) of the push under way. */
  private sending = new Map<ReplicatedName, string[]>();
  /** Refusals kept by this controller, numbering their sync problems. */
  private refusalsKept = 0;
  /** The leader tab's last published status, while this tab is not the leader. */
  private followed: SyncStatus | null;

  constructor(
    private readonly db: AppDatabase,
    private readonly options: SyncOptions,
  ) {
    this.online = typeof navigator === 'undefined' ? true : navigator.onLine;
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    const pushed = options.pushed ?? pushedStatesOf(db);
    this.rewinds = new PullRewinds(options.rewinds);
    this.paused = options.workOffline?.on ?? false;
    // The device's sync so far, as the last replicating tab left it: a tab that takes over
    // continues from there (the first sync done stays done).
    this.followed = options.shared?.read() ?? null;
    this.initialDone = this.followed?.initialSync.done ?? false;
    this.received = this.followed?.initialSync.received ?? 0;
    this.firstPassed = new Set(this.followed?.firstPassed ?? []);
    this.lastHeardAt = this.followed?.lastHeardAt ?? null;

    // Each collection with its own document type (a generic call per name, checked by the compiler).
    const collections: { [K in ReplicatedName]: RxCollection<DocTypes[K]> } = db;
    const create = <K extends ReplicatedName>(name: K) =>
      this.replications.set(name, this.replicate(name, collections[name], pushed));
    for (const name of REPLICATED_NAMES) create(name);

    this.cleanups.push(options.outbox.subscribe(() => this.emit()));
    if (options.shared) {
      this.cleanups.push(
        options.shared.subscribe((status) => {
          if (this.leading) return;
          this.followed = status;
          this.emit();
        }),
      );
    }
    if (options.workOffline) this.cleanups.push(options.workOffline.subscribe((on) => this.setPaused(on)));
    if (typeof window !== 'undefined') {
      const online = () => {
        this.online = true;
        if (this.running) {
          this.stream?.reconnectNow();
          for (const s of this.states()) {
            s.retryTime = 1000;
            s.reSync();
          }
        }
        this.emit();
      };
      const offline = () => {
        this.online = false;
        this.emit();
      };
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      this.cleanups.push(() => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      });
    }
    if ((options.waitForLeadership ?? true) && db.multiInstance) {
      void db.waitForLeadership().then(() => this.lead(), () => undefined);
    } else {
      this.lead();
    }
  }

  get status(): SyncStatus {
    if (!this.leading && this.followed) {
      // Another tab replicates: its status, with what waits here (the outbox is shared) and the switch.
      return { ...this.followed, pending: this.options.outbox.count, workingOffline: this.paused, leader: false };
    }
    return {
      ...INITIAL_STATUS,
      network: this.online ? 'online' : 'offline',
      syncing: [...this.active.values()].some(Boolean),
      pending: this.options.outbox.count,
      initialSync: { done: this.initialDone, received: this.received },
      firstPassed: [...this.firstPassed],
      caughtUp: this.caughtUp,
      storeFailed: this.rewinds.any,
      unstorable: this.unstorable,
      ...(this.throttled ? { throttled: this.throttled } : {}),
      workingOffline: this.paused,
      lastHeardAt: this.lastHeardAt,
      sending: [...this.sending.values()].flat(),
      leader: this.leading,
    };
  }

  /** Resolves when every collection is in sync with the server (never offline: don't block the UI on it). */
  async awaitInSync(): Promise<void> {
    await Promise.all(this.states().map((s) => s.awaitInSync()));
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    this.stream?.destroy();
    for (const c of this.cleanups) c();
    for (const t of this.retryTimers) clearTimeout(t);
    await Promise.all(this.states().map((s) => s.cancel()));
    for (const r of this.replications.values()) r.complete();
    this.status$.complete();
  }

  /** Replicating now: this tab leads and "Work offline" is off. */
  private get running(): boolean {
    return this.leading && !this.paused && !this.destroyed;
  }

  /** This tab was elected to replicate for the device: it starts, unless "Work offline" is on. */
  private lead(): void {
    if (this.destroyed || this.leading) return;
    this.leading = true;
    this.followed = null;
    if (!this.paused) this.run();
    this.emit();
  }

  private setPaused(on: boolean): void {
    if (this.paused === on) return;
    this.paused = on;
    if (this.leading && !this.destroyed) {
      if (on) {
        this.stream?.destroy();
        this.stream = undefined;
        for (const s of this.states()) void s.pause();
        this.active.clear();
      } else {
        this.run();
      }
    }
    this.emit();
  }

  /**
   * Starts (or, after a pause, resumes) every collection's replication and opens the change stream.
   * A new device's first sync starts the opened screen's collections first (`firstCollections`),
   * and the others once those have done their first pass, or after FIRST_SCREEN_WAIT_MS at most.
   */
  private run(): void {
    const start = (s: ReplicationHandle) => {
      s.retryTime = 1000;
      s.start().catch(() => undefined); // a failed start is reported on error$
    };
    const first = new Set(!this.started && !this.initialDone ? (this.options.firstCollections ?? []) : []);
    const now = [...this.replications].filter(([name]) => first.has(name)).map(([, r]) => r.state);
    const later = [...this.replications].filter(([name]) => !first.has(name)).map(([, r]) => r.state);
    if (now.length === 0 || later.length === 0) {
      for (const s of this.states()) start(s);
    } else {
      for (const s of now) start(s);
      let done = false;
      const startLater = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.retryTimers.delete(timer);
        // Paused meanwhile ("Work offline"): the resume starts everything.
        if (this.running) for (const s of later) start(s);
      };
      const timer = setTimeout(startLater, FIRST_SCREEN_WAIT_MS);
      this.retryTimers.add(timer);
      void Promise.all(now.map((s) => s.awaitInitialReplication())).then(startLater, startLater);
    }
    this.openStream();
    if (this.started) return;
    this.started = true;
    for (const [name, r] of this.replications) {
      r.state.awaitInitialReplication().then(
        () => {
          if (this.firstPassed.has(name)) return;
          this.firstPassed.add(name);
          this.emit();
        },
        () => {},
      );
    }
    void Promise.all(this.states().map((s) => s.awaitInitialReplication())).then(
      () => {
        this.initialDone = true;
        this.caughtUp = true;
        this.emit();
      },
      () => {},
    );
  }

  private openStream(): void {
    this.stream?.destroy();
    this.stream = new EventStream({
      url: `${this.options.baseUrl}/api/sync/stream`,
      fetch: this.fetchFn,
      headers: this.options.headers,
      onStatus: (s) => this.onStreamStatus(s),
      onActivity: () => this.heard(),
      silenceMs: this.options.streamSilenceMs,
      onEvent: (e) => {
        if (e.event === STREAM_EVENTS.hello) {
          for (const r of this.replications.values()) r.resync();
        } else if (e.event === STREAM_EVENTS.changes) {
          const event = readChangesEvent(JSON.parse(e.data));
          // (A collection this device does not replicate, a newer server's, is ignored.)
          if (isReplicated(event.collection)) this.replications.get(event.collection)?.changes(event);
        }
      },
    });
  }

  /** The server answered, or its stream sent something: the device last heard from it now. */
  private heard(): void {
    this.lastHeardAt = Date.now();
    this.emit();
  }

  private states(): ReplicationHandle[] {
    return [...this.replications.values()].map((r) => r.state);
  }

  /**
   * One collection's replication: pull with a checkpoint, push with conflicts, and the change
   * stream's events for it (shared/sync/protocol.ts defines what travels).
   */
  private replicate<K extends ReplicatedName>(
    name: K,
    collection: RxCollection<DocTypes[K]>,
    pushed: PushedStates,
  ): CollectionReplication {
    const options = this.options;
    const stream$ = new Subject<RxReplicationPullStreamItem<DocTypes[K], Checkpoint>>();
    const state = replicateRxCollection<DocTypes[K], Checkpoint>({
      replicationIdentifier: replicationIdentifier(name),
      collection,
      live: true,
      retryTime: 1000,
      // The controller starts it once this tab leads, and pauses it for "Work offline".
      waitForLeadership: false,
      autoStart: false,
      toggleOnDocumentVisible: false,
      pull: {
        batchSize: options.batchSize ?? 500,
        stream$: stream$.asObservable(),
        handler: async (checkpoint, batchSize): Promise<ReplicationPullHandlerResult<DocTypes[K], Checkpoint>> => {
          let seq = checkpoint?.seq ?? 0;
          if (this.rewinds.takeDue(name)) {
            seq = 0;
            this.rewinding.set(name, this.rewinds.mark(name));
          }
          const body = readPullAnswer(await this.request('GET', pullPath(name, { seq, limit: batchSize })));
          // For the benchmarks: when a new device's first gigs arrived (bench/browser-board.ts).
          if (name === 'gigs' && body.documents.length > 0 && performance.getEntriesByName(FIRST_GIGS_MARK).length === 0)
            performance.mark(FIRST_GIGS_MARK);
          if (body.documents.length < batchSize) this.afterPass(name);
          this.received += body.documents.length;
          this.emit();
          return { documents: this.storable(name, body.documents), checkpoint: body.checkpoint };
        },
      },
      push: {
        batchSize: 50,
        handler: async (all) => {
          // A document holding the version a pull stored, unchanged here since, has nothing of
          // this device's to send, whatever RxDB's record of it says: its record was not written
          // (the tab closed in between) or is not kept (others' gigs), see pull-marks.ts.
          const unchanged = await pulledUnchanged(
            collection as RxCollection,
            all.map((r) => String(r.newDocumentState.id)),
          );
          const rows = all.filter((r) => !unchanged.has(String(r.newDocumentState.id)));
          if (rows.length === 0) return [];
          const payload: PushRow[] = rows.map((r) => ({
            assumedMasterState: r.assumedMasterState ? clean(r.assumedMasterState, name) : null,
            newDocumentState: clean(r.newDocumentState, name),
          }));
          for (const p of payload)
            rememberPushed(pushed, `${name}:${String(p.newDocumentState.id)}`, p.newDocumentState, p.assumedMasterState);
          this.sending.set(
            name,
            payload.map((p) => `${name}:${String(p.newDocumentState.id)}`),
          );
          this.emit();
          const answer = await this.request('POST', `/api/sync/${name}/push`, payload).catch((err: unknown) => {
            // A 429: nothing was written. RxDB keeps the rows and pushes them again after
            // retryTime; the sync status says why they wait.
            if (err instanceof HttpStatusError && err.status === 429) {
              this.throttledWait.set(name, Math.min(MAX_THROTTLED_RETRY_MS, (err.retryAfter ?? 0) * 1000));
              this.setThrottled(err.message);
            }
            throw err;
          }).finally(() => {
            this.sending.delete(name);
            this.emit();
          });
          const body = readPushAnswer(answer);
          this.throttledWait.delete(name);
          if (this.throttledWait.size === 0) this.setThrottled(undefined);
          await this.recordRefusals(name, body.refused, payload.map((p) => p.newDocumentState));
          // Taken: no longer waiting, unless the user changed it again meanwhile (that version
          // goes out next). A conflict handed to RxDB stays counted until it is resolved
          // (Outbox.resolved).
          const conflicts = this.storable(name, body.conflicts);
          const conflicted = new Set(conflicts.map((d) => d.id));
          const taken = rows.filter((r) => !conflicted.has(String(r.newDocumentState.id))).map((r) => r.newDocumentState);
          const changed = taken.length ? await changedSince(collection as RxCollection, taken) : new Set<string>();
          options.outbox.settle(
            name,
            taken.map((doc) => String(doc.id)).filter((id) => !changed.has(id)),
          );
          return conflicts;
        },
      },
    });
    const subs = [
      state.active$.subscribe((a) => {
        this.active.set(name, a);
        this.emit();
      }),
      state.error$.subscribe((err) => {
        // Back off while failing; the browser's online event resets it.
        state.retryTime = Math.min(30_000, (state.retryTime ?? 1000) * 2);
        if (isStoreFailure(err)) this.storeFailed(name, state, err);
        const status = (err as { parameters?: { error?: unknown } }).parameters?.error;
        if (status instanceof HttpStatusError && status.status === 401) this.reportUnauthorized();
        // Over a write quota: wait as long as the server asked (within reason) before the retry.
        state.retryTime = Math.max(state.retryTime, this.throttledWait.get(name) ?? 0);
      }),
      state.received$.subscribe(() => {
        state.retryTime = 1000;
      }),
    ];
    this.cleanups.push(() => subs.forEach((s) => s.unsubscribe()));
    return {
      state,
      resync: () => stream$.next('RESYNC'),
      changes: (event) => stream$.next({ documents: this.storable(name, event.documents), checkpoint: event.checkpoint }),
      complete: () => stream$.complete(),
    };
  }

  /** The documents the server sent that this device can store (see pull-guard.ts), as it stores them. */
  private storable<K extends ReplicatedName>(name: K, documents: readonly unknown[]): WithDeleted<DocTypes[K]>[] {
    const { keep, refused } = storable(name, documents);
    if (refused) {
      this.unstorable += refused;
      console.warn(`Sync: ${refused} ${name} document(s) from the server have an invalid id and were not stored`);
    }
    return keep.map((doc) => toLocal(name, doc));
  }

  /**
   * A pulled batch failed to be stored, and RxDB may save a later batch's checkpoint past it:
   * the collection is pulled again from the start (documents already stored are skipped as
   * equal), after the back-off, until a whole pass is stored. Shown in the status meanwhile.
   */
  private storeFailed(name: ReplicatedName, state: ReplicationHandle, err: unknown): void {
    console.warn(`Sync: storing pulled ${name} failed; pulling them again`, err);
    this.rewinds.failed(name);
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.running) state.reSync();
    }, state.retryTime ?? 1000);
    this.retryTimers.add(timer);
    this.emit();
  }

  /** A pull pass reached the server's end: once it is stored, a rewind begun before it is done. */
  private afterPass(name: ReplicatedName): void {
    const mark = this.rewinding.get(name);
    if (mark === undefined) return;
    this.rewinding.delete(name);
    void this.replications
      .get(name)
      ?.state.awaitInSync()
      .then(() => {
        this.rewinds.settled(name, mark);
        this.emit();
      });
  }

  private emit(): void {
    if (this.destroyed) return;
    const status = this.status;
    if (this.leading) this.options.shared?.publish(status);
    this.status$.next(status);
  }

  private setThrottled(message: string | undefined): void {
    if (this.throttled === message) return;
    this.throttled = message;
    this.emit();
  }

  private onStreamStatus(s: StreamStatus): void {
    if (s === 'unauthorized') this.reportUnauthorized();
    else if (s === 'open') this.online = true;
    else if (s === 'unreachable') this.online = false;
    else if (s === 'closed' && typeof navigator !== 'undefined' && !navigator.onLine) this.online = false;
    this.emit();
  }

  private reportUnauthorized(): void {
    if (this.unauthorizedReported || this.destroyed) return;
    this.unauthorizedReported = true;
    this.options.onUnauthorized();
  }

  /** A request to the sync server: its JSON answer, parsed by the caller with the protocol's schema. */
  private request(method: string, path: string, body?: unknown): Promise<unknown> {
    return syncRequest(
      {
        fetch: this.fetchFn,
        baseUrl: this.options.baseUrl,
        headers: this.options.headers,
        onUnreachable: () => {
          if (this.online) {
            this.online = false;
            this.emit();
          }
        },
        onAnswer: () => {
          this.online = true;
          this.heard();
        },
        onUnauthorized: () => this.reportUnauthorized(),
        timeoutMs: this.options.requestTimeoutMs,
      },
      method,
      path,
      body,
    );
  }

  private async recordRefusals(name: ReplicatedName, refused: Refusal[], pushed: PushedDocument[]) {
    if (refused.length === 0) return;
    const now = Date.now();
    const rows = refused.map((r) => {
      this.options.refused.add(`${name}:${r.id}`);
      const content = pushed.find((p) => p.id === r.id) ?? { id: r.id };
      return {
        // Unique whatever the clock: two answers refusing one document within a millisecond
        // would otherwise name their problems alike, and the second insert fails without a word.
        id: `${name}:${r.id}:${now}:${++this.refusalsKept}`,
        collectionName: name,
        docId: r.id,
        reason: r.reason,
        content: JSON.stringify(content),
        createdAt: now,
      };
    });
    const { error } = await this.db.syncproblems.bulkInsert(rows);
    // A refusal not kept is a write lost without a word: the push fails, RxDB sends it again.
    if (error.length > 0) throw new Error(`Sync: ${error.length} refused change(s) could not be kept on this device`);
  }
}
