import express, { Router } from 'express';
import { HttpError, notFound } from '../http/errors';
import { refreshPayoutState, userByAccountId } from './accounts';
import { confirmPayment } from './checkout';
import { ledger, ledgerId, ledgerWrite } from './ledger';
import { lockKey, type Payments } from './payments';
import { ProviderError, type ProviderEvent } from './provider';

/**
 * POST /api/stripe/webhook. Mounted before the JSON parsers: the signature covers the raw bytes.
 * Only in Stripe mode with STRIPE_WEBHOOK_SECRET set; otherwise it does not exist (404).
 * Each event id is acted on once: the id is stored after the event is handled, and a repeat
 * (Stripe retries, or a replayed request within the signature's tolerance) is acknowledged only.
 */
export function webhookRoutes(p: Payments): Router {
  const router = Router();
  router.post('/stripe/webhook', express.raw({ type: () => true, limit: '512kb' }), async (req, res) => {
    if (p.provider.mode !== 'stripe' || !p.ctx.config.stripeWebhookSecret) throw notFound();
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body)) throw new HttpError(400, 'Invalid webhook payload');
    let event: ProviderEvent;
    try {
      event = await p.provider.verifyWebhook(body, req.get('stripe-signature'));
    } catch (err) {
      if (err instanceof ProviderError) throw new HttpError(err.status === 404 ? 404 : 400, err.message);
      throw err;
    }
    const outcome = await p.lock.run(lockKey.event(event.id), async () => {
      if (ledger.webhookEvent(p.ctx.store, event.id)) return 'duplicate' as const;
      const ignored = await handle(p, event);
      const now = p.ctx.now();
      await p.ctx.store.commit([ledgerWrite({ id: ledgerId.webhookEvent(event.id), kind: 'webhook_event', eventId: event.id, type: event.type, createdAt: now, updatedAt: now })]);
      return ignored ? ('ignored' as const) : ('processed' as const);
    });
    res.json({ received: true, outcome });
  });
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
