import crypto from 'node:crypto';
import { Router } from 'express';
import { pushEndpointBodySchema, pushEndpointSchema, pushSubscriptionBodySchema } from '../../shared/push';
import { QUOTA_MESSAGES } from '../../shared/validation/quotas';
import { requireAuth } from '../auth/middleware';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { parseBody } from '../http/parse';
import { isAllowedEndpoint } from './deliver';
import { removeSubscription, saveSubscription, subscriptionFor } from './subscriptions';

export const PUSH_ERRORS = {
  unknownService: "This browser's push service is not one this server sends notifications to.",
  badKeys: 'The subscription keys are not valid.',
  badEndpoint: 'endpoint: Push endpoint must be an absolute URL',
} as const;

/** A device's public key must be a point on P-256, or nothing could ever be encrypted for it. */
function validDeviceKey(p256dh: string): boolean {
  try {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(p256dh, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

/**
 * `/api/push`: the server's public key, and turning notifications on or off for this device
 * (docs/decisions/030-installed-app.md). Each write counts towards the user's pushed-documents
 * quota, like any other write of theirs.
 */
export function pushRoutes(ctx: AppContext, publicKey: string): Router {
  const router = Router();

  router.get('/key', (_req, res) => {
    requireAuth(res);
    res.json({ publicKey });
  });

  router.get('/subscription', (req, res) => {
    const { user } = requireAuth(res);
    const parsed = pushEndpointSchema.safeParse(req.query.endpoint);
    if (!parsed.success) throw badRequest(PUSH_ERRORS.badEndpoint);
    if (!isAllowedEndpoint(parsed.data, ctx.config.pushServiceOrigins)) throw badRequest(PUSH_ERRORS.unknownService);
    const found = subscriptionFor(ctx.store, user.id, parsed.data, publicKey);
    res.setHeader('Cache-Control', 'no-store');
    res.json(found ? { subscribed: true, types: found.types } : { subscribed: false, types: [] });
  });

  router.post('/subscribe', async (req, res) => {
    const { user, session } = requireAuth(res);
    const body = parseBody(pushSubscriptionBodySchema, req.body);
    if (!isAllowedEndpoint(body.endpoint, ctx.config.pushServiceOrigins)) throw badRequest(PUSH_ERRORS.unknownService);
    if (!validDeviceKey(body.keys.p256dh) || Buffer.from(body.keys.auth, 'base64url').length !== 16)
      throw badRequest(PUSH_ERRORS.badKeys);
    await ctx.limits.writes.pushed.take(user.id, 1, QUOTA_MESSAGES.tooManyChanges);
    const saved = await saveSubscription(ctx.store, {
      userId: user.id,
      sessionId: session.id,
      body,
      vapidKey: publicKey,
      now: ctx.now(),
    });
    res.json({ subscribed: true, types: saved.types });
  });

  router.post('/unsubscribe', async (req, res) => {
    const { user } = requireAuth(res);
    const { endpoint } = parseBody(pushEndpointBodySchema, req.body);
    if (!isAllowedEndpoint(endpoint, ctx.config.pushServiceOrigins)) throw badRequest(PUSH_ERRORS.unknownService);
    await ctx.limits.writes.pushed.take(user.id, 1, QUOTA_MESSAGES.tooManyChanges);
    await removeSubscription(ctx.store, user.id, endpoint);
    res.json({ subscribed: false, types: [] });
  });

  return router;
}
