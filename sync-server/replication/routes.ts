import { Router } from 'express';
import { z } from 'zod';
import { requireAuth } from '../auth/middleware';
import type { AppContext } from '../context';
import { badRequest, notFound } from '../http/errors';
import { pullChanges } from './pull';
import { applyPush, type PushRow } from './push';
import { chargePush } from './quotas';
import type { ChangeStreamHub } from './stream';
import { isReplicated, type ReplicatedCollection } from './visibility';

const pullQuery = z.strictObject({
  seq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

const pushBody = z
  .array(
    z.strictObject({
      assumedMasterState: z.record(z.string(), z.unknown()).nullable().optional(),
      newDocumentState: z.record(z.string(), z.unknown()),
    }),
  )
  .max(500);

function collectionParam(name: string | undefined): ReplicatedCollection {
  if (!name || !isReplicated(name)) throw notFound('Unknown collection');
  return name;
}

/** The RxDB HTTP replication protocol: pull with a checkpoint, push with conflicts, one change stream. */
export function replicationRoutes(ctx: AppContext, hub: ChangeStreamHub): Router {
  const router = Router();

  router.get('/stream', (_req, res) => {
    const auth = requireAuth(res);
    hub.open(res, auth.user.id, auth.session.id);
  });

  router.get('/:collection/pull', (req, res) => {
    const auth = requireAuth(res);
    const collection = collectionParam(req.params.collection);
    const query = pullQuery.safeParse(req.query);
    if (!query.success) throw badRequest('Invalid checkpoint or batch size');
    res.setHeader('Cache-Control', 'no-store');
    res.json(pullChanges(ctx.store, auth.user.id, collection, query.data.seq, query.data.limit));
  });

  router.post('/:collection/push', async (req, res) => {
    const auth = requireAuth(res);
    const collection = collectionParam(req.params.collection);
    const rows = pushBody.safeParse(req.body);
    if (!rows.success) throw badRequest('Push body must be a list of { assumedMasterState, newDocumentState } rows');
    chargePush(ctx, auth.user.id, collection, rows.data as PushRow[]);
    const result = await applyPush(ctx, auth, collection, rows.data as PushRow[]);
    res.json(result);
  });

  return router;
}
