import type { NotificationType } from '../../shared/constants';

/**
 * Web push's server-only records (never replicated, like sessions and the ledger). With the other
 * records they make up what each collection of the store holds (store/documents.ts).
 */

/**
 * One device's subscription for one user. The id is one of the user's device slots
 * (push/subscriptions.ts), so a device that subscribes again rewrites its own record and a user
 * never has more records than slots. It belongs to the session that made it: logging out of that
 * session removes it, and a push is never sent for a session that has ended.
 */
export type PushSubscriptionRecord = {
  id: string;
  userId: string;
  sessionId: string;
  endpoint: string;
  /** The endpoint's hash, the index that finds a device's record whichever user made it. */
  endpointKey: string;
  /** The device's P-256 public key and auth secret, base64url (RFC 8291). */
  p256dh: string;
  auth: string;
  /** The notification types this device wants pushed. */
  types: NotificationType[];
  /**
   * The server's VAPID public key the device subscribed with (its `applicationServerKey`): a push
   * signed with another key is refused by the push service. Absent on records made before it was
   * recorded.
   */
  vapidKey?: string;
  createdAt: number;
  updatedAt: number;
};

/**
 * One notification's push, claimed: the `createdAt` it was sent for. A chat notification is
 * refreshed in place with a new `createdAt` for each new message, which is a new push; marking it
 * read changes nothing here.
 */
export type PushClaim = { notificationId: string; createdAt: number; claimedAt: number };

/**
 * The pushes claimed for one user (id `user:<userId>`), in a store decision, so exactly one server
 * instance sends each. Only claims that can still matter are kept (push/claims.ts): the record
 * stays small, and there is one per user who was ever pushed to.
 */
export type PushClaimsRecord = { id: string; userId: string; claims: PushClaim[] };

/**
 * Before the claims were kept per user, one record per notification (id: the notification's).
 * Such records are no longer read or written; they stay as they were.
 */
export type LegacyPushSendRecord = { id: string; userId: string; createdAt: number; claimedAt: number };

export type PushSendRecord = PushClaimsRecord | LegacyPushSendRecord;

/** The VAPID key pair, created once per data store (meta collection, id `vapid`). */
export type VapidKeysRecord = { id: 'vapid'; publicKey: string; privateKey: string; createdAt: number };
