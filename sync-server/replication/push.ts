import { z } from 'zod';
import { isDocumentId } from '../../shared/ids';
import { applicationSchema } from '../../shared/schemas/application';
import { conversationSchema } from '../../shared/schemas/conversation';
import { gigSchema } from '../../shared/schemas/gig';
import { notificationSchema } from '../../shared/schemas/notification';
import { reviewSchema } from '../../shared/schemas/review';
import { userText } from '../../shared/schemas/common';
import { REVIEW_RULES } from '../../shared/reviews';
import { userSchema } from '../../shared/schemas/user';
import {
  invalidFieldReason,
  REFUSAL_REASONS,
  unexpectedFieldsReason,
  type PushAnswer,
  type PushedDocument,
  type PushRow,
  type Refusal,
  type SyncDocument,
} from '../../shared/sync/protocol';
import type { Auth } from '../auth/middleware';
import { workSettings } from '../config';
import type { AppContext } from '../context';
import type { Decision, DecisionReader } from '../store/store';
import { applicationPolicy } from '../policies/applications';
import { conversationPolicy } from '../policies/conversations';
import { gigPolicy } from '../policies/gigs';
import { notificationPolicy } from '../policies/notifications';
import { reviewPolicy } from '../policies/reviews';
import type { Incoming, Policy, PolicyInput, PolicyResult } from '../policies/types';
import { userPolicy } from '../policies/users';
import { viewFor, type ReplicatedCollection } from './visibility';

/** A pushed document judged: refused for its shape, or the policy's answer. */
type Judge<K extends ReplicatedCollection> = (
  input: Omit<PolicyInput<K>, 'incoming'>,
  pushed: Record<string, unknown>,
) => { shapeRefusal: string } | PolicyResult;

/**
 * Pushed documents are checked field by field against the entity schema (every field optional: the
 * policy decides), then judged by the collection's policy, which gets the parsed document, so user
 * text arrives sanitised (decision 013).
 */
function judge<K extends ReplicatedCollection>(shape: z.ZodType<Incoming<K>>, policy: Policy<K>): Judge<K> {
  return (input, pushed) => {
    const parsed = shape.safeParse(pushed);
    if (parsed.success) return policy({ ...input, incoming: parsed.data });
    const issue = parsed.error.issues[0]!;
    return {
      shapeRefusal:
        issue.code === 'unrecognized_keys'
          ? unexpectedFieldsReason(issue.keys)
          : invalidFieldReason(issue.path, issue.message),
    };
  };
}

const JUDGES: { [K in ReplicatedCollection]: Judge<K> } = {
  users: judge(userSchema.partial().strict(), userPolicy),
  gigs: judge(gigSchema.extend({ creatorEmail: gigSchema.shape.creatorName }).partial().strict(), gigPolicy),
  applications: judge(applicationSchema.partial().strict(), applicationPolicy),
  notifications: judge(notificationSchema.partial().strict(), notificationPolicy),
  conversations: judge(conversationSchema.partial().strict(), conversationPolicy),
  // The rating and the texts are the policy's to judge, with the product's messages (shared/reviews.ts).
  reviews: judge(
    reviewSchema
      .extend({
        rating: z.number(),
        text: userText(4 * REVIEW_RULES.textMax),
        reply: userText(4 * REVIEW_RULES.replyMax).nullable(),
      })
      .partial()
      .strict(),
    reviewPolicy,
  ),
};

/** RxDB's own bookkeeping fields, never stored. */
const RXDB_FIELDS = new Set(['_meta', '_rev', '_attachments', '_deleted']);
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Whether the client's assumed master state is the server's. A tombstone assumed where the server
 * has no document is the same "nothing here": it is the tombstone this server answered when it
 * refused an earlier write of that id, and a new write of it (the user applying again to a gig
 * they do not know is deleted) must be judged by the policy, then landed or refused, not answered
 * as a conflict with the tombstone, which the client takes as the server's state and so drops
 * the write without a sync problem (convergence seed 848465).
 */
function sameVersion(
  assumed: PushedDocument | null | undefined,
  master: SyncDocument | undefined,
  deleting: boolean,
): boolean {
  if (!assumed) return master === undefined;
  // (Deleting what neither side has stays a conflict answered with the tombstone, as before.)
  if (!master) return assumed._deleted === true && !deleting;
  return assumed.updatedAt === master.updatedAt && Boolean(assumed._deleted) === Boolean(master._deleted);
}

/**
 * What a row's decision answers: a document id to show as it is once the commits are durable
 * (with what to show if it is then out of this user's view), or a fixed document; and its refusal.
 */
type RowOutcome = { answer: Later | SyncDocument; refusal?: Refusal };

/** A document answered as it is once the commits are durable; `otherwise` if it is then out of view. */
class Later {
  constructor(
    readonly id: string,
    readonly otherwise?: SyncDocument,
  ) {}
}

/** A refused row: answered with the master state (or a tombstone of what was pushed) and the reason. */
function refusedRow(
  id: string,
  master: SyncDocument | undefined,
  tombstone: SyncDocument,
  reason: string,
): Decision<RowOutcome> {
  return { writes: [], value: { answer: master ? new Later(id, master) : tombstone, refusal: { id, reason } } };
}

