import { IndexeddbPersistence } from 'y-indexeddb';
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
