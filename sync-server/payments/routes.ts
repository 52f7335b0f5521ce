import { Router, type Request } from 'express';
import { z } from 'zod';
import { LIMITS } from '../../shared/constants';
import { getAuth, requireAuth } from '../auth/middleware';
import type { AppContext } from '../context';
import { badRequest, forbidden, HttpError } from '../http/errors';
import { parseBody } from '../http/parse';
import { connectAccount, onboardingLink, refreshPayoutState } from './accounts';
import { confirmPayment, startCheckout } from './checkout';
import { completeGig } from './complete';
import { PAYMENT_MESSAGES as M } from './messages';
import { usableAccountId, type Payments } from './payments';
import { simulatedPages } from './simulated-pages';

const id = z.string().min(1).max(200);

const connectBody = z.strictObject({
  email: z.string().max(LIMITS.emailMax),
  userId: id,
  /** Sent by the client (docs/product.md §7); never used to build redirect URLs, PUBLIC_ORIGIN or the request's own host is. */
  hostname: z.string().max(255).optional(),
});
const checkoutBody = z.strictObject({ applicationId: id });
const confirmBody = z.strictObject({
  applicationId: z.string().max(200).optional(),
  sessionId: z.string().max(255).optional(),
});
const completeBody = z.strictObject({ gigId: id, applicationId: id, userId: id, userType: z.literal('buyer') });

/** The origin payment redirects return to: PUBLIC_ORIGIN when configured, else the request's own. */
export function originOf(ctx: AppContext, req: Request): string {
  return ctx.config.publicOrigin?.replace(/\/$/, '') ?? `${req.protocol}://${req.get('host')}`;
}

/** The payment routes (mounted on the /api router, after the session is loaded). */
export function paymentRoutes(p: Payments): Router {
  const router = Router();
  const { ctx } = p;

  router.post('/stripe/create-connect-account', async (req, res) => {
    const { user } = requireAuth(res);
    const body = parseBody(connectBody, req.body);
    if (body.userId !== user.id) throw forbidden(M.ownPayoutsOnly);
    res.json(await connectAccount(p, user.id, originOf(ctx, req)));
  });

  router.get('/stripe/account-status', async (_req, res) => {
    const { user } = requireAuth(res);
    res.json(await refreshPayoutState(p, user));
  });

  // The account link's refresh_url: an expired or reused link comes here for a fresh one.
  router.get('/stripe/account-link/refresh', async (req, res) => {
    const auth = getAuth(res);
    if (!auth) return res.redirect(303, '/login');
    const accountId = usableAccountId(p, auth.user.stripeAccountId);
    if (!accountId) return res.redirect(303, '/settings');
    res.redirect(303, await onboardingLink(p, accountId, originOf(ctx, req)));
  });

  router.post('/payments/checkout', async (req, res) => {
    const { user } = requireAuth(res);
    const body = parseBody(checkoutBody, req.body);
    res.json(await startCheckout(p, user, body.applicationId, originOf(ctx, req)));
  });

  router.post('/payments/confirm', async (req, res) => {
    const { user } = requireAuth(res);
    const body = parseBody(confirmBody, req.body);
    if (!body.applicationId || !body.sessionId) throw badRequest(M.missingInfo);
    res.json(await confirmPayment(p, body.applicationId, body.sessionId, 'confirm', user.id));
  });

  // docs/product.md §7: the answer is read as { success, error }, so failures carry success: false too.
  router.post('/gigs/complete-gig', async (req, res) => {
    try {
      const { user } = requireAuth(res);
      const body = parseBody(completeBody, req.body);
      if (body.userId !== user.id) throw forbidden(M.onlyBuyerCompletes);
      const result = await completeGig(p, user, body.gigId, body.applicationId);
      // 202: claimed and being settled; the provider's answer is still to come.
      res.status(result.payout === 'pending' ? 202 : 200).json(result);
    } catch (err) {
      if (err instanceof HttpError) {
        res.status(err.status).json({ success: false, error: err.message });
        return;
      }
      ctx.log('complete-gig failed', err);
      res.status(500).json({ success: false, error: M.completeError });
    }
  });

  router.use('/payments/simulated', simulatedPages(p));
  return router;
}
