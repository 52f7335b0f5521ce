import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import compression from 'compression';
import express from 'express';
import { authRoutes } from './auth/routes';
import { loadSession } from './auth/middleware';
import type { AppContext } from './context';
import { errorHandler, notFound } from './http/errors';
import { refuseForbiddenKeys } from './http/forbidden-keys';
import { IMMUTABLE_ASSET, precompressedAssets } from './http/precompressed';
import {
  knownHostOnly,
  originPolicy,
  sameOriginJsonOnly,
  securityHeadersFor,
  type OriginPolicy,
} from './http/security';
import { PUSH_BODY_LIMIT, syncPushPath } from './replication/push-path';
import { replicationRoutes } from './replication/routes';
import { profileRoutes } from './reviews/profile-routes';
import type { ChangeStreamHub } from './replication/stream';
import { waitlistRoutes } from './waitlist/routes';
import { StoreUnavailableError } from './store/store';
import type { Payments } from './payments/payments';
import { paymentRoutes } from './payments/routes';
import { workRoutes } from './payments/work-routes';
import { operatorRoutes } from './operator/routes';
import { WEBHOOK_PATHS, webhookRoutes } from './payments/webhook';
import type { Push } from './push/push';

/** A replication push (`/api/sync/<collection>/push`). */
const isSyncPush = (path: string) => path.startsWith('/api/sync/') && path.endsWith('/push');

/** Paths that verify their caller another way (Stripe signs its webhooks). */
const ORIGIN_EXEMPT = new Set(Object.values(WEBHOOK_PATHS).map((path) => '/api' + path));

export type AppOptions = {
  /** Replication pushes served on their own path (`syncPushPath`); false sends them through Express too. */
  pushPath?: boolean;
};

/**
 * The server's requests: a replication push on its own path (`syncPushPath`), everything else
 * through the Express app.
 */
export function createApp(
  ctx: AppContext,
  hub: ChangeStreamHub,
  services: { push: Push; payments: Payments },
  options: AppOptions = {},
): http.RequestListener {
  const origins = originPolicy(ctx.config.publicOrigin, ctx.config.host);
  const headersFor = securityHeadersFor({ https: ctx.config.cookieSecure, origins });
  const app = expressApp(ctx, hub, services, origins, headersFor);
  if (options.pushPath === false) return app;
  const pushPath = syncPushPath(ctx, { origins, headersFor });
  return (req, res) => {
    if (!pushPath(req, res)) app(req, res);
  };
}

/** The Express app: security, API routes, then the built PWA with its fallback. */
function expressApp(
  ctx: AppContext,
  hub: ChangeStreamHub,
  services: { push: Push; payments: Payments },
  origins: OriginPolicy,
  headersFor: (req: http.IncomingMessage) => readonly [string, string][],
): express.Express {
  const { push, payments } = services;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  // Security headers on every answer (`securityHeadersFor`).
  app.use((req, res, next) => {
    for (const [name, value] of headersFor(req)) res.setHeader(name, value);
    next();
  });
  // gzip for the client's files and the API's answers (pulls of thousands of gigs), over the
  // slow links our users have; never the change stream, whose events must leave at once. Not a
  // push's answer either: it is the pushed documents as the server keeps them, about the size of
  // the request the device just sent uncompressed, and the wrapper cost every push its share.
  const gzip = compression({
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
  });
  app.use((req, res, next) => (req.method === 'POST' && isSyncPush(req.path) ? next() : gzip(req, res, next)));

  // For load balancers: 503 while the store cannot reach its data (a database restarting).
  app.get('/api/health', async (_req, res) => {
    try {
      await ctx.store.ping();
      res.json({ ok: true });
    } catch (err) {
      const message = err instanceof StoreUnavailableError ? err.message : 'The store cannot be reached.';
      res.setHeader('Retry-After', '2');
      res.status(503).json({ error: message });
    }
  });

  // What every API request passes first.
  const guards: express.RequestHandler[] = [
    knownHostOnly(origins),
    sameOriginJsonOnly(origins, (p) => ORIGIN_EXEMPT.has(p)),
    // Every request reads what was committed before it arrived, on whichever instance: a user whose
    // last request went elsewhere finds their own writes (a no-op on the embedded store).
    (_req, _res, next) => {
      ctx.store.catchUp().then(() => next(), next);
    },
  ];

  // Replication, the hottest path, first: the same guards, its own body limit, the session, and
  // its routes, without walking the rest of the API's routers for every pull and push. A path
  // under /api/sync that it does not serve goes on to the API's 404.
  app.use(
    '/api/sync',
    ...guards,
    express.json({ limit: PUSH_BODY_LIMIT, strict: false }),
    refuseForbiddenKeys(),
    loadSession(ctx),
    replicationRoutes(ctx, hub),
  );

  const api = express.Router();
  api.use(...guards);
  // Before the JSON parsers: the webhook's signature covers its raw body.
  api.use(webhookRoutes(payments));
  api.use(express.json({ limit: '64kb', strict: false }));
  api.use(refuseForbiddenKeys());
  api.use(loadSession(ctx));
  api.get('/public-config', (_req, res) => {
    res.json({
      communityChatUrl: ctx.config.communityChatUrl,
      paymentsMode: ctx.config.stripeSecretKey ? 'stripe' : 'simulated',
    });
  });
  api.post('/auth/logout', push.beforeLogout);
  api.use('/auth', authRoutes(ctx));
  api.use('/push', push.routes);
  api.use('/waitlist', waitlistRoutes(ctx));
  api.use('/profiles', profileRoutes(ctx));
  api.use(paymentRoutes(payments));
  api.use(workRoutes(payments));
  api.use(operatorRoutes(payments));
  api.use(() => {
    throw notFound();
  });
  app.use('/api', api);
  app.use('/api', errorHandler(ctx.log));

  serveClient(app, ctx.config.distDir);
  app.use(errorHandler(ctx.log));
  return app;
}

function serveClient(app: express.Express, distDir: string): void {
  const indexFile = path.join(distDir, 'index.html');
  app.use(precompressedAssets(distDir));
  app.use(
    express.static(distDir, {
      index: false,
      setHeaders(res, filePath) {
        const rel = path.relative(distDir, filePath);
        if (rel.startsWith('assets' + path.sep)) {
          res.setHeader('Cache-Control', IMMUTABLE_ASSET);
        } else {
          // sw.js, the manifest, index.html, icons: always revalidate so updates reach users.
          res.setHeader('Cache-Control', 'no-cache');
        }
      },
    }),
  );
  app.get('/{*splat}', (_req, res) => {
    if (!fs.existsSync(indexFile)) {
      res.status(503).type('text').send('The client is not built yet. Run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });
}
