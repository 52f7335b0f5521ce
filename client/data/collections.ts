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

/** The collections replicated with the sync server, each from its shared schema. */
export const REPLICATED_COLLECTIONS = {
  users: userRxSchema,
  gigs: gigRxSchema,
  applications: applicationRxSchema,
  notifications: notificationRxSchema,
  conversations: conversationRxSchema,
} as const;

export type ReplicatedName = keyof typeof REPLICATED_COLLECTIONS;
export const REPLICATED_NAMES = Object.keys(REPLICATED_COLLECTIONS) as ReplicatedName[];

export type DocTypes = {
  users: User;
  gigs: Gig;
  applications: Application;
  notifications: Notification;
  conversations: Conversation;
};

/**
 * A write the server refused, kept on this device with its reason and the content the user
 * wrote, so nothing typed offline is lost silently (ARCHITECTURE.md "Data and sync").
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
