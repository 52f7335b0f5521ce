import { z } from 'zod';
import { INVALID_ID_MESSAGE, isDocumentId } from '../ids';
import type { Application } from '../schemas/application';
import type { Conversation } from '../schemas/conversation';
import type { Gig } from '../schemas/gig';
import type { Notification } from '../schemas/notification';
import type { Review } from '../schemas/review';
import type { User } from '../schemas/user';

/**
 * The replication protocol between a device and the sync server: the one definition of what
 * travels, for the server (sync-server/replication), the device (client/data/replication.ts) and
 * the tests. RxDB's HTTP replication (docs/decisions/001-replication-protocol.md):
 *
 * - `GET  /api/sync/:collection/pull?seq=&limit=` → {@link PullAnswer}
 * - `POST /api/sync/:collection/push` with {@link PushBody} → {@link PushAnswer}
 * - `GET  /api/sync/stream`: Server-Sent Events, `hello` ({@link HelloEvent}) on connect, then
 *   `changes` ({@link ChangesEvent}) for each durable group of writes.
 *
 * Answers are parsed with non-strict objects: a newer server may add fields without breaking
 * devices that are still on an older build.
 */

/**
 * The protocol's version: 1 is the protocol above, unchanged since the first release. It is not
 * sent on the wire (no request or answer carries it, and none may require it: deployed devices
 * do not send it). Raise it with any change a deployed device or server would misread, and decide
 * then how the two sides learn each other's version (docs/decisions/018-sync-protocol-module.md).
 */
export const SYNC_PROTOCOL_VERSION = 1;

/** The collections that replicate; the rest of the data stays on the server. */
export const REPLICATED = ['users', 'gigs', 'applications', 'notifications', 'conversations', 'reviews'] as const;
export type ReplicatedCollection = (typeof REPLICATED)[number];

export function isReplicated(name: string): name is ReplicatedCollection {
  return (REPLICATED as readonly string[]).includes(name);
}

/** What each collection's documents are: the shared entity, or the view of it a reader may see (a subset of its optional fields). */
export type SyncEntities = {
  users: User;
  gigs: Gig;
  applications: Application;
  notifications: Notification;
  conversations: Conversation;
  reviews: Review;
};

// ---------------------------------------------------------------------------------------------
// Documents

/**
 * A document as the server sends it (pull, push answer, stream): always its id and its deletion
 * flag, then the fields of the view its reader may see (sync-server/replication/visibility.ts).
 */
export const syncDocumentSchema = z.looseObject({ id: z.string(), _deleted: z.boolean() });
export type SyncDocument = z.infer<typeof syncDocumentSchema>;

/** A document of one collection as the server sends it. */
export type SyncDocumentOf<K extends ReplicatedCollection> = SyncEntities[K] & { _deleted: boolean };

/**
 * Whether a document the server sent is one of `collection` that a device can store: an object
 * whose id follows the collection's id rule (decision 010). Its fields are not checked again:
 * the server stores only documents that passed the collection's schema on push
 * (sync-server/replication/push.ts) and sends views of them, so the entity type is the contract
 * the server keeps.
 */
export function isDocumentOf<K extends ReplicatedCollection>(collection: K, doc: unknown): doc is SyncDocumentOf<K> {
  return typeof doc === 'object' && doc !== null && isDocumentId(collection, (doc as { id?: unknown }).id);
}

// ---------------------------------------------------------------------------------------------
// Pull

/** The last global sequence a pull scanned: the next pull starts after it (decision 001). */
export const checkpointSchema = z.object({ seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });
export type Checkpoint = z.infer<typeof checkpointSchema>;

export const PULL_LIMIT = { default: 200, max: 1000 } as const;

/** The pull request's query string (`?seq=&limit=`), both optional. Nothing else is accepted. */
export const pullQuerySchema = z.strictObject({
  seq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(PULL_LIMIT.max).default(PULL_LIMIT.default),
});
export type PullQuery = z.infer<typeof pullQuerySchema>;

/** The path and query of a pull. */
export function pullPath(collection: ReplicatedCollection, query: PullQuery): string {
  return `/api/sync/${collection}/pull?seq=${query.seq}&limit=${query.limit}`;
}

/**
 * The documents changed after the checkpoint that the user may see, in sequence order, and the
 * new checkpoint. A batch shorter than the limit means "caught up".
 */
export const pullAnswerSchema = z.object({ documents: z.array(syncDocumentSchema), checkpoint: checkpointSchema });
export type PullAnswer = z.infer<typeof pullAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Push

