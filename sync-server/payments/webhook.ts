import express, { Router } from 'express';
import { HttpError, notFound } from '../http/errors';
import { refreshPayoutState, userByAccountId } from './accounts';
import { confirmPayment } from './checkout';
import { ledger, ledgerId, ledgerWrite } from './ledger';
import { lockKey, type Payments } from './payments';
import { ProviderError, type ProviderEvent, type WebhookEndpoint } from './provider';

/**
 * The two Stripe webhook endpoints (decision 007). Stripe delivers events about the platform's own
 * account (Checkout Sessions: separate charges and transfers charge on the platform) to a platform
 * endpoint, and events that happen on connected accounts (account.updated of a freelancer's payout
 * account, marked with `account`) only to a Connect endpoint, which has its own signing secret:
 *
 * - POST /api/stripe/webhook: STRIPE_WEBHOOK_SECRET; acts on platform events only.
 * - POST /api/stripe/connect-webhook: STRIPE_CONNECT_WEBHOOK_SECRET; acts on connected-account
 *   events only.
 *
 * An event that arrives at the other endpoint is verified with that endpoint's secret and then
 * acknowledged without acting (`ignored`), so a misrouted event is never taken from the wrong
 * signer. Each endpoint exists only in Stripe mode with its secret set (404 otherwise). Mounted
 * before the JSON parsers: the signature covers the raw bytes. Each event id is acted on once: the
 * id is stored after the event is handled, and a repeat (Stripe retries, or a replayed request
 * within the signature's tolerance) is acknowledged only.
 */
export const WEBHOOK_PATHS: Record<WebhookEndpoint, string> = {
  platform: '/stripe/webhook',
  connect: '/stripe/connect-webhook',
};

export function webhookRoutes(p: Payments): Router {
  const router = Router();
  for (const endpoint of ['platform', 'connect'] as const) {
    router.post(WEBHOOK_PATHS[endpoint], express.raw({ type: () => true, limit: '512kb' }), async (req, res) => {
      const secret =
        endpoint === 'connect' ? p.ctx.config.stripeConnectWebhookSecret : p.ctx.config.stripeWebhookSecret;
      if (p.provider.mode !== 'stripe' || !secret) throw notFound();
      const body: unknown = req.body;
      if (!Buffer.isBuffer(body)) throw new HttpError(400, 'Invalid webhook payload');
      let event: ProviderEvent;
      try {
        event = await p.provider.verifyWebhook(body, req.get('stripe-signature'), endpoint);
      } catch (err) {
        if (err instanceof ProviderError) throw new HttpError(err.status === 404 ? 404 : 400, err.message);
        throw err;
      }
      const outcome = await p.lock.run(lockKey.event(event.id), async () => {
        if (ledger.webhookEvent(p.ctx.store, event.id)) return 'duplicate' as const;
        const forThisEndpoint = (event.connectedAccount !== undefined) === (endpoint === 'connect');
        const ignored = forThisEndpoint ? await handle(p, event) : true;
        const now = p.ctx.now();
        await p.ctx.store.commit([
          ledgerWrite({
            id: ledgerId.webhookEvent(event.id),
            kind: 'webhook_event',
            eventId: event.id,
            type: event.type,
            createdAt: now,
            updatedAt: now,
          }),
        ]);
        return ignored ? ('ignored' as const) : ('processed' as const);
      });
      res.json({ received: true, outcome });
    });
  }
  return router;
}

/**
 * Acts on one verified event. Returns true when it was ignored. A refusal (a 4xx: unpaid,
 * mismatched, unknown application) will not change on a retry, so it is acknowledged; anything
 * else throws, is not recorded, and the provider sends the event again later.
 */
async function handle(p: Payments, event: ProviderEvent): Promise<boolean> {
  try {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        if (!event.applicationId) return true;
        await confirmPayment(p, event.applicationId, event.sessionId, 'webhook');
        return false;
      case 'account.updated': {
        // On the Connect endpoint the event is about the account it names in `account`.
        if (event.accountId !== event.connectedAccount) return true;
        const user = userByAccountId(p, event.accountId);
        if (!user) return true;
        await refreshPayoutState(p, user);
        return false;
      }
      default:
        return true;
    }
  } catch (err) {
    if (err instanceof HttpError && err.status < 500) {
      p.ctx.log(`Webhook ${event.id} (${event.type}) ignored: ${err.message}`);
      return true;
    }
    throw err;
  }
}
