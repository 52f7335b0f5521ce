import { conversationIdFor } from '../../shared/ids';
import { quoted } from '../../shared/text';
import { checkConversationStart, newConversation } from '../../shared/validation/chat-access';
import { stamp, str } from '../domain/documents';
import { conversationLink, linkedByApplication } from '../domain/links';
import { notificationWrites } from '../domain/notifications';
import type { DocWrite } from '../store/store';
import { refuse, type Policy } from './types';

/**
 * A participant may open a conversation with a user an application links them to; after that
 * only the participant who did not send the last message may mark it read. Every other field is
 * the server's (the chat server updates lastMessage and friends).
 */
export const conversationPolicy: Policy<'conversations'> = ({ read, actor, current, incoming, deleting, now }) => {
  if (deleting) return refuse('Conversations cannot be deleted.');
  if (current) {
    const participants = current.participants as string[];
    if (!participants.includes(actor.id)) return refuse('Only the participants of a conversation may read it.');
    if (incoming.lastMessageRead !== true || current.lastMessageRead === true) return { ok: true, writes: [] };
    if (current.lastSenderId === actor.id) return refuse('Only the receiver can mark a conversation read.');
    return {
      ok: true,
      writes: [
        { collection: 'conversations', doc: { ...current, lastMessageRead: true, updatedAt: stamp(now, current) } },
      ],
    };
  }

  const participants = Array.isArray(incoming.participants) ? incoming.participants.map(str) : [];
  const otherId = participants.find((p) => p !== actor.id) ?? (participants[0] === actor.id ? actor.id : '');
  const check = checkConversationStart({
    actorId: actor.id,
    otherId,
    linkedByApplication: otherId !== actor.id && linkedByApplication(read, actor.id, otherId),
  });
  if (!check.ok) return refuse(check.error ?? 'A conversation needs an application linking the two users.');
  const id = conversationIdFor(actor.id, otherId);
  if (incoming.id !== id) return refuse('Invalid conversation id');
  const link = conversationLink(read, actor.id, otherId, incoming.gigId ?? undefined)!;
  const conversation = { ...newConversation({ starterId: actor.id, otherId, link, now }), _deleted: false };
  const writes: DocWrite[] = [
    { collection: 'conversations', doc: conversation },
    ...notificationWrites(
      [
        {
          userId: otherId,
          type: 'new_conversation',
          message: `New conversation from ${quoted(actor.name)} about ${quoted(link.gigTitle)}`,
          senderId: actor.id,
          senderName: actor.name,
          gigId: link.gigId,
          gigTitle: link.gigTitle,
          conversationId: id,
        },
      ],
      now,
    ),
  ];
  return { ok: true, writes };
};
