import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { AppDatabase } from './database';
import type { ReplicatedName } from './collections';
import type { LocalData } from './local-data';
import { collectionsForScreen } from './first-screen';
import { watchBoardCopy } from './board-copy';
import { Outbox, localStorageOutbox } from './outbox';
import type { SyncController, SyncStatus } from './replication';
import {
  deleteDatabases,
  deleteUserCaches,
  deviceKeys,
  forgetUserStorage,
  resumeDeletions,
  userDatabases,
} from './device-storage';
import { firstSyncUnderWay, localStorageSharedStatus } from './sync-status';
import { WorkOffline } from './work-offline';

/** What the signed-in app gets: its reads and writes go through `local`, never the database itself. */
export type DataContextValue = {
  local: LocalData;
  sync: SyncController;
  outbox: Outbox;
  /** "Work offline": replication and chat sockets stop while it is on (every tab of this device). */
  workOffline: WorkOffline;
  userId: string;
};

/** The open data with the database, which only this module (to close it) holds. */
type OpenData = DataContextValue & { db: AppDatabase; stopBoardCopy: () => void };

const DataContext = createContext<DataContextValue | null>(null);

let dataModules:
  | Promise<[typeof import('./database'), typeof import('./replication'), typeof import('./browser-storage'), typeof import('./local-data')]>
  | undefined;

/**
 * RxDB, Dexie and the replication code, imported on demand (when the data opens) so the public
 * pages' bundle never contains them. Importing them earlier, as soon as the signed-in chunk runs,
 * was tried twice and lost: their parsing then competes with the first render (decision 008).
 */
export function loadDataModules() {
  dataModules ??= Promise.all([import('./database'), import('./replication'), import('./browser-storage'), import('./local-data')]);
  dataModules.catch(() => (dataModules = undefined)); // retried by the next caller
  return dataModules;
}

/**
 * RxDB sorts each schema's keys with `localeCompare` as the collections are added, and the first
 * call in a page builds the browser's collator: ~20 ms on a desktop (four times that on a phone as
 * Lighthouse models one), inside the task that creates the database. Built in a task of its own
 * while the data modules download, it is off that task (decision 008).
 */
function buildCollator(): void {
  setTimeout(() => 'a'.localeCompare('b'), 0);
}

async function openData(userId: string, onUnauthorized: () => void): Promise<OpenData> {
  performance.mark('data:open');
  buildCollator();
  // A deletion a logout started and a closing tab cut short is finished before any data opens.
  await resumeDeletions().catch(() => undefined);
  const [{ createAppDatabase, KeptPushedStates, localStoragePushed }, { SyncController, localStorageRewinds }, { browserStorage }, { LocalData }] =
    await loadDataModules();
  const refused = new Set<string>();
  performance.mark('data:modules');
  const keys = deviceKeys(userId);
  const outbox = new Outbox(localStorageOutbox(keys.outbox));
  // What this device pushed that the server was not yet seen to hold, kept across a reload for the conflict handler.
  const pushed = new KeptPushedStates(localStoragePushed(keys.pushed));
  const db = await createAppDatabase(userId, browserStorage(), { refused, pushed, outbox });
  performance.mark('data:ready');
  // What the board's copy is made of changes: the copy goes (the board writes it again). Of the
  // applications, only the user's own count (the cards' "Applied"), not those to the user's gigs.
  const stopBoardCopy = watchBoardCopy(userId, {
    gigs: { changes: db.gigs.$ },
    applications: {
      changes: db.applications.$,
      counts: (e) => e.documentData.applicantId === userId || e.previousDocumentData?.applicantId === userId,
    },
    users: { changes: db.users.$ },
  });
  const workOffline = new WorkOffline(keys.workOffline);
  const sync = new SyncController(db, {
    baseUrl: '',
    outbox,
    refused,
    onUnauthorized,
    rewinds: localStorageRewinds(keys.pullRewinds),
    shared: localStorageSharedStatus(keys.syncStatus),
    workOffline,
    firstCollections: collectionsForScreen(globalThis.location?.pathname ?? '/'),
  });
  return { db, local: new LocalData(db, outbox), sync, outbox, workOffline, userId, stopBoardCopy };
}

