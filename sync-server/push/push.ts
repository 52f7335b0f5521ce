import type { RequestHandler, Router } from 'express';
import { getAuth } from '../auth/middleware';
import type { AppContext } from '../context';
import { pushRoutes } from './routes';
import { PushSender } from './sender';
import { removeOtherKeysSubscriptions, removeSessionSubscriptions } from './subscriptions';
import { loadVapidKeys } from './vapid';

export type Push = {
  /** The routes under `/api/push`. */
  routes: Router;
  publicKey: string;
  /** Runs before the logout route: the session's device stops getting notifications, durably, first. */
  beforeLogout: RequestHandler;
  close(): Promise<void>;
};

/** Web push for a running server: its keys (made once per store), its routes and its sender. */
export async function startPush(ctx: AppContext, options: { fetch?: typeof fetch } = {}): Promise<Push> {
  const keys = await loadVapidKeys(ctx.config, ctx.store, ctx.now());
  // The keys were changed: devices subscribed with the old ones can never be pushed to again.
  const removed = await removeOtherKeysSubscriptions(ctx.store, keys.publicKey);
  if (removed > 0) ctx.log(`Web push: ${removed} subscriptions made for other VAPID keys removed`);
  const sender = new PushSender({
    store: ctx.store,
    vapid: { ...keys, subject: ctx.config.vapidSubject },
    pushServiceOrigins: ctx.config.pushServiceOrigins,
    now: ctx.now,
    log: ctx.log,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    routes: pushRoutes(ctx, keys.publicKey),
    publicKey: keys.publicKey,
    beforeLogout: async (_req, res, next) => {
      try {
        const auth = getAuth(res);
        if (auth) await removeSessionSubscriptions(ctx.store, auth.session.id);
        next();
      } catch (err) {
        next(err);
      }
    },
    close: () => sender.close(),
  };
}
