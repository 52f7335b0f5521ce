import { applicationRxSchema } from '../../shared/schemas/application';
import { conversationRxSchema } from '../../shared/schemas/conversation';
import { gigRxSchema } from '../../shared/schemas/gig';
import { notificationRxSchema } from '../../shared/schemas/notification';
import { userRxSchema } from '../../shared/schemas/user';
import type { Application } from '../../shared/schemas/application';
import type { Conversation } from '../../shared/schemas/conversation';
import type { Gig } from '../../shared/schemas/gig';
import type { Notification } from '../../shared/schemas/notification';
import type { User } from '../../shared/schemas/user';

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

/** Adds the local-only fields to a document as it arrives from the server. */
export function toLocal(collection: string, doc: Record<string, unknown>): Record<string, unknown> {
  if (collection === 'gigs' && typeof doc.createdAt === 'number') return { ...doc, sortKey: gigSortKey(doc.createdAt) };
  return doc;
}

/** The collections replicated with the sync server, each from its shared schema. */
export const REPLICATED_COLLECTIONS = {
  users: userRxSchema,
  gigs: localGigRxSchema,
  applications: applicationRxSchema,
  notifications: notificationRxSchema,
  conversations: conversationRxSchema,
} as const;

export type ReplicatedName = keyof typeof REPLICATED_COLLECTIONS;

const unchanged = (doc: unknown) => doc;

/**
 * Each schema version's step for the documents a device already holds. Gigs version 1 added the
 * optional openings and filledAt (absent reads as one opening, not filled; the server sends both
 * on its next change), applications version 1 the CLOSED status: old documents stay valid as they are.
 */
export const MIGRATIONS: Record<ReplicatedName, Record<number, (doc: unknown) => unknown>> = {
  users: {},
  gigs: { 1: unchanged },
  applications: { 1: unchanged },
  notifications: {},
  conversations: {},
};
export const REPLICATED_NAMES = Object.keys(REPLICATED_COLLECTIONS) as ReplicatedName[];

export type DocTypes = {
  users: User;
  gigs: LocalGig;
  applications: Application;
  notifications: Notification;
  conversations: Conversation;
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

export const syncProblemRxSchema = {
  version: 0,
  primaryKey: 'id',
  type: 'object' as const,
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