/**
 * What the signed-in area can do with this device's data as a whole, open or not: close it (in
 * this tab) before it is deleted, and reset it.
 */
export type DeviceData = {
  userId: string;
  /** Closes the database and replication of this tab, and waits until they are closed. */
  close(): Promise<void>;
  /**
   * "Reset this device": every tab closes the data, the user's database is deleted with what the
   * data layer keeps beside it and the profile pages read (copies of the server's, read again when
   * next opened online); the chat rooms stay (they merge with the server's and may hold messages not
   * sent yet). It opens again empty, to be pulled whole from the server.
   */
  reset(): Promise<void>;
};

const DeviceDataContext = createContext<DeviceData | null>(null);

/** Between the tabs of one user on this device: "close the data" and "open it again". */
type TabMessage = { type: 'close' } | { type: 'reopen' };

/**
 * Opens the signed-in user's database and replication, and closes both when the user changes or
 * signs out. Its children render at once (the nav paints before IndexedDB opens); the parts that
 * need the data sit inside <RequireData>, or read useOptionalData().
 */
export function DataProvider({
  userId,
  onUnauthorized,
  openAfter,
  children,
}: {
  userId: string;
  onUnauthorized: () => void;
  /** Opens the data once this settles (the board's copy on screen first); at once without it. */
  openAfter?: Promise<void>;
  children: ReactNode;
}) {
  const [value, setValue] = useState<OpenData | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Bumped to open the data again (after a reset). */
  const [generation, setGeneration] = useState(0);
  /** The data is held closed (a reset or a logout is deleting it). */
  const [closed, setClosed] = useState(false);
  /** Resolves once what the last opening opened is closed again. */
  const closing = useRef<Promise<void>>(Promise.resolve());
  const closedWaiters = useRef<(() => void)[]>([]);
  const closedRef = useRef(false);
  // The latest callback, read when the session ends: the data stays open across its changes.
  const unauthorized = useRef(onUnauthorized);
  useEffect(() => {
    unauthorized.current = onUnauthorized;
  }, [onUnauthorized]);

  useEffect(() => {
    if (closed) {
      const waiters = closedWaiters.current.splice(0);
      void closing.current.then(() => waiters.forEach((w) => w()));
      return;
    }
    let cancelled = false;
    let opened: OpenData | null = null;
    const opening = (openAfter ?? Promise.resolve())
      .then(() => (cancelled ? null : openData(userId, () => unauthorized.current())))
      .then(
      (v) => {
        if (!v) return;
        opened = v;
        if (!cancelled) setValue(v);
      },
      (err: unknown) => {
        if (!cancelled) setError(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      cancelled = true;
      setValue(null);
      closing.current = opening.then(() => (opened ? closeData(opened) : undefined)).catch(() => undefined);
    };
  }, [userId, generation, closed, openAfter]);

  // The other tabs of this user: a reset in one closes the data in all, then opens it again.
  const channel = useMemo(
    () => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`gigs-data-${userId}`)),
    [userId],
  );
  useEffect(() => {
    if (!channel) return;
    channel.onmessage = (e: MessageEvent<TabMessage>) => {
      if (e.data.type === 'close') {
        closedRef.current = true;
        setClosed(true);
      } else if (e.data.type === 'reopen') {
        closedRef.current = false;
        setClosed(false);
        setGeneration((g) => g + 1);
      }
    };
    return () => channel.close();
  }, [channel]);

  const device = useMemo<DeviceData>(() => {
    const close = () =>
      new Promise<void>((resolve) => {
        if (closedRef.current) {
          void closing.current.then(resolve);
          return;
        }
        closedWaiters.current.push(resolve);
        closedRef.current = true;
        setClosed(true);
      });
    const reopen = () => {
      closedRef.current = false;
      setClosed(false);
      setGeneration((g) => g + 1);
    };
    return {
      userId,
      close,
      async reset() {
        channel?.postMessage({ type: 'close' } satisfies TabMessage);
        await close();
        try {
          await deleteDatabases(await userDatabases(userId, { withChat: false }));
          forgetUserStorage(userId, { withChat: false, keepWorkOffline: true });
          await deleteUserCaches(userId);
        } finally {
          reopen();
          channel?.postMessage({ type: 'reopen' } satisfies TabMessage);
        }
      },
    };
  }, [userId, channel]);

  if (error) {
    return (
      <div role="alert" className="page-error">
        Connection to database blocked. Please disable any ad blockers and try again.
      </div>
    );
  }
  return (
    <DeviceDataContext.Provider value={device}>
      <DataContext.Provider value={value}>{children}</DataContext.Provider>
    </DeviceDataContext.Provider>
  );
}

