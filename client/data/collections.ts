import type { RxJsonSchema, WithDeleted } from 'rxdb';
import type { Application } from '../../shared/schemas/application';
import type { Conversation } from '../../shared/schemas/conversation';
import type { Gig } from '../../shared/schemas/gig';
import type { Notification } from '../../shared/schemas/notification';
import type { Review } from '../../shared/schemas/review';
import type { User } from '../../shared/schemas/user';
import { REPLICATED, type ReplicatedCollection, type SyncDocumentOf } from '../../shared/sync/protocol';
// Made from the shared zod schemas at build time, not at run time: opening the database loads no zod.
import {
  applicationRxSchema,
  conversationRxSchema,
  gigRxSchema,
  notificationRxSchema,
  reviewRxSchema,
  userRxSchema,
} from './rx-schemas.generated';

/**
 * Local-only fields: what this device adds to replicated documents for its own queries, never
 * sent to the server. `sortKey` on gigs is the creation time inverted, so "newest first" is an
 * ascending index scan that stops at its limit (RxDB never uses an index for a descending sort;
 * we measured 127 ms for the first 50 of 10k this way against 556 ms).
 */
export const LOCAL_FIELDS: Partial<Record<string, readonly string[]>> = { gigs: ['sortKey'] };
const SORT_KEY_MAX = 8_640_000_000_000_000;

export function gigSortKey(createdAt: number): number {
  return SORT_KEY_MAX - createdAt;
}

/** A gig as this device stores it (the insert hook and the replication fill `sortKey`). */
export type LocalGig = Gig & { sortKey?: number };

const localGigRxSchema = {
  ...gigRxSchema,
  properties: { ...gigRxSchema.properties, sortKey: { type: 'integer', minimum: 0, maximum: SORT_KEY_MAX, multipleOf: 1 } },
  required: [...gigRxSchema.required, 'sortKey'],
  indexes: [...gigRxSchema.indexes, 'sortKey'],
};

/** Each collection's step from a document as the server sends it to the document as this device stores it. */
const TO_LOCAL: { [K in ReplicatedName]: (doc: SyncDocumentOf<K>) => WithDeleted<DocTypes[K]> } = {
  users: (doc) => doc,
  // (A tombstone the server answered for a refused gig may lack createdAt.)
  gigs: (doc) => (typeof doc.createdAt === 'number' ? { ...doc, sortKey: gigSortKey(doc.createdAt) } : doc),
  applications: (doc) => doc,
  notifications: (doc) => doc,
  conversations: (doc) => doc,
  reviews: (doc) => doc,
};

/** Adds the local-only fields to a document as it arrives from the server. */
export function toLocal<K extends ReplicatedName>(collection: K, doc: SyncDocumentOf<K>): WithDeleted<DocTypes[K]> {
  const step: (doc: SyncDocumentOf<K>) => WithDeleted<DocTypes[K]> = TO_LOCAL[collection];
  return step(doc);
}

/** The collections replicated with the sync server, each from its shared schema. */
export const REPLICATED_COLLECTIONS = {
  users: userRxSchema,
  gigs: localGigRxSchema,
  applications: applicationRxSchema,
  notifications: notificationRxSchema,
  conversations: conversationRxSchema,
  reviews: reviewRxSchema,
} as const satisfies Record<ReplicatedName, unknown>;

export type ReplicatedName = ReplicatedCollection;

const unchanged = (doc: unknown) => doc;

/**
 * Each schema version's step for the documents a device already holds. Gigs version 1 added the
 * optional openings and filledAt (absent reads as one opening, not filled; the server sends both
 * on its next change), applications version 1 the CLOSED status, version 2 delivery, cancellation,
 * disputes and settlement (optional fields, new statuses, decision 031) and version 3 the
 * settlement's refundedAt (decision 031, revised), users version 1 the
 * reputation and notifications version 1 any type (decision 032): old documents stay valid as they are.
 */
export const MIGRATIONS: Record<ReplicatedName, Record<number, (doc: unknown) => unknown>> = {
  users: { 1: unchanged },
  gigs: { 1: unchanged },
  applications: { 1: unchanged, 2: unchanged, 3: unchanged },
  notifications: { 1: unchanged },
  conversations: {},
  reviews: {},
};
export const REPLICATED_NAMES: readonly ReplicatedName[] = REPLICATED;

export type DocTypes = {
  users: User;
  gigs: LocalGig;
  applications: Application;
  notifications: Notification;
  conversations: Conversation;
  reviews: Review;
};

/**
 * A write the server refused, kept on this device with its reason and the content the user
 * wrote, so nothing typed offline is lost silently (docs/architecture.md "Data and sync").
 */
export type SyncProblem = {
  id: string;
  collectionName: ReplicatedName;
  docId: string;
  reason: string;
  /** The refused document as the user wrote it, JSON-encoded. */
  content: string;
  createdAt: number;
};

export const syncProblemRxSchema: RxJsonSchema<SyncProblem> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 200 },
    collectionName: { type: 'string', maxLength: 40 },
    docId: { type: 'string', maxLength: 200 },
    reason: { type: 'string' },
    content: { type: 'string' },
    createdAt: { type: 'integer', minimum: 0, maximum: 8_640_000_000_000_000, multipleOf: 1 },
  },
  required: ['id', 'collectionName', 'docId', 'reason', 'content', 'createdAt'],
  indexes: ['createdAt'],
};
