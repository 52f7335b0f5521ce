import { databaseName } from './database-name';

/**
 * Everything this device keeps for a signed-in user, named in one place so it can all be found
 * and deleted (issue 17: a shared device keeps nothing of a user who logged out; "Reset this
 * device"): the RxDB database, one Yjs database per conversation, a few localStorage entries, and
 * the public profile pages read (a Cache Storage cache). Every name carries the user's id.
 */

/** localStorage entries of the data layer. */
export function deviceKeys(userId: string) {
  return {
    outbox: `gigs-outbox-${userId}`,
    /** What the device pushed of each document, for the conflict handler (data/pushed-states.ts). */
    pushed: `gigs-pushed-${userId}`,
    pullRewinds: `gigs-pull-rewinds-${userId}`,
    syncStatus: `gigs-sync-status-${userId}`,
    workOffline: `gigs-work-offline-${userId}`,
    /** The board's first page for a reload to draw before the database opens (data/board-copy.ts). */
    boardCopy: `gigs-board-copy-${userId}`,
  };
}

/** The IndexedDB database (y-indexeddb) holding a conversation's Yjs document for a user. */
export function chatDatabaseName(userId: string, roomId: string): string {
  return `chat-${userId}-${roomId}`;
}

/** The localStorage key of a room's synced stamp for a user (data/chat-history.ts). */
export function chatSyncedKey(userId: string, roomId: string): string {
  return `chat-synced-${userId}-${roomId}`;
}

/** The localStorage key of a conversation's unsent draft. */
export function chatDraftKey(userId: string, roomId: string): string {
  return `chat-draft-${userId}-${roomId}`;
}

/** The Cache Storage cache of the public profile pages this device read for a user (data/profile-pages.ts). */
export function profilePagesCacheName(userId: string): string {
  return `profile-pages-v1-${userId}`;
}

/** This user's caches in Cache Storage: the profile pages', under this name or an earlier version's. */
async function userCaches(userId: string): Promise<string[]> {
  if (typeof caches === 'undefined') return [];
  return (await caches.keys()).filter((name) => /^profile-pages-v\d+-(.+)$/.exec(name)?.[1] === userId);
}

/** Deletes this user's caches in Cache Storage (the public profile pages read on this device). */
export async function deleteUserCaches(userId: string): Promise<void> {
  for (const name of await userCaches(userId)) await caches.delete(name);
}

/**
 * The IndexedDB databases of a user's RxDB database: the Dexie storage makes one per collection
 * and per internal store, each named after the database.
 */
function isRxDatabaseOf(name: string, userId: string): boolean {
  return name.includes(databaseName(userId));
}

/** This user's IndexedDB databases on this device: the RxDB ones, and the chat rooms' if `withChat`. */
export async function userDatabases(userId: string, { withChat }: { withChat: boolean }): Promise<string[]> {
  const all = await indexedDB.databases();
  const chat = chatDatabaseName(userId, '');
  return all
    .map((d) => d.name ?? '')
    .filter((name) => name !== '' && (isRxDatabaseOf(name, userId) || (withChat && name.startsWith(chat))));
}

/** The rooms this device holds a Yjs document of, for a user. */
export async function chatRoomsOnDevice(userId: string): Promise<string[]> {
  const prefix = chatDatabaseName(userId, '');
  return (await indexedDB.databases())
    .map((d) => d.name ?? '')
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length));
}

/**
 * Deletes IndexedDB databases. Every connection to them must be closed first (the other tabs are
 * told to close theirs): a deletion another connection blocks waits for it, up to `timeoutMs`.
 */
export async function deleteDatabases(names: readonly string[], timeoutMs = 10_000): Promise<void> {
  await Promise.all(
    names.map(
      (name) =>
        new Promise<void>((resolve, reject) => {
          const request = indexedDB.deleteDatabase(name);
          const timer = setTimeout(
            () => reject(new Error(`The database ${name} is still open in another tab.`)),
            timeoutMs,
          );
          request.onsuccess = () => {
            clearTimeout(timer);
            resolve();
          };
          request.onerror = () => {
            clearTimeout(timer);
            reject(request.error ?? new Error(`The database ${name} could not be deleted.`));
          };
        }),
    ),
  );
}

/**
 * Removes this user's localStorage entries: the data layer's (outbox, pull rewinds, shared sync
 * status, the "Work offline" switch unless kept) and, with `withChat`, the chat rooms' synced stamps
 * and drafts.
 */
export function forgetUserStorage(
  userId: string,
  { withChat, keepWorkOffline = false }: { withChat: boolean; keepWorkOffline?: boolean },
): void {
  const keys0 = deviceKeys(userId);
  const exact = new Set(Object.values(keys0).filter((k) => !(keepWorkOffline && k === keys0.workOffline)));
  const prefixes = withChat ? [chatSyncedKey(userId, ''), chatDraftKey(userId, '')] : [];
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key !== null && (exact.has(key) || prefixes.some((p) => key.startsWith(p)))) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage unavailable: nothing was kept there either.
  }
}

/** The changes waiting to go out for a user on this device (the shared outbox), whether or not the data is open. */
export function waitingChangesOnDevice(userId: string): number {
  try {
    const raw = localStorage.getItem(deviceKeys(userId).outbox);
    const keys: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(keys) ? keys.length : 0;
  } catch {
    return 0;
  }
}

const PENDING_DELETIONS = 'gigs-pending-deletions';

function pendingDeletions(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(PENDING_DELETIONS) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function savePendingDeletions(ids: string[]): void {
  try {
    if (ids.length) localStorage.setItem(PENDING_DELETIONS, JSON.stringify(ids));
    else localStorage.removeItem(PENDING_DELETIONS);
  } catch {
    // Storage unavailable: the deletion is tried only now.
  }
}

/**
 * Deletes everything this device keeps for a user (logging out of a shared device): the RxDB
 * database, the chat rooms' Yjs documents, drafts, every localStorage entry named by the user and
 * the profile pages' cache.
 * Recorded first and cleared once done, so a deletion a closing tab cut short runs again before
 * the data next opens (`resumeDeletions`).
 */
export async function deleteUserData(userId: string): Promise<void> {
  savePendingDeletions([...new Set([...pendingDeletions(), userId])]);
  try {
    await deleteUserCaches(userId);
    await deleteDatabases(await userDatabases(userId, { withChat: true }), 30_000);
  } finally {
    // Once the databases are gone: a tab still closing its data writes its status until it has
    // closed (the deletion waits for that).
    forgetUserStorage(userId, { withChat: true });
  }
  savePendingDeletions(pendingDeletions().filter((id) => id !== userId));
}

/** Finishes the deletions a logout started and could not complete (the app was closed meanwhile). */
export async function resumeDeletions(): Promise<void> {
  for (const userId of pendingDeletions()) await deleteUserData(userId).catch(() => undefined);
}
