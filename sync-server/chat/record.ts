import { newMessageNotice, type ChatDocMessage } from '../../shared/chat-doc';
import { newConversation, type ConversationLink } from '../../shared/validation/chat-access';
import { conversationLink } from '../domain/links';
import { notificationWrites } from '../domain/notifications';
import { unreadMessageKey } from '../indexes';
import { stamp, str } from '../domain/documents';
import type { DecisionReader, DocWrite, StoredDoc } from '../store/store';

export type StampedMessage = ChatDocMessage & { timestamp: number };

/** The conversation record for a room that has none yet, as the conversation policy creates it. */
function firstConversation(
  store: DecisionReader,
  firstSenderId: string,
  receiverId: string,
  gigId: string | undefined,
  now: number,
): Omit<StoredDoc, '_seq'> {
  const link = conversationLink(store, firstSenderId, receiverId, gigId);
  return { ...newConversation({ starterId: firstSenderId, otherId: receiverId, link, now }), _deleted: false };
}

/**
 * The gig a message was written from, when it names one that an application links the two users
 * by and that still exists. The chat judge checks only the id's shape: a message may be written
 * from an application the server has not received yet, and a hostile id must name nothing.
 */
function gigOfMessage(store: DecisionReader, message: ChatDocMessage): ConversationLink | undefined {
  if (!message.gigId) return undefined;
  const link = conversationLink(store, message.senderId, message.receiverId, message.gigId);
  return link?.gigId === message.gigId ? link : undefined;
}

/**
 * What accepted messages change outside the chat document, so the unread badge works from RxDB
 * alone (docs/architecture.md "Chat"): the conversation record (docs/product.md §4: lastMessageRead is false
 * once a message is sent; its gig is the gig the latest message was written from, so a pair of
 * users linked by several gigs sees the one they are talking about) and the receiver's
 * new_message notification, one unread per conversation, refreshed with the newest message and
 * naming its gig. `messages` come from one sender.
 */
export function messageRecordWrites(
  store: DecisionReader,
  room: string,
  messages: StampedMessage[],
  now: number,
): DocWrite[] {
  const last = [...messages].sort((a, b) => a.timestamp - b.timestamp).at(-1);
  if (!last) return [];
  const writes: DocWrite[] = [];
  const gig = gigOfMessage(store, last);

  const current = store.get('conversations', room);
  const base =
    current && !current._deleted ? current : firstConversation(store, last.senderId, last.receiverId, gig?.gigId, now);
  const previousStamp = typeof base.lastMessageTimestamp === 'number' ? base.lastMessageTimestamp : -1;
  if (last.timestamp >= previousStamp) {
    writes.push({
      collection: 'conversations',
      doc: {
        ...base,
        ...(gig ?? {}),
        lastMessage: last.content.trim(),
        lastMessageTimestamp: last.timestamp,
        lastSenderId: last.senderId,
        lastMessageRead: false,
        updatedAt: stamp(now, current),
      },
    });
  }

  const sender = store.get('users', last.senderId);
  const senderName = sender?.name ?? '';
  const message = newMessageNotice(senderName, last.content, gig?.gigTitle);
  // The gig the notification names: the message's own, else the one the conversation is about.
  const gigId = gig?.gigId ?? str(base.gigId);
  const gigTitle = gig?.gigTitle ?? str(base.gigTitle);
  const about = { ...(gigId ? { gigId } : {}), ...(gigTitle ? { gigTitle } : {}) };
  const unread = store
    .byIndex('notifications', 'unreadMessage', unreadMessageKey(last.receiverId, room))
    .find((n) => !n._deleted && n.type === 'new_message' && n.conversationId === room && n.read !== true);
  if (unread) {
    writes.push({
      collection: 'notifications',
      doc: {
        ...unread,
        message,
        senderId: last.senderId,
        senderName,
        ...about,
        createdAt: now,
        updatedAt: stamp(now, unread),
      },
    });
  } else {
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
            ...about,
          },
        ],
        now,
      ),
    );
  }
  return writes;
}

/**
 * The record writes for stamped messages of any senders (one chat entry's), as one decision: each
 * sender's, the sender of the newest message last, a document written twice kept once with its
 * last version (the receivers differ; the conversation goes to the newest message).
 */
export function stampedRecordWrites(
  read: DecisionReader,
  room: string,
  messages: StampedMessage[],
  now: number,
): DocWrite[] {
  const bySender = new Map<string, StampedMessage[]>();
  for (const m of messages) {
    const group = bySender.get(m.senderId);
    if (group) group.push(m);
    else bySender.set(m.senderId, [m]);
  }
  const newest = (group: StampedMessage[]) => Math.max(...group.map((m) => m.timestamp));
  const groups = [...bySender.values()].sort((a, b) => newest(a) - newest(b));
  const last = new Map<string, DocWrite>();
  for (const w of groups.flatMap((group) => messageRecordWrites(read, room, group, now)))
    last.set(`${w.collection}\u0000${String(w.doc.id)}`, w);
  return [...last.values()];
}