/** The most rows one push may carry. */
export const PUSH_ROWS_MAX = 500;

/**
 * A document as a device pushes it. Any object passes here: the server checks each row on its
 * own (id, version, entity schema, policy) and refuses a bad row with a reason, not the push.
 */
export const pushedDocumentSchema = z.record(z.string(), z.unknown());
export type PushedDocument = z.infer<typeof pushedDocumentSchema>;

/** One pushed write: the new state, and the server state the device based it on (none for a new document). */
export const pushRowSchema = z.strictObject({
  assumedMasterState: pushedDocumentSchema.nullable().optional(),
  newDocumentState: pushedDocumentSchema,
});
export type PushRow = z.infer<typeof pushRowSchema>;

export const pushBodySchema = z.array(pushRowSchema).max(PUSH_ROWS_MAX);
export type PushBody = z.infer<typeof pushBodySchema>;

/** A pushed row the server refused, and why (kept on the device as a sync problem). */
export const refusalSchema = z.object({ id: z.string(), reason: z.string() });
export type Refusal = z.infer<typeof refusalSchema>;

/**
 * The push answer. `conflicts` holds the server's state of every pushed document, written or
 * not (an accepted write is answered too, so server-set fields reach the writer at once; a
 * refused new document is answered with a tombstone of what was pushed); `refused` the rows the
 * server refused, with their reasons.
 */
export const pushAnswerSchema = z.object({ conflicts: z.array(syncDocumentSchema), refused: z.array(refusalSchema) });
export type PushAnswer = z.infer<typeof pushAnswerSchema>;

/**
 * The refusal reasons the replication itself gives (the shape check and the collection's policy
 * give theirs: `Unexpected field: …`, `<field>: <message>`, and the policies' own messages).
 */
export const REFUSAL_REASONS = {
  forbiddenKey: 'Unexpected field: __proto__, constructor and prototype are not document fields',
  invalidId: INVALID_ID_MESSAGE,
  noAccess: 'You do not have access to this document.',
} as const;

/** The reason for fields a collection does not have. */
export function unexpectedFieldsReason(keys: readonly string[]): string {
  return `Unexpected field: ${keys.join(', ')}`;
}

/** The reason for a field whose value the collection's schema refuses. */
export function invalidFieldReason(path: readonly PropertyKey[], message: string): string {
  return `${path.map(String).join('.')}: ${message}`;
}

/** The error messages of the replication's refused requests (answered as `{ error }`). */
export const SYNC_ERRORS = {
  /** 404: a collection that does not replicate. */
  unknownCollection: 'Unknown collection',
  /** 400: the pull's query string. */
  badPullQuery: 'Invalid checkpoint or batch size',
  /** 400: a push body that is not a list of rows. */
  badPushBody: 'Push body must be a list of { assumedMasterState, newDocumentState } rows',
} as const;

// ---------------------------------------------------------------------------------------------
// Change stream

/** The Server-Sent Events the stream sends (besides `: heartbeat` comments and a `retry:` hint). */
export const STREAM_EVENTS = { hello: 'hello', changes: 'changes' } as const;
export type StreamEventName = (typeof STREAM_EVENTS)[keyof typeof STREAM_EVENTS];

/** How long a device waits before it reconnects a dropped stream (the `retry:` field). */
export const STREAM_RETRY_MS = 2000;

/** How often the server writes a heartbeat (a `: heartbeat` comment) on every open stream. */
export const STREAM_HEARTBEAT_MS = 25_000;

/**
 * An open stream that brought nothing for this long, not even a heartbeat, is taken for dead (a
 * connection that died without closing: a phone that changed networks, a router that forgot it):
 * the device drops it and connects again, and the `hello` brings what it missed. Two heartbeats
 * and some slack.
 */
export const STREAM_SILENCE_MS = 2 * STREAM_HEARTBEAT_MS + 10_000;

/**
 * `hello`, sent once on connect with the server's durable sequence. The device answers it with
 * RxDB's RESYNC: whatever changed while it was away comes by pull.
 */
export const helloEventSchema = z.object({ seq: z.number().int().min(0) });
export type HelloEvent = z.infer<typeof helloEventSchema>;

/**
 * `changes`, one per collection for each durable group of writes, filtered per user. The
 * collection is any name: a device ignores a collection it does not replicate (a newer server's).
 */
export const changesEventSchema = z.object({
  collection: z.string(),
  documents: z.array(syncDocumentSchema),
  checkpoint: checkpointSchema,
});
export type ChangesEvent = z.infer<typeof changesEventSchema>;
