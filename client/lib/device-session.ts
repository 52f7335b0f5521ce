/**
 * Who is signed in on this device, where the service worker can read it: a small IndexedDB
 * database (`gigs-device`). The app writes it whenever the session changes; the service worker
 * shows a push only when it is for that user, so nothing reaches a device where its user signed
 * out. Beside it, whose notifications the device's push subscription carries (push-user.ts). It
 * holds ids, never data: logging out empties it.
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

/** A transaction on the device's records: `work` asks its request, whose result is given once it completed. */
export async function deviceTransaction<T>(
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

/** Writes asked for so far on this page (see setSignedInUser). */
let asked = 0;

/**
 * Records the signed-in user of this device (null: nobody). The last one asked for has the last
 * word: each write opens its own connection, and one superseded before its transaction runs
 * writes nothing. So a login's write still opening (or hanging) cannot land after the logout's
 * and leave the record naming a user who signed out, whose pushes would then show; and a write
 * that never completes holds no later one.
 */
export async function setSignedInUser(userId: string | null): Promise<void> {
  const mine = ++asked;
  await deviceTransaction('readwrite', (store) => {
    // A later write's transaction, if it exists yet, was created after this one: it runs after.
    if (mine !== asked) return;
    if (userId) store.put(userId, KEY);
    else store.delete(KEY);
  });
}

/** A user id the device keeps under `key`, or null. */
export async function deviceUserId(key: string): Promise<string | null> {
  const value = await deviceTransaction('readonly', (store) => store.get(key) as IDBRequest<unknown>);
  return typeof value === 'string' ? value : null;
}

/** The signed-in user of this device, or null. */
export function signedInUser(): Promise<string | null> {
  return deviceUserId(KEY);
}
