import type { NotificationType } from '../../shared/constants';

/**
 * Web push's server-only records (never replicated, like sessions and the ledger). With the other
 * records they make up what each collection of the store holds (store/documents.ts).
 */

/**
 * One device's subscription for one user. The id is derived from the user and the endpoint, so a
 * device that subscribes again replaces its own record. It belongs to the session that made it:
 * logging out of that session removes it, and a push is never sent for a session that has ended.
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
  createdAt: number;
  updatedAt: number;
};

/**
 * The claim on one notification's push (id: the notification's): the `createdAt` it was sent for.
 * A chat notification is refreshed in place with a new `createdAt` for each new message, which is
 * a new push; marking it read changes nothing here. Claimed in a store decision, so exactly one
 * server instance sends each.
 */
export type PushSendRecord = { id: string; userId: string; createdAt: number; claimedAt: number };

/** The VAPID key pair, created once per data store (meta collection, id `vapid`). */
export type VapidKeysRecord = { id: 'vapid'; publicKey: string; privateKey: string; createdAt: number };
