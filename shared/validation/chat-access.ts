import { conversationIdFor, participantsOf } from '../ids';
import type { Conversation } from '../schemas/conversation';
import { LOGGED_OUT_MESSAGES } from './logged-out';
import { PATHS } from '../routes';

/** docs/product.md §8 Conversation and messages, word for word. */
export const CHAT_MESSAGES = {
  loggedOut: LOGGED_OUT_MESSAGES.converse,
  withSelf: 'You cannot converse with yourself',
} as const;

/**
 * Not in docs/product.md: why /applications opened instead of a conversation (the redirect stays, with
 * words). From a gig, the user has not applied to it; from a chat link, nothing links the two.
 */
export const NO_LINK_NOTICES = {
  fromGig: 'Apply to this gig first to start a conversation with its creator.',
  fromLink: 'A conversation starts from an application: apply to a gig, or open one of the applications to your gigs.',
} as const;

export type ConversationStartCheck =
  | { ok: true }
  | { ok: false; error?: (typeof CHAT_MESSAGES)[keyof typeof CHAT_MESSAGES]; redirectTo?: typeof PATHS.applications };

/**
 * docs/product.md §5 Chat access: "A conversation may be created only if an application links the two
 * users. Otherwise the user is redirected to /applications. A user cannot converse with
 * themselves." The screens add one of NO_LINK_NOTICES to the redirect. An empty otherId links
 * nobody, so it redirects too.
 */
export function checkConversationStart(v: {
  actorId: string | null;
  otherId: string;
  linkedByApplication: boolean;
}): ConversationStartCheck {
  if (!v.actorId) return { ok: false, error: CHAT_MESSAGES.loggedOut };
  if (v.actorId === v.otherId) return { ok: false, error: CHAT_MESSAGES.withSelf };
  if (!v.otherId || !v.linkedByApplication) return { ok: false, redirectTo: PATHS.applications };
  return { ok: true };
}

/** The application that links two users, as far as a conversation record cares: its gig and creator. */
export type ConversationLink = { gigTitle: string; gigId: string; creatorId: string };

/**
 * A new conversation record (docs/product.md §3 Conversation) started by `starterId` with `otherId`, named
 * after the application that links them (the most recent one), read and without messages yet.
 * Written by the device that starts it and by the server when it creates one, so both agree.
 */
export function newConversation(input: {
  starterId: string;
  otherId: string;
  link: ConversationLink | undefined;
  now: number;
}): Conversation {
  const { starterId, otherId, link, now } = input;
  return {
    id: conversationIdFor(starterId, otherId),
    participants: [starterId, otherId].sort(),
    createdAt: now,
    lastMessage: '',
    lastMessageTimestamp: null,
    lastSenderId: null,
    lastMessageRead: true,
    gigTitle: link?.gigTitle ?? '',
    gigId: link?.gigId ?? null,
    creatorId: link?.creatorId ?? null,
    isCreatorInitiated: link !== undefined && starterId === link.creatorId,
    updatedAt: now,
  };
}

/** "Only the participants of a conversation may read it": the two ids its id is made of. */
export function canReadConversation(actorId: string | null, conversationId: string): boolean {
  if (!actorId) return false;
  return participantsOf(conversationId)?.includes(actorId) ?? false;
}
