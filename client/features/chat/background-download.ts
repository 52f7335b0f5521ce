import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { chatDatabaseName, markSynced, openRooms } from '../../data/chat-history';

/** Rooms downloaded at the same time: each holds a socket, and the server allows a user only a few. */
export const DOWNLOAD_CONCURRENCY = 2;
/** A room that has not synced by then is left for the next pass (the server may be busy or refusing). */
const ROOM_TIMEOUT_MS = 15_000;

/**
 * Syncs one room's document into this device's IndexedDB and lets go of it: loads what the device
 * holds, connects without presence (a download is not the user being there), waits for the
 * server's copy, records it as stored, then closes the socket. Messages written offline in that
 * room go out on the way, as they would from the chat screen.
 */
async function downloadRoom(userId: string, roomId: string, signal: AbortSignal): Promise<void> {
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(chatDatabaseName(userId, roomId), doc);
  let provider: WebsocketProvider | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new Error('stopped'));
      signal.addEventListener('abort', onAbort);
      timer = setTimeout(() => reject(new Error(`timed out syncing ${roomId}`)), ROOM_TIMEOUT_MS);
    });
    aborted.catch(() => undefined);
    await Promise.race([persistence.whenSynced, aborted]);
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const p = new WebsocketProvider(`${scheme}://${location.host}/api/chat`, roomId, doc, {
      connect: false,
      disableBc: true,
      maxBackoffTime: 5_000,
    });
    provider = p;
    p.awareness.setLocalState(null);
    const synced = new Promise<void>((resolve, reject) => {
      p.on('sync', (isSynced) => isSynced && resolve());
      p.on('closed', (event) => reject(new Error(event.reason || `closed (${event.code})`)));
    });
    p.connect();
    await Promise.race([synced, aborted]);
    await markSynced(persistence, doc, userId, roomId);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    provider?.destroy();
    await persistence.destroy();
    doc.destroy();
  }
}

/**
 * Downloads conversations in the background, a few at a time, so their history is on the device
 * before it goes offline. `want` replaces the list of rooms to fetch (most important first); rooms
 * open on a chat screen are left to it. `stop` drops the list and closes every socket at once.
 */
export class ChatDownloader {
  private queue: string[] = [];
  private readonly running = new Map<string, AbortController>();
  private stopped = false;

  constructor(private readonly userId: string) {}

  want(rooms: readonly string[]): void {
    if (this.stopped) return;
    this.queue = rooms.filter((r) => !this.running.has(r));
    this.pump();
  }

  private pump(): void {
    while (!this.stopped && this.running.size < DOWNLOAD_CONCURRENCY && this.queue.length > 0) {
      const room = this.queue.shift()!;
      if (openRooms.has(room)) continue;
      const controller = new AbortController();
      this.running.set(room, controller);
      downloadRoom(this.userId, room, controller.signal)
        // A room that fails stays missing: the chat screen says so, and the next pass tries again.
        .catch(() => undefined)
        .finally(() => {
          this.running.delete(room);
          this.pump();
        });
    }
  }

  stop(): void {
    this.stopped = true;
    this.queue = [];
    for (const controller of this.running.values()) controller.abort();
  }
}
