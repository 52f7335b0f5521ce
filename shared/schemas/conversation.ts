import { z } from 'zod';
import { LIMITS } from '../constants';
import { idSchema, timestampSchema, toRxSchema, userText } from './common';

/** docs/product.md §3 Conversation. The id is the two user ids sorted and joined by `_`. */
export const conversationSchema = z.object({
  id: z.string().max(140),
  participants: z.array(idSchema).length(2),
  createdAt: timestampSchema,
  lastMessage: userText(LIMITS.messageMax),
  lastMessageTimestamp: timestampSchema.nullable(),
  lastSenderId: idSchema.nullable(),
  lastMessageRead: z.boolean(),
  gigTitle: userText(LIMITS.titleMax),
  gigId: idSchema.nullable(),
  creatorId: idSchema.nullable(),
  isCreatorInitiated: z.boolean(),
  updatedAt: timestampSchema,
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationRxSchema = toRxSchema(conversationSchema);

/** A message inside a conversation (docs/product.md §3 Message); held in the conversation's Yjs document. */
export const messageSchema = z.object({
  id: z.string().max(64),
  content: userText(LIMITS.messageMax),
  timestamp: timestampSchema,
  senderId: idSchema,
  receiverId: idSchema,
  read: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;
