import { z } from 'zod';
import { NOTIFICATION_TYPES, type NotificationType } from './constants';
import { notificationTarget } from './display';
import type { Notification } from './schemas/notification';

/**
 * Web push (issue 17, docs/decisions/030-installed-app.md): what a device subscribes with, which
 * notification types it asks for, and what a push carries. One definition for the settings
 * screen, the server that stores subscriptions and sends, and the service worker that shows them.
 */

export const PUSH_LIMITS = {
  /** Devices (browsers) one user may have notifications on; a new one replaces the longest unused. */
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

/** The groups of notification types the settings screen offers, each a checkbox. */
export const PUSH_GROUPS = [
  { id: 'applications', label: 'Applications to my gigs', types: ['new_application', 'application_status'] },
  {
    id: 'offers',
    label: 'Offers and work',
    types: [
      'FINAL_BUDGET_OFFER',
      'new_offer',
      'OFFER_REJECTED',
      'GIG_STARTED',
      'gig_in_progress',
      'GIG_COMPLETED',
      'gig_completed',
    ],
  },
  { id: 'payments', label: 'Payments', types: ['payment_needed', 'PAYMENT_CONFIRMED'] },
  { id: 'messages', label: 'Messages', types: ['new_message', 'message', 'new_conversation'] },
] as const satisfies readonly { id: string; label: string; types: readonly NotificationType[] }[];

export type PushGroupId = (typeof PUSH_GROUPS)[number]['id'];

/** Every type, as a new subscription asks for them all. */
export const ALL_PUSH_TYPES: readonly NotificationType[] = NOTIFICATION_TYPES;

/** The notification types of the chosen groups, in the order of NOTIFICATION_TYPES. */
export function typesOfGroups(groups: readonly PushGroupId[]): NotificationType[] {
  const chosen = new Set<NotificationType>(PUSH_GROUPS.filter((g) => groups.includes(g.id)).flatMap((g) => g.types));
  return NOTIFICATION_TYPES.filter((t) => chosen.has(t));
}

/** The groups whose types are all among `types`. */
export function groupsOfTypes(types: readonly string[]): PushGroupId[] {
  const have = new Set(types);
  return PUSH_GROUPS.filter((g) => g.types.every((t) => have.has(t))).map((g) => g.id);
}

/** Base64url without padding, as browsers give a subscription's keys. */
const base64url = (bytes: number) =>
  z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}={0,2}$`), `must be ${bytes} bytes, base64url`);

/**
 * A push service endpoint as the server accepts it: an absolute https URL without credentials
 * (which origins are push services is the server's configuration: it will POST there).
 */
export const pushEndpointSchema = z
  .string()
  .max(PUSH_LIMITS.endpointMax, 'Push endpoint is too long')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.href === value && url.username === '' && url.password === '' && url.hash === '';
    } catch {
      return false;
    }
  }, 'Push endpoint must be an absolute URL');

/** What a device sends to turn notifications on (or change their types): `PushSubscription.toJSON()` plus the types. */
export const pushSubscriptionBodySchema = z.strictObject({
  endpoint: pushEndpointSchema,
  /** The browser's own expiry of the subscription, when it has one (ignored: a 404/410 tells the server). */
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    /** The device's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65),
    /** The authentication secret (16 bytes). */
    auth: base64url(16),
  }),
  types: z
    .array(z.enum(NOTIFICATION_TYPES))
    .max(NOTIFICATION_TYPES.length)
    .refine((t) => new Set(t).size === t.length, 'Notification types must not repeat'),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBodySchema>;

export const pushEndpointBodySchema = z.strictObject({ endpoint: pushEndpointSchema });

/** What a push message carries: what the service worker shows, and for whom. */
export const pushPayloadSchema = z.object({
  v: z.literal(1),
  /** The user it is for: a device where someone else (or nobody) is signed in shows nothing. */
  userId: z.string().max(64),
  notificationId: z.string().max(200),
  type: z.string().max(40),
  title: z.string().max(100),
  /** The text the notifications page shows. */
  body: z.string().max(PUSH_LIMITS.bodyMax + 1),
  /** Where its click goes: the path the notifications page opens for it. */
  url: z.string().startsWith('/').max(300),
  /** Pushes with one tag replace each other on the device (a conversation's messages). */
  tag: z.string().max(200),
  createdAt: z.number(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

export const PUSH_TITLE = 'Creative Gigs';

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
