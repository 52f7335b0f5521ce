import { z } from 'zod';
import { PULL_LIMIT, PUSH_ROWS_MAX, type PullQuery, type PushedDocument, type PushRow } from './protocol';

/**
 * The replication requests the server accepts, as zod schemas, each typed against the protocol's
 * own types (protocol.ts), so the two cannot drift apart. The server parses these; a device only
 * sends them, and never loads this module (or zod) for it.
 */

/** The pull request's query string (`?seq=&limit=`), both optional. Nothing else is accepted. */
export const pullQuerySchema: z.ZodType<PullQuery, unknown> = z.strictObject({
  seq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(PULL_LIMIT.max).default(PULL_LIMIT.default),
});

/**
 * A document as a device pushes it. Any object passes here: the server checks each row on its
 * own (id, version, entity schema, policy) and refuses a bad row with a reason, not the push.
 */
const pushedDocumentSchema: z.ZodType<PushedDocument> = z.record(z.string(), z.unknown());

/** One pushed write: the new state, and the server state the device based it on (none for a new document). */
const pushRowSchema: z.ZodType<PushRow> = z.strictObject({
  assumedMasterState: pushedDocumentSchema.nullable().optional(),
  newDocumentState: pushedDocumentSchema,
});

/** A push's body: at most PUSH_ROWS_MAX rows. */
export const pushBodySchema = z.array(pushRowSchema).max(PUSH_ROWS_MAX);
