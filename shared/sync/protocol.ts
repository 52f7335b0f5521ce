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
 * Answers are read with non-strict checks: a newer server may add fields without breaking
 * devices that are still on an older build.
 *
 * This module has no zod in it: a device loads it with its data layer, before a screen's data can
 * be drawn, and zod (~23 kB compressed) would be on that path. The answers a device reads are
 * checked here by hand (`readPullAnswer`, `readPushAnswer`, `readChangesEvent`); the requests
 * the server accepts are zod schemas in `requests.ts`, typed against this module's types.
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
export type SyncDocument = { id: string; _deleted: boolean; [field: string]: unknown };

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
export type Checkpoint = { seq: number };

export const PULL_LIMIT = { default: 200, max: 1000 } as const;

/** The pull request's query string (`?seq=&limit=`), both optional: `pullQuerySchema` (requests.ts). */
export type PullQuery = { seq: number; limit: number };

/** The path and query of a pull. */
export function pullPath(collection: ReplicatedCollection, query: PullQuery): string {
  return `/api/sync/${collection}/pull?seq=${query.seq}&limit=${query.limit}`;
}

/**
 * The documents changed after the checkpoint that the user may see, in sequence order, and the
 * new checkpoint. A batch shorter than the limit means "caught up".
 */
export type PullAnswer = { documents: SyncDocument[]; checkpoint: Checkpoint };

/** A pull's answer as the device reads it; throws ProtocolError when it is not one. */
export function readPullAnswer(value: unknown): PullAnswer {
  const answer = objectOf(value, 'pull answer');
  return { documents: documentsOf(answer.documents), checkpoint: checkpointOf(answer.checkpoint) };
}

// ---------------------------------------------------------------------------------------------
// Push

/** The most rows one push may carry. */
export const PUSH_ROWS_MAX = 500;

/**
 * A document as a device pushes it. Any object passes here: the server checks each row on its
 * own (id, version, entity schema, policy) and refuses a bad row with a reason, not the push.
 */
export type PushedDocument = Record<string, unknown>;

/** One pushed write: the new state, and the server state the device based it on (none for a new document). */
export type PushRow = { assumedMasterState?: PushedDocument | null; newDocumentState: PushedDocument };

/** What a push sends: at most PUSH_ROWS_MAX rows (`pushBodySchema`, requests.ts). */
export type PushBody = PushRow[];

/** A pushed row the server refused, and why (kept on the device as a sync problem). */
export type Refusal = { id: string; reason: string };

/**
 * The push answer. `conflicts` holds the server's state of every pushed document, written or
 * not (an accepted write is answered too, so server-set fields reach the writer at once; a
 * refused new document is answered with a tombstone of what was pushed); `refused` the rows the
 * server refused, with their reasons.
 */
export type PushAnswer = { conflicts: SyncDocument[]; refused: Refusal[] };

/** A push's answer as the device reads it; throws ProtocolError when it is not one. */
export function readPushAnswer(value: unknown): PushAnswer {
  const answer = objectOf(value, 'push answer');
  return {
    conflicts: documentsOf(answer.conflicts),
    refused: listOf(answer.refused, 'list of refusals').map((item) => {
      const refusal = objectOf(item, 'refusal');
      if (typeof refusal.id !== 'string' || typeof refusal.reason !== 'string') throw new ProtocolError('refusal');
      return { id: refusal.id, reason: refusal.reason };
    }),
  };
}

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
export type HelloEvent = { seq: number };

/**
 * `changes`, one per collection for each durable group of writes, filtered per user. The
 * collection is any name: a device ignores a collection it does not replicate (a newer server's).
 */
export type ChangesEvent = { collection: string; documents: SyncDocument[]; checkpoint: Checkpoint };

/** A `changes` event's data (already JSON-parsed) as the device reads it; throws ProtocolError when it is not one. */
export function readChangesEvent(value: unknown): ChangesEvent {
  const event = objectOf(value, 'changes event');
  if (typeof event.collection !== 'string') throw new ProtocolError('changes event');
  return {
    collection: event.collection,
    documents: documentsOf(event.documents),
    checkpoint: checkpointOf(event.checkpoint),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading answers

/** An answer from the server that is not what this protocol says (a proxy's page, a broken build). */
export class ProtocolError extends Error {
  constructor(what: string) {
    super(`The server's answer is not a valid ${what}.`);
    this.name = 'ProtocolError';
  }
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ProtocolError(what);
  return value as Record<string, unknown>;
}

function listOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new ProtocolError(what);
  return value;
}

/** Documents are kept whole (fields a newer server adds pass); each has a string id and a deletion flag. */
function documentsOf(value: unknown): SyncDocument[] {
  const list = listOf(value, 'list of documents');
  for (const item of list) {
    const doc = objectOf(item, 'document');
    if (typeof doc.id !== 'string' || typeof doc._deleted !== 'boolean') throw new ProtocolError('document');
  }
  return list as SyncDocument[];
}

/** The last global sequence scanned: a whole number from 0 to 2^53 − 1. */
function checkpointOf(value: unknown): Checkpoint {
  const seq = objectOf(value, 'checkpoint').seq;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw new ProtocolError('checkpoint');
  return { seq };
}
