import { conversationIdFor } from '../../shared/ids';
import { quoted } from '../../shared/text';
import { checkConversationStart, newConversation, type ConversationLink } from '../../shared/validation/chat-access';
import type { DocWrite, Store } from '../store/store';
import { linkedByApplication } from '../replication/visibility';
import { notificationWrites } from './notify';
import { refuse, stamp, str, type Policy } from './types';

/**
 * The application linking the two users that names the conversation's gig: the one for `gigId`
 * when that gig links them and still exists (the gig the user came from), otherwise the most
 * recent one whose gig still exists, otherwise the most recent one.
 */
export function conversationLink(store: Store, a: string, b: string, gigId?: string): ConversationLink | undefined {
  const candidates = [
    ...store.byIndex('applications', 'applicantId', a).filter((x) => x.creatorId === b),
    ...store.byIndex('applications', 'applicantId', b).filter((x) => x.creatorId === a),
  ];
  const rank = (x: (typeof candidates)[number]) => (x._deleted || x.gigDeleted === true ? 2 : gigId && x.gigId === gigId ? 0 : 1);
  const app = candidates.sort((x, y) => rank(x) - rank(y) || Number(y.appliedAt) - Number(x.appliedAt))[0];
  return app && { gigTitle: str(app.gigTitle), gigId: str(app.gigId), creatorId: str(app.creatorId) };
}

/**
 * A participant may open a conversation with a user an application links them to; after that
 * only the participant who did not send the last message may mark it read. Every other field is
 * the server's (the chat server updates lastMessage and friends).
 */
export const conversationPolicy: Policy = ({ ctx, actor, current, incoming, deleting, now }) => {
  if (deleting) return refuse('Conversations cannot be deleted.');
  if (current) {
    const participants = current.participants as string[];
    if (!participants.includes(actor.id)) return refuse('Only the participants of a conversation may read it.');
    if (incoming.lastMessageRead !== true || current.lastMessageRead === true) return { ok: true, writes: [] };
    if (current.lastSenderId === actor.id) return refuse('Only the receiver can mark a conversation read.');
    return { ok: true, writes: [{ collection: 'conversations', doc: { ...current, lastMessageRead: true, updatedAt: stamp(now, current) } }] };
  }

  const participants = Array.isArray(incoming.participants) ? incoming.participants.map(str) : [];
  const otherId = participants.find((p) => p !== actor.id) ?? (participants[0] === actor.id ? actor.id : '');
  const check = checkConversationStart({
    actorId: actor.id,
    otherId,
    linkedByApplication: otherId !== actor.id && linkedByApplication(ctx.store, actor.id, otherId),
  });
  if (!check.ok) return refuse(check.error ?? 'A conversation needs an application linking the two users.');
  const id = conversationIdFor(actor.id, otherId);
  if (str(incoming.id) !== id) return refuse('Invalid conversation id');
  const link = conversationLink(ctx.store, actor.id, otherId, str(incoming.gigId))!;
  const conversation = { ...newConversation({ starterId: actor.id, otherId, link, now }), _deleted: false };
  const writes: DocWrite[] = [
    { collection: 'conversations', doc: conversation },
    ...notificationWrites(
      [
        {
          userId: otherId,
          type: 'new_conversation',
          message: `New conversation from ${quoted(str(actor.name))} about ${quoted(link.gigTitle)}`,
          senderId: actor.id,
          senderName: str(actor.name),
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
