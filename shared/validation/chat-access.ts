import { participantsOf } from '../ids';

/** SPEC.md §8 Conversation and messages, word for word. */
export const CHAT_MESSAGES = {
  loggedOut: 'Please log in to start a conversation',
  withSelf: 'You cannot converse with yourself',
} as const;

export type ConversationStartCheck =
  | { ok: true }
  | { ok: false; error?: (typeof CHAT_MESSAGES)[keyof typeof CHAT_MESSAGES]; redirectTo?: '/applications' };

/**
 * SPEC.md §5 Chat access: "A conversation may be created only if an application links the two
 * users. Otherwise the user is redirected to /applications. A user cannot converse with
 * themselves." The redirect carries no message: SPEC gives none. An empty otherId links nobody,
 * so it redirects too.
 */
export function checkConversationStart(v: { actorId: string | null; otherId: string; linkedByApplication: boolean }): ConversationStartCheck {
  if (!v.actorId) return { ok: false, error: CHAT_MESSAGES.loggedOut };
  if (v.actorId === v.otherId) return { ok: false, error: CHAT_MESSAGES.withSelf };
  if (!v.otherId || !v.linkedByApplication) return { ok: false, redirectTo: '/applications' };
  return { ok: true };
}

/** "Only the participants of a conversation may read it": the two ids its id is made of. */
export function canReadConversation(actorId: string | null, conversationId: string): boolean {
  if (!actorId) return false;
  return participantsOf(conversationId)?.includes(actorId) ?? false;
}
