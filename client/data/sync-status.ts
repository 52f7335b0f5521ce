/**
 * The device's sync status, and how the tabs of one browser share it (issue 17, part 3). One tab
 * replicates (RxDB's leader election); it publishes its status for this user on this device, and
 * every other tab shows that status rather than one of its own. The last status is kept, so a new
 * tab, and a tab that becomes the leader, start from the device's real state.
 */

export type SyncStatus = {
  network: 'online' | 'offline';
  /** A pull or push is under way. */
  syncing: boolean;
  /** Local changes that still wait to go out. */
  pending: number;
  /**
   * The device's first sync after sign-in: done (once, for this device), and how many documents
   * arrived so far.
   */
  initialSync: { done: boolean; received: number };
  /**
   * The collections whose first pass of that first sync is done: a screen that shows one
   * collection (Notifications, the board) can draw it whole, or say it is empty, before the rest
   * has come (`useFirstSyncUnderWay(collection)`).
   */
  firstPassed: string[];
  /** Since the replicating tab started, every collection has been brought up to date once. */
  caughtUp: boolean;
  /** A pulled batch failed to be stored on this device: it is being pulled again. */
  storeFailed: boolean;
  /** Documents the server sent with an id this device refuses to store (see pull-guard.ts). */
  unstorable: number;
  /**
   * The server is holding back this user's writes for a while (a write quota, answered 429): its
   * message. The changes are kept and sent again after a back-off; cleared by the next push the
   * server takes.
   */
  throttled?: string;
  /** The user turned "Work offline" on: nothing is sent or fetched until it is off. */
  workingOffline: boolean;
  /** When this device last heard from the server (an answer, an event or the stream's heartbeat). */
  lastHeardAt: number | null;
  /** Changes (`collection:id`) in a push under way right now. */
  sending: string[];
  /** Whether this tab is the one that replicates (not shared: each tab knows its own). */
  leader: boolean;
};

/**
 * The device's first sync is still bringing the user's data (or, given `only`, that collection's
 * part of it, or one of those collections'), and can: online, the server reachable, not "Work
 * offline".
 */
export function firstSyncUnderWay(status: SyncStatus, only?: string | readonly string[]): boolean {
  if (status.initialSync.done || status.network !== 'online' || status.workingOffline) return false;
  if (only === undefined) return true;
  return (typeof only === 'string' ? [only] : only).some((name) => !status.firstPassed.includes(name));
}

/** Where a sync status is read and followed (the sync controller). */
export type FollowedStatus = {
  readonly status: SyncStatus;
  readonly status$: {
    subscribe(observer: { next(status: SyncStatus): void; complete(): void }): { unsubscribe(): void };
  };
};

/**
 * Resolves once these collections' part of the first sync is in (or can no longer come: offline,
 * "Work offline"): at once on a device past its first sync. An action that reads collections its
 * screen does not wait for awaits this first, so it never acts on half of the data.
 */
export function firstPassesIn(sync: FollowedStatus, names: readonly string[]): Promise<void> {
  if (!firstSyncUnderWay(sync.status, names)) return Promise.resolve();
  return new Promise((resolve) => {
    const subscription = sync.status$.subscribe({
      next(status) {
        if (firstSyncUnderWay(status, names)) return;
        queueMicrotask(() => subscription.unsubscribe());
        resolve();
      },
      // The data closed (sign-out, a reset): nothing more is coming.
      complete: resolve,
    });
  });
}

export const INITIAL_STATUS: SyncStatus = {
  network: 'online',
  syncing: false,
  pending: 0,
  initialSync: { done: false, received: 0 },
  firstPassed: [],
  caughtUp: false,
  storeFailed: false,
  unstorable: 0,
  workingOffline: false,
  lastHeardAt: null,
  sending: [],
  leader: false,
};

/** Where the replicating tab's status is published and read. */
export type SharedStatus = {
  read(): SyncStatus | null;
  publish(status: SyncStatus): void;
  /** Called with each status another tab publishes. */
  subscribe(listener: (status: SyncStatus) => void): () => void;
};

/** Shared through localStorage: read at once by a new tab, and announced to the others by `storage` events. */
export function localStorageSharedStatus(key: string): SharedStatus {
  let last = '';
  const parse = (raw: string | null): SyncStatus | null => {
    if (!raw) return null;
    try {
      const value = JSON.parse(raw) as Partial<SyncStatus>;
      return { ...INITIAL_STATUS, ...value, leader: false };
    } catch {
      return null;
    }
  };
  return {
    read: () => parse(globalThis.localStorage?.getItem(key) ?? null),
    publish(status) {
      const raw = JSON.stringify({ ...status, leader: undefined });
      if (raw === last) return;
      last = raw;
      try {
        globalThis.localStorage?.setItem(key, raw);
      } catch {
        // Storage full: the other tabs keep the last status they read.
      }
    },
    subscribe(listener) {
      if (typeof window === 'undefined') return () => {};
      const onStorage = (e: StorageEvent) => {
        if (e.key !== key) return;
        const status = parse(e.newValue);
        if (status) listener(status);
      };
      window.addEventListener('storage', onStorage);
      return () => window.removeEventListener('storage', onStorage);
    },
  };
}

/** The sync status as one line: what the nav shows, and what the sync panel's button is called. */
export function statusLabel(status: SyncStatus): { label: string; tone: 'ok' | 'busy' | 'off' | 'error' } {
  const waiting =
    status.pending > 0 ? ` · ${status.pending} change${status.pending === 1 ? '' : 's'} waiting to sync` : '';
  if (status.workingOffline) return { label: `Working offline${waiting || ' · your data is available'}`, tone: 'off' };
  if (status.network === 'offline') return { label: `Offline${waiting || ' · your data is available'}`, tone: 'off' };
  // Never "up to date" while data the server sent is missing here.
  if (status.storeFailed) return { label: `Some data could not be saved on this device · retrying${waiting}`, tone: 'error' };
  if (status.throttled) return { label: `${status.throttled}${waiting}`, tone: 'busy' };
  if (!status.initialSync.done) {
    const n = status.initialSync.received;
    return { label: `Syncing your data… ${n} item${n === 1 ? '' : 's'} received`, tone: 'busy' };
  }
  if (status.syncing || status.pending > 0 || !status.caughtUp) return { label: `Syncing${waiting}`, tone: 'busy' };
  if (status.unstorable > 0) {
    const n = status.unstorable;
    return { label: `Online · ${n} item${n === 1 ? '' : 's'} from the server could not be stored`, tone: 'error' };
  }
  return { label: 'Online · up to date', tone: 'ok' };
}
