import { Router, type Response } from 'express';
import { isReplicated, SYNC_ERRORS, type ReplicatedCollection } from '../../shared/sync/protocol';
import { pullQuerySchema, pushBodySchema } from '../../shared/sync/requests';
import { requireAuth, type Auth } from '../auth/middleware';
import type { AppContext } from '../context';
import { badRequest, notFound } from '../http/errors';
import { pullChanges } from './pull';
import { applyPush } from './push';
import { chargePush } from './quotas';
import type { ChangeStreamHub } from './stream';

function collectionParam(name: string | undefined): ReplicatedCollection {
  if (!name || !isReplicated(name)) throw notFound(SYNC_ERRORS.unknownCollection);
  return name;
}

/**
 * A push to a collection, charged to its user's quotas and applied: the answer's JSON text. The
 * one handler of a push, whichever path brought it (Express's route or `syncPushPath`).
 */
export async function pushAnswer(
  ctx: AppContext,
  auth: Auth,
  collectionName: string | undefined,
  body: unknown,
): Promise<string> {
  const collection = collectionParam(collectionName);
  const rows = pushBodySchema.safeParse(body);
  if (!rows.success) throw badRequest(SYNC_ERRORS.badPushBody);
  await chargePush(ctx, auth.user.id, collection, rows.data);
  return JSON.stringify(await applyPush(ctx, auth, collection, rows.data));
}

/**
 * A replication answer's JSON text. Without an ETag: pulls say no-store and pushes are never
 * cached, and `res.json` would hash every answer for one.
 */
function sendJsonText(res: Response, text: string): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * The RxDB HTTP replication protocol: pull with a checkpoint, push with conflicts, one change
 * stream. What travels is defined once, in shared/sync/protocol.ts.
 */
export function replicationRoutes(ctx: AppContext, hub: ChangeStreamHub): Router {
  const router = Router();

  router.get('/stream', (_req, res) => {
    const auth = requireAuth(res);
    hub.open(res, auth.user.id, auth.session.id);
  });

  router.get('/:collection/pull', (req, res) => {
    const auth = requireAuth(res);
    const collection = collectionParam(req.params.collection);
    const query = pullQuerySchema.safeParse(req.query);
    if (!query.success) throw badRequest(SYNC_ERRORS.badPullQuery);
    res.setHeader('Cache-Control', 'no-store');
    sendJsonText(res, pullChanges(ctx.store, auth.user.id, collection, query.data.seq, query.data.limit));
  });

  router.post('/:collection/push', async (req, res) => {
    sendJsonText(res, await pushAnswer(ctx, requireAuth(res), req.params.collection, req.body));
  });

  return router;
}
