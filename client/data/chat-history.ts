import type { IndexeddbPersistence } from 'y-indexeddb';
import type * as Y from 'yjs';
import { CHAT_STAMPS_MAP } from '../../shared/chat-doc';
import type { Conversation } from '../../shared/schemas/conversation';
import { chatSyncedKey } from './device-storage';

/**
 * What this device holds of each conversation's history. A room's Yjs document lives in its own
 * IndexedDB database; once a sync with the server has completed and is stored, the newest server
 * stamp it holds is recorded per room, so the background download knows what is missing and the
 * chat screen can tell "nothing was ever downloaded here" from "there are no messages".
 * (docs/decisions/015-chat-gigs-and-offline-history.md)
 */

export { chatDatabaseName, chatSyncedKey as syncedStampKey } from './device-storage';

/** The newest server stamp stored by a completed sync of the room, 0 for a synced empty room; null when it never synced here. */
export function syncedStamp(userId: string, roomId: string): number | null {
  const value = Number(localStorage.getItem(chatSyncedKey(userId, roomId)) ?? NaN);
  return Number.isFinite(value) ? value : null;
}

/** A conversation has messages this device has not stored: never synced, or synced before its last message. */
export function needsDownload(userId: string, c: Pick<Conversation, 'id' | 'lastMessageTimestamp'>): boolean {
  if (c.lastMessageTimestamp === null) return false;
  return (syncedStamp(userId, c.id) ?? -1) < c.lastMessageTimestamp;
}

/** Rooms a chat screen has open in this tab: the background download leaves them to it. */
export const openRooms = new Set<string>();

/** Resolves when a readwrite transaction completes. */
function completed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * Records that the room's document, as `doc` holds it now, is stored on this device. The record is
 * written in a transaction over the updates store too: IndexedDB runs readwrite transactions with
 * overlapping stores in the order they were made, so once it completes every update y-indexeddb
 * queued before it is on disk. Only then is the stamp published where the screens read it.
 */
export async function markSynced(
  persistence: IndexeddbPersistence,
  doc: Y.Doc,
  userId: string,
  roomId: string,
): Promise<void> {
  await persistence.whenSynced;
  if (!persistence.db) return;
  let newest = 0;
  for (const stamp of doc.getMap<number>(CHAT_STAMPS_MAP).values()) if (stamp > newest) newest = stamp;
  const tx = persistence.db.transaction(['updates', 'custom'], 'readwrite');
  tx.objectStore('custom').put(newest, 'syncedStamp');
  await completed(tx);
  const known = syncedStamp(userId, roomId);
  if (known === null || newest > known) localStorage.setItem(chatSyncedKey(userId, roomId), String(newest));
}
