import { z } from 'zod';
import { NOTIFICATION_TYPES, type NotificationType } from './constants';
import { PUSH_LIMITS } from './push-payload';

export { PUSH_LIMITS };

/**
 * Web push (issue 17, docs/decisions/030-installed-app.md): what a device subscribes with, which
 * notification types it asks for, and what a push carries. One definition for the settings
 * screen, the server that stores subscriptions and sends, and the service worker that shows them.
 */

/** The groups of notification types the settings screen offers, each a checkbox. */
export const PUSH_GROUPS = [
  {
    id: 'applications',
    label: 'Applications to my gigs',
    types: ['new_application', 'application_status', 'APPLICATION_WITHDRAWN'],
  },
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
      'OFFER_WITHDRAWN',
      'WORK_DELIVERED',
      'CHANGES_REQUESTED',
      'CANCELLATION_REQUESTED',
      'CANCELLATION_REFUSED',
      'WORK_CANCELLED',
    ],
  },
  {
    id: 'payments',
    label: 'Payments and disputes',
    types: [
      'payment_needed',
      'PAYMENT_CONFIRMED',
      'PAYMENT_RELEASED',
      'REFUND_ISSUED',
      'PAYMENT_PROBLEM',
      'DISPUTE_OPENED',
      'DISPUTE_RESOLVED',
    ],
  },
  {
    id: 'reviews',
    label: 'Reviews',
    types: ['REVIEW_REQUESTED', 'REVIEW_REMINDER', 'REVIEW_RECEIVED', 'REVIEW_PUBLISHED'],
  },
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