/** This device's data as a whole (close, reset), inside the signed-in area. */
export function useDeviceData(): DeviceData {
  const value = useContext(DeviceDataContext);
  if (!value) throw new Error('useDeviceData() outside <DataProvider>');
  return value;
}

/** Shows `fallback` until the database is open and `ready` (e.g. the screen's code is loaded) is true. */
export function RequireData({ ready = true, fallback, children }: { ready?: boolean; fallback: ReactNode; children: ReactNode }) {
  const value = useContext(DataContext);
  return <>{value && ready ? children : fallback}</>;
}

async function closeData(v: OpenData): Promise<void> {
  v.stopBoardCopy();
  await v.sync.destroy();
  v.outbox.destroy();
  v.workOffline.destroy();
  await v.db.close();
}

export function useData(): DataContextValue {
  const value = useContext(DataContext);
  if (!value) throw new Error('useData() outside <RequireData>');
  return value;
}

/** The data once open, else null: for parts shown before it (the nav's badge, the sync status). */
export function useOptionalData(): DataContextValue | null {
  return useContext(DataContext);
}

/** The live sync status: online or offline, syncing, and how many local changes wait to go out. */
export function useSyncStatus(): SyncStatus {
  const { sync } = useData();
  const [status, setStatus] = useState<SyncStatus>(sync.status);
  useEffect(() => {
    setStatus(sync.status);
    const sub = sync.status$.subscribe(setStatus);
    return () => sub.unsubscribe();
  }, [sync]);
  return status;
}

/**
 * One value read from the live sync status (compared with Object.is, so a primitive or a value
 * the status keeps): the component renders again only when that value changes. The status changes
 * with every batch a sync stores and every pull or push that starts or ends; a screen that took all
 * of it (`useSyncStatus`) would render again each time, its lists with it.
 */
export function useSyncStatusValue<T>(pick: (status: SyncStatus) => T): T {
  const { sync } = useData();
  const subscribe = useCallback(
    (changed: () => void) => {
      const sub = sync.status$.subscribe(changed);
      return () => sub.unsubscribe();
    },
    [sync],
  );
  return useSyncExternalStore(subscribe, () => pick(sync.status));
}

/**
 * This device's first sync is still bringing the user's data (or, given `only`, that collection's
 * part of it, or those collections'), and can (online, the server reachable, not "Work offline").
 * A screen that lists what the user has (My Gigs, Applications) waits for it rather than draw a
 * part of it: the cards would jump as each stored chunk lands, and an empty or short list would
 * say "no applications" while they are on the way. A screen that draws from some collections only
 * (Notifications, Applications, the board) waits for their first pass only.
 */
export function useFirstSyncUnderWay(only?: ReplicatedName | readonly ReplicatedName[]): boolean {
  return useSyncStatusValue((status) => firstSyncUnderWay(status, only));
}
