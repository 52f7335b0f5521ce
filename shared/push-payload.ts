import { notificationTarget } from './display';
import { isAppPath } from './push-links';
import type { Notification } from './schemas/notification';

/**
 * What a push message carries, read by the service worker. Kept apart from the subscription
 * schemas (shared/push.ts) so the service worker's bundle holds a few lines, not a schema library.
 */

export const PUSH_LIMITS = {
  /** Devices (browsers) one user may have notifications on; a new one replaces the one updated longest ago. */
  devicesPerUser: 10,
  /** Push service URLs are a few hundred characters (FCM, Mozilla, Apple, Windows). */
  endpointMax: 1024,
  /** The notification's text as a push carries it: a notification shows a few lines anyway. */
  bodyMax: 400,
  /**
   * A push message carries at most 4,096 bytes, 4,078 of them for an aes128gcm record's plaintext
   * (RFC 8291 §4) less its padding delimiter: the payload stays well under.
   */
  payloadMaxBytes: 3000,
} as const;

export const PUSH_TITLE = 'Creative Gigs';

export type PushPayload = {
  v: 1;
  /** The user it is for: a device where someone else (or nobody) is signed in shows nothing. */
  userId: string;
  notificationId: string;
  type: string;
  title: string;
  /** The text the notifications page shows. */
  body: string;
  /** Where its click goes: the path the notifications page opens for it. */
  url: string;
  /** Pushes with one tag replace each other on the device (a conversation's messages). */
  tag: string;
  createdAt: number;
};

function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The push for a notification: its text and the URL a click on it opens on the notifications page. */
export function pushPayload(
  n: Pick<Notification, 'id' | 'userId' | 'type' | 'message' | 'senderId' | 'gigId' | 'conversationId' | 'createdAt'>,
): PushPayload {
  let body = shorten(n.message, PUSH_LIMITS.bodyMax);
  const payload = (): PushPayload => ({
    v: 1,
    userId: n.userId,
    notificationId: n.id,
    type: n.type,
    title: PUSH_TITLE,
    body,
    url: notificationTarget(n),
    tag: n.conversationId ? `conversation-${n.conversationId}` : `notification-${n.id}`,
    createdAt: n.createdAt,
  });
  // Four bytes a character at worst: shorten until it fits (never more than a few rounds).
  while (new TextEncoder().encode(JSON.stringify(payload())).length > PUSH_LIMITS.payloadMaxBytes)
    body = shorten(body, Math.floor([...body].length / 2));
  return payload();
}

const str = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;

/** A push's text as the service worker receives it: the payload, or null for anything else. */
export function parsePushPayload(text: string | null | undefined): PushPayload | null {
  if (!text || text.length > 8192) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const p = value as Record<string, unknown>;
  const ok =
    p.v === 1 &&
    str(p.userId, 64) &&
    str(p.notificationId, 200) &&
    str(p.type, 40) &&
    str(p.title, 100) &&
    str(p.body, PUSH_LIMITS.bodyMax + 1) &&
    isAppPath(p.url) &&
    str(p.tag, 200) &&
    typeof p.createdAt === 'number';
  if (!ok) return null;
  return {
    v: 1,
    userId: p.userId as string,
    notificationId: p.notificationId as string,
    type: p.type as string,
    title: p.title as string,
    body: p.body as string,
    url: p.url as string,
    tag: p.tag as string,
    createdAt: p.createdAt as number,
  };
}
