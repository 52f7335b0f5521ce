import { newMessageNotice, type ChatDocMessage } from '../../shared/chat-doc';
import { newConversation } from '../../shared/validation/chat-access';
import { conversationLink } from '../policies/conversations';
import { notificationWrites } from '../policies/notify';
import { stamp, str } from '../policies/types';
import type { DocWrite, Store, StoredDoc } from '../store/store';

export type StampedMessage = ChatDocMessage & { timestamp: number };

/** The conversation record for a room that has none yet, as the conversation policy creates it. */
function firstConversation(store: Store, firstSenderId: string, receiverId: string, now: number): Omit<StoredDoc, '_seq'> {
  return { ...newConversation({ starterId: firstSenderId, otherId: receiverId, link: conversationLink(store, firstSenderId, receiverId), now }), _deleted: false };
}

/**
 * What accepted messages change outside the chat document, so the unread badge works from RxDB
 * alone (ARCHITECTURE.md "Chat"): the conversation record (SPEC.md §4: lastMessageRead is false
 * once a message is sent) and the receiver's new_message notification, one unread per
 * conversation, refreshed with the newest message. `messages` come from one sender.
 */
export function messageRecordWrites(store: Store, room: string, messages: StampedMessage[], now: number): DocWrite[] {
  const last = [...messages].sort((a, b) => a.timestamp - b.timestamp).at(-1);
  if (!last) return [];
  const writes: DocWrite[] = [];

  const current = store.get('conversations', room);
  const base = current && !current._deleted ? current : firstConversation(store, last.senderId, last.receiverId, now);
  const previousStamp = typeof base.lastMessageTimestamp === 'number' ? base.lastMessageTimestamp : -1;
  if (last.timestamp >= previousStamp) {
    writes.push({
      collection: 'conversations',
      doc: {
        ...base,
        lastMessage: last.content.trim(),
        lastMessageTimestamp: last.timestamp,
        lastSenderId: last.senderId,
        lastMessageRead: false,
        updatedAt: stamp(now, current),
      },
    });
  }

  const sender = store.get('users', last.senderId);
  const senderName = str(sender?.name);
  const message = newMessageNotice(senderName, last.content);
  const unread = store
    .byIndex('notifications', 'userId', last.receiverId)
    .find((n) => !n._deleted && n.type === 'new_message' && n.conversationId === room && n.read !== true);
  if (unread) {
    writes.push({
      collection: 'notifications',
      doc: { ...unread, message, senderId: last.senderId, senderName, createdAt: now, updatedAt: stamp(now, unread) },
    });
  } else {
    const gigId = str(base.gigId);
    const gigTitle = str(base.gigTitle);
    writes.push(
      ...notificationWrites(
        [
          {
            userId: last.receiverId,
            type: 'new_message',
            message,
            senderId: last.senderId,
            senderName,
            conversationId: room,
            ...(gigId ? { gigId } : {}),
            ...(gigTitle ? { gigTitle } : {}),
          },
        ],
        now,
      ),
    );
  }
  return writes;
}