/** What deciding a push's rows needs of the request. */
type PushContext<K extends ReplicatedCollection> = {
  ctx: AppContext;
  auth: Auth;
  collection: K;
  judge: Judge<K>;
  settings: ReturnType<typeof workSettings>;
};

/**
 * One row as a decision: everything it reads (the current document, what the user may see of
 * it, what the policy reads) goes through the decision's reader, so a store shared by several
 * instances can check it all at commit. The embedded store runs it at once, in order.
 * (Module-level, as are the helpers it calls: the server runs through tsx, which names every
 * inner function as it is made, a cost on each request; decision 008.)
 */
function decideRow<K extends ReplicatedCollection>(
  { ctx, auth, collection, judge, settings }: PushContext<K>,
  row: PushRow,
  read: DecisionReader,
): Decision<RowOutcome> {
  const userId = auth.user.id;
  const pushed = row.newDocumentState;
  const id = typeof pushed?.id === 'string' ? pushed.id : '';
  const deleting = pushed?._deleted === true;
  // Empty text means "not filled in": the policy then answers with the docs/product.md message for the
  // missing field, not a schema error about an empty enum value.
  const incoming: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(pushed ?? {}))
    if (!RXDB_FIELDS.has(k) && !FORBIDDEN_KEYS.has(k) && v !== '') incoming[k] = v;

  const current = id ? read.get(collection, id) : undefined;
  const master = current ? viewFor(read, userId, collection, current) : undefined;
  const tombstone: SyncDocument = { ...incoming, id, _deleted: true };

  if (Object.keys(pushed ?? {}).some((k) => FORBIDDEN_KEYS.has(k)))
    return refusedRow(id, master, tombstone, REFUSAL_REASONS.forbiddenKey);
  if (!isDocumentId(collection, id)) return refusedRow(id, master, tombstone, REFUSAL_REASONS.invalidId);
  // A document this user may not see: refused without saying anything about it.
  if (current && !master) {
    return { writes: [], value: { answer: tombstone, refusal: { id, reason: REFUSAL_REASONS.noAccess } } };
  }
  if (!sameVersion(row.assumedMasterState, master, deleting)) {
    // Somebody changed it first (or a retried push already landed): the client gets the master state.
    return { writes: [], value: { answer: master ? new Later(id, master) : tombstone } };
  }
  // The user's record as this decision reads it, not as the request's authentication read it:
  // a policy that writes it back (a first gig, an application) must not undo an edit of it
  // that landed in between, from another device or another instance.
  const actor = read.get('users', userId) ?? auth.user;
  const result = judge({ read, actor, current, deleting, now: ctx.now(), settings }, incoming);
  if ('shapeRefusal' in result) return refusedRow(id, master, tombstone, result.shapeRefusal);
  if (!result.ok) return refusedRow(id, master, tombstone, result.reason);
  return { writes: result.writes, value: { answer: new Later(id) } };
}

/**
 * Applies pushed rows in order. Each accepted row is committed atomically with its side effects
 * and answered with the server's resulting document (so server-set fields reach the client at
 * once); a conflicting row is answered with the master state; a refused row with the master state
 * (a tombstone of the pushed content when the server has none) plus the reason.
 *
 * The answer shows each document as it is once the commits are durable, not as it was when the
 * row was applied: another request may change it while this one waits for its commit (a gig's
 * deletion marking the application `gigDeleted`), and that change's stream event can reach the
 * client first. The client's replication skips a stream event for a document whose push is under
 * way and takes this answer as the server's state, so an answer older than the event would
 * undo the newer state on the device for good (convergence seed 848419).
 */
export async function applyPush<K extends ReplicatedCollection>(
  ctx: AppContext,
  auth: Auth,
  collection: K,
  rows: PushRow[],
): Promise<PushAnswer> {
  const context: PushContext<K> = {
    ctx,
    auth,
    collection,
    judge: JUDGES[collection],
    settings: workSettings(ctx.config),
  };
  const userId = auth.user.id;
  // In order, each row seeing the rows before it (the embedded store decides them at once and
  // their commits share syncs).
  const outcomes = await ctx.store.transactions(
    rows.map((row) => (read: DecisionReader) => decideRow(context, row, read)),
  );
  const refused = outcomes.flatMap((o) => (o.value.refusal ? [o.value.refusal] : []));
  // Each document as it is with this push's and other requests' writes under way (see above):
  // built once the store holds them all (on PostgreSQL, this instance's other transactions and
  // other instances' commits; the embedded store holds them already), and answered only once
  // they are durable, so that nothing shown could be taken back by a crash. (Waiting for their
  // durability before building too, as before, made a push wait one more sync under load: 50
  // writers 8,150 → 8,300–8,900 writes/s without it, decision 008.)
  await ctx.store.settled();
  const answer: SyncDocument[] = [];
  for (const { value } of outcomes) {
    const c = value.answer;
    if (!(c instanceof Later)) {
      answer.push(c);
      continue;
    }
    const now = ctx.store.get(collection, c.id);
    const view = (now ? viewFor(ctx.store, userId, collection, now) : undefined) ?? c.otherwise;
    if (view) answer.push(view);
  }
  await ctx.store.commit([]);
  return { conflicts: answer, refused };
}
