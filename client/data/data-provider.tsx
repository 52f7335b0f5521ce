import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { RxStorage } from 'rxdb';
import type { AppDatabase } from './database';
import { Outbox, localStorageOutbox } from './outbox';
import type { SyncController, SyncStatus } from './replication';

export type DataContextValue = {
  db: AppDatabase;
  sync: SyncController;
  outbox: Outbox;
  userId: string;
};

const DataContext = createContext<DataContextValue | null>(null);

async function openData(userId: string, onUnauthorized: () => void): Promise<DataContextValue> {
  // Imported here so the public pages' bundle never contains RxDB.
  const [{ createAppDatabase }, { SyncController }, { getRxStorageDexie }] = await Promise.all([
    import('./database'),
    import('./replication'),
    import('rxdb/plugins/storage-dexie'),
  ]);
  const refused = new Set<string>();
  const db = await createAppDatabase(userId, getRxStorageDexie() as RxStorage<unknown, unknown>, { refused });
  const outbox = new Outbox(localStorageOutbox(`gigs-outbox-${userId}`));
  const sync = new SyncController(db, { baseUrl: '', outbox, refused, onUnauthorized });
  return { db, sync, outbox, userId };
}

/**
 * Opens the signed-in user's database and replication, and closes both when the user changes or
 * signs out. Children render only once the local database is open (it is local: no network wait).
 */
export function DataProvider({ userId, onUnauthorized, fallback, children }: { userId: string; onUnauthorized: () => void; fallback: ReactNode; children: ReactNode }) {
  const [value, setValue] = useState<DataContextValue | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let opened: DataContextValue | null = null;
    openData(userId, onUnauthorized).then(
      (v) => {
        opened = v;
        if (cancelled) void closeData(v);
        else setValue(v);
      },
      (err: unknown) => {
        if (!cancelled) setError(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      cancelled = true;
      setValue(null);
      if (opened) void closeData(opened);
    };
    // onUnauthorized is a stable callback from the session.
  }, [userId]);

  if (error) {
    return (
      <div role="alert" className="page-error">
        Connection to database blocked. Please disable any ad blockers and try again.
      </div>
    );
  }
  if (!value) return <>{fallback}</>;
  return <DataContext.Provider value={value}>{children}</DataContext.Provider>;
}

async function closeData(v: DataContextValue): Promise<void> {
  await v.sync.destroy();
  await v.db.close();
}

export function useData(): DataContextValue {
  const value = useContext(DataContext);
  if (!value) throw new Error('useData() outside <DataProvider>');
  return value;
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
