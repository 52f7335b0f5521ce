import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, type ChatDocMessage } from '../../../shared/chat-doc';
import { chatDatabaseName, chatRoomsOnDevice } from '../../data/device-storage';

/** At most this many rooms are read for the count: the recent ones are what this device keeps anyway. */
const MAX_ROOMS = 50;

export type WaitingInRoom = { roomId: string; otherId: string; count: number };

/**
 * Chat messages this user wrote on this device that the server has not stamped yet (sent offline,
 * or while "Work offline" was on), per conversation, read from the rooms' Yjs documents in
 * IndexedDB. A room nothing waits in is left out.
 */
export async function waitingMessages(userId: string): Promise<WaitingInRoom[]> {
  const rooms = (await chatRoomsOnDevice(userId)).slice(0, MAX_ROOMS);
  const out: WaitingInRoom[] = [];
  for (const roomId of rooms) {
    const doc = new Y.Doc();
    const persistence = new IndexeddbPersistence(chatDatabaseName(userId, roomId), doc);
    try {
      await persistence.whenSynced;
      const stamps = doc.getMap<number>(CHAT_STAMPS_MAP);
      const count = doc
        .getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY)
        .toArray()
        .filter((m) => m.senderId === userId && !stamps.has(m.id)).length;
      const otherId = roomId.split('_').find((id) => id !== userId) ?? roomId;
      if (count > 0) out.push({ roomId, otherId, count });
    } finally {
      await persistence.destroy();
      doc.destroy();
    }
  }
  return out;
}

/** Rooms sent at the same time: each holds a socket, and the server allows a user only a few. */
const SEND_CONCURRENCY = 3;

/**
 * Sends the chat messages waiting on this device (before a logout): each room with some connects,
 * without presence, until the server has stamped every one of them, or until `deadline`. Resolves
 * with how many are still waiting.
 */
export async function sendWaitingMessages(userId: string, deadline: number): Promise<number> {
  const rooms = await waitingMessages(userId);
  let left = 0;
  const queue = [...rooms];
  await Promise.all(
    Array.from({ length: Math.min(SEND_CONCURRENCY, queue.length) }, async () => {
      for (let room = queue.shift(); room; room = queue.shift()) left += await sendRoom(userId, room.roomId, deadline);
    }),
  );
  return left;
}

async function sendRoom(userId: string, roomId: string, deadline: number): Promise<number> {
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(chatDatabaseName(userId, roomId), doc);
  const messages = doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY);
  const stamps = doc.getMap<number>(CHAT_STAMPS_MAP);
  const waiting = () => messages.toArray().filter((m) => m.senderId === userId && !stamps.has(m.id)).length;
  let provider: WebsocketProvider | undefined;
  try {
    await persistence.whenSynced;
    if (waiting() === 0) return 0;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    provider = new WebsocketProvider(`${scheme}://${location.host}/api/chat`, roomId, doc, {
      disableBc: true,
      maxBackoffTime: 2_000,
    });
    provider.awareness.setLocalState(null);
    await new Promise<void>((resolve) => {
      const check = () => {
        if (waiting() === 0 || Date.now() >= deadline) {
          stamps.unobserve(check);
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(check, Math.max(0, deadline - Date.now()));
      stamps.observe(check);
      provider!.on('closed', () => {
        stamps.unobserve(check);
        clearTimeout(timer);
        resolve();
      });
      check();
    });
    return waiting();
  } finally {
    provider?.destroy();
    await persistence.destroy();
    doc.destroy();
  }
}
