import { LIMITS } from './constants';
import { ID_PATTERN } from './ids';
import { isSanitized, quoted, sanitizeText } from './text';
import { checkMessage } from './validation/message';

/**
 * The layout of a conversation's Yjs document, shared by the chat client and the chat server.
 *
 * - `messages` (Y.Array): plain JSON objects (`ChatDocMessage`), only ever appended by clients.
 * - `stamps` (Y.Map): message id → server time in ms, written only by the server. A message
 *   without a stamp is pending; a stamp gives the message its `timestamp` and its place in order.
 */
export const CHAT_MESSAGES_ARRAY = 'messages';
export const CHAT_STAMPS_MAP = 'stamps';

export type ChatDocMessage = {
  /** Client-generated, unique in the room: letters, digits, `_` and `-`, at most 64. */
  id: string;
  content: string;
  senderId: string;
  receiverId: string;
  /** The sender's clock when it was written (ms); orders pending messages only. */
  clientTime: number;
  /**
   * The gig the sender wrote from (a conversation is one per pair of users, and several gigs may
   * link them): optional, a document id. The server names a gig after it only when it links the two.
   */
  gigId?: string;
};

export const MESSAGE_ID_MAX = 64;
const MESSAGE_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
/** Ids are keys of `stamps`; these would be risky keys once the map is read into a plain object. */
const RESERVED_IDS = new Set(['__proto__', 'constructor', 'prototype']);
const MESSAGE_KEYS = ['clientTime', 'content', 'id', 'receiverId', 'senderId'];
const OPTIONAL_KEYS = new Set(['gigId']);

export type ChatMessageCheck = { ok: true; message: ChatDocMessage } | { ok: false; reason: string };

/**
 * Judges one object pushed into `messages` by the user `senderId` in their conversation with
 * `receiverId`. Content is sent sanitised and trimmed by the client (`checkMessage`); a chat update
 * cannot be rewritten on its way, so content that is not sanitised is refused (decision 013); the rule here is docs/product.md §5 "An empty or
 * whitespace-only message is not sent" and our bound of LIMITS.messageMax on the text as stored.
 * A gigId is judged on its shape only: whether it links the two is the server's to check against
 * its store when it names the gig (docs/decisions/015-chat-gigs-and-offline-history.md).
 */
export function checkChatDocMessage(
  value: unknown,
  expected: { senderId: string; receiverId: string },
): ChatMessageCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'A message must be an object' };
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return { ok: false, reason: 'A message must be a plain object' };
  const m = value as Record<string, unknown>;
  const keys = Object.keys(m)
    .filter((k) => !OPTIONAL_KEYS.has(k))
    .sort();
  if (keys.length !== MESSAGE_KEYS.length || keys.some((k, i) => k !== MESSAGE_KEYS[i])) {
    return { ok: false, reason: `A message has the fields ${MESSAGE_KEYS.join(', ')}, and optionally gigId` };
  }
  const { id, content, senderId, receiverId, clientTime, gigId } = m;
  if (typeof id !== 'string' || id.length > MESSAGE_ID_MAX || !MESSAGE_ID_PATTERN.test(id) || RESERVED_IDS.has(id)) {
    return { ok: false, reason: 'Invalid message id' };
  }
  if (typeof content !== 'string') return { ok: false, reason: 'The message text must be text' };
  if (content.length > LIMITS.messageMax)
    return { ok: false, reason: `Message must be at most ${LIMITS.messageMax} characters` };
  if (!isSanitized(content))
    return {
      ok: false,
      reason: 'A message cannot contain direction overrides, control characters or broken characters',
    };
  const text = checkMessage(content);
  if (!text.ok) return { ok: false, reason: text.error ?? 'An empty message is not sent' };
  if (senderId !== expected.senderId) return { ok: false, reason: 'A message must be sent by the signed-in user' };
  if (receiverId !== expected.receiverId)
    return { ok: false, reason: 'A message must be addressed to the other participant' };
  if (typeof clientTime !== 'number' || !Number.isFinite(clientTime) || clientTime < 0)
    return { ok: false, reason: 'Invalid client time' };
  if ('gigId' in m && (typeof gigId !== 'string' || !ID_PATTERN.test(gigId)))
    return { ok: false, reason: 'Invalid gig id' };
  return {
    ok: true,
    message: { id, content, senderId, receiverId, clientTime, ...(typeof gigId === 'string' ? { gigId } : {}) },
  };
}

export type ShownChatMessage = ChatDocMessage & { timestamp: number | null; pending: boolean };

/**
 * docs/product.md "Shows messages in ascending time order": stamped messages by server time (ties by id,
 * so both participants see one order), then pending ones in the order their senders wrote them.
 */
export function orderChatMessages(
  messages: readonly ChatDocMessage[],
  stamps: ReadonlyMap<string, number>,
): ShownChatMessage[] {
  const shown = messages.map((m) => {
    const stamp = stamps.get(m.id);
    return { ...m, timestamp: stamp ?? null, pending: stamp === undefined };
  });
  return shown.sort((a, b) => {
    if (a.pending !== b.pending) return a.pending ? 1 : -1;
    const byTime = a.pending ? a.clientTime - b.clientTime : a.timestamp! - b.timestamp!;
    return byTime !== 0 ? byTime : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

const NOTICE_PREVIEW = 100;

/**
 * The receiver's new_message notification text (docs/product.md gives none): who wrote, about which gig
 * when the message names one, and the start of the latest message, so the one unread notice per
 * conversation always shows the newest.
 */
export function newMessageNotice(senderName: string, content: string, gigTitle = ''): string {
  const text = sanitizeText(content).trim().replace(/\s+/g, ' ');
  const preview = text.length > NOTICE_PREVIEW ? `${text.slice(0, NOTICE_PREVIEW - 1)}…` : text;
  const about = gigTitle ? ` about ${quoted(gigTitle)}` : '';
  return `New message from ${senderName ? quoted(senderName) : 'someone'}${about}: ${preview}`;
}
