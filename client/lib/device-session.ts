/**
 * Who is signed in on this device, where the service worker can read it: a one-record IndexedDB
 * database (`gigs-device`). The app writes it whenever the session changes; the service worker
 * shows a push only when it is for that user, so nothing reaches a device where its user signed
 * out. It holds an id, never data: logging out empties it.
 */

/** Where the record is: its database, object store and key. */
export const DEVICE_SESSION = { database: 'gigs-device', store: 'state', key: 'signed-in-user' } as const;
const { database: DB_NAME, store: STORE, key: KEY } = DEVICE_SESSION;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  });
}

async function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T> | void,
): Promise<T | undefined> {
  const db = await open();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

/** The writes asked for so far, in order (each waits for the one before it; failures included). */
let writes: Promise<unknown> = Promise.resolve();

/**
 * Records the signed-in user of this device (null: nobody). Writes land in the order they were
 * asked for: each opens its own connection, and a login's write still opening must not land after
 * the logout's (the record would name a user who signed out, and their pushes would show).
 */
export function setSignedInUser(userId: string | null): Promise<void> {
  const write = writes.then(() =>
    run('readwrite', (store) => {
      if (userId) store.put(userId, KEY);
      else store.delete(KEY);
    }),
  );
  writes = write.catch(() => undefined);
  return write.then(() => undefined);
}

/** The signed-in user of this device, or null. */
export async function signedInUser(): Promise<string | null> {
  const value = await run('readonly', (store) => store.get(KEY) as IDBRequest<unknown>);
  return typeof value === 'string' ? value : null;
}
