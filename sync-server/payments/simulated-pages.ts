import fs from 'node:fs';
import { Router, type Response } from 'express';
import { normalizeStatus } from '../../shared/application-machine';
import { formatMoney } from '../../shared/money';
import { getAuth, requireAuth } from '../auth/middleware';
import { conflict, notFound } from '../http/errors';
import { projectFile } from '../project-file';
import { refreshPayoutState } from './accounts';
import { confirmPayment } from './checkout';
import { PAYMENT_MESSAGES as M } from './messages';
import { viaProvider, type Payments } from './payments';
import { SIMULATED_BASE_PATH, type SimulatedProvider } from './simulated-provider';

export const SIMULATED_NOTICE = 'Payments are simulated — no real money moves.';

/**
 * The pages that stand in for Stripe's hosted onboarding and Checkout in simulated mode, under
 * /api/payments/simulated/. Each button POSTs JSON with fetch from a same-origin script (the
 * content security policy allows no inline script) and then follows the `next` URL it is given,
 * so the same-origin JSON rule of every other state-changing request holds here too. They wear the
 * app's look: the stylesheet they load is the app's own base (client/styles/base.css) plus their
 * layout, served from here because the policy allows no inline script and these pages are not
 * part of the built client.
 */
export function simulatedPages(p: Payments): Router {
  const router = Router();
  const sim = p.simulated;
  if (!sim) {
    router.use(() => {
      throw notFound();
    });
    return router;
  }

  const stylesheet = fs.readFileSync(projectFile('client/styles/base.css'), 'utf8') + PAGE_CSS;
  router.get('/page.css', (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'no-cache');
    res.send(stylesheet);
  });

  router.get('/page.js', (_req, res) => {
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(PAGE_SCRIPT);
  });

  router.get('/onboarding/:linkId', async (req, res) => {
    const auth = getAuth(res);
    if (!auth) return res.redirect(303, '/login');
    const link = await sim.link(req.params.linkId);
    const account = link && (await sim.account(link.accountId));
    if (!link || !account || account.userId !== auth.user.id) return notValid(res);
    if (link.expiresAt <= p.ctx.now()) return res.redirect(303, link.refreshUrl);
    res
      .type('html')
      .send(
        page('Simulated payout setup', [
          '<h1>Set up payouts</h1>',
          `<p>This stands in for the payment provider's onboarding of payout account <code>${escapeHtml(account.accountId)}</code>${account.email ? ` (${escapeHtml(account.email)})` : ''}.</p>`,
          account.enabled ? '<p>This account can already receive payouts.</p>' : '',
          `<button type="button" class="button" data-action="${SIMULATED_BASE_PATH}/onboarding/${escapeHtml(link.linkId)}">Complete onboarding</button>`,
        ]),
      );
  });

  router.post('/onboarding/:linkId', async (req, res) => {
    const { user } = requireAuth(res);
    const link = await sim.link(req.params.linkId);
    const account = link && (await sim.account(link.accountId));
    if (!link || !account || account.userId !== user.id || user.stripeAccountId !== account.accountId)
      throw notFound('This onboarding link is not valid.');
    await viaProvider(p, M.connectFailed, () => sim.completeOnboarding(account.accountId));
    await refreshPayoutState(p, p.ctx.store.get('users', user.id)!);
    res.json({ next: link.returnUrl });
  });

  router.get('/checkout/:sessionId', async (req, res) => {
    const auth = getAuth(res);
    if (!auth) return res.redirect(303, '/login');
    const session = await buyersSession(sim, req.params.sessionId, auth.user.id);
    if (!session) return notValid(res);
    const lines = session.lineItems.map(
      (l) =>
        `<tr><td>${escapeHtml(l.name)}</td><td class="amount">${escapeHtml(formatMoney(l.amount, session.currency))}</td></tr>`,
    );
    res
      .type('html')
      .send(
        page('Simulated checkout', [
          '<h1>Checkout</h1>',
          `<table><tbody>${lines.join('')}</tbody><tfoot><tr><th scope="row">Total</th><td class="amount">${escapeHtml(formatMoney(session.amountTotal, session.currency))}</td></tr></tfoot></table>`,
          session.paid
            ? '<p>This checkout is already paid.</p>'
            : `<button type="button" class="button" data-action="${SIMULATED_BASE_PATH}/checkout/${escapeHtml(session.sessionId)}/pay">Pay ${escapeHtml(formatMoney(session.amountTotal, session.currency))}</button>`,
          `<p><a class="button button--quiet" href="${escapeHtml(session.cancelUrl)}">Cancel and go back</a></p>`,
        ]),
      );
  });

  router.post('/checkout/:sessionId/pay', async (req, res) => {
    const { user } = requireAuth(res);
    const session = await buyersSession(sim, req.params.sessionId, user.id);
    if (!session) throw notFound('This checkout session is not valid.');
    const app = p.ctx.store.get('applications', session.applicationId);
    if (!session.paid && normalizeStatus(String(app?.status)) !== 'PENDING_PAYMENT') throw conflict(M.invalidStatus);
    await viaProvider(p, M.checkoutFailed, () => sim.paySession(session.sessionId));
    // Stands in for Stripe's checkout.session.completed webhook: the work starts even if the
    // buyer never reaches the success page (which then confirms the same session again).
    await confirmPayment(p, session.applicationId, session.sessionId, 'simulated');
    res.json({ next: session.successUrl.replace('{CHECKOUT_SESSION_ID}', session.sessionId) });
  });

  return router;
}

async function buyersSession(sim: SimulatedProvider, sessionId: string, userId: string) {
  const session = await sim.session(sessionId);
  return session && session.metadata.buyerId === userId ? session : undefined;
}

function notValid(res: Response): void {
  res
    .status(404)
    .type('html')
    .send(
      page('Not found', [
        '<h1>This payment link is not valid</h1>',
        '<p><a class="button button--quiet" href="/basket">Back to My Gigs</a></p>',
      ]),
    );
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${SIMULATED_BASE_PATH}/page.css">
<script src="${SIMULATED_BASE_PATH}/page.js" defer></script>
</head>
<body>
<header class="sim-header"><span class="sim-brand">Creative Gigs</span></header>
<main class="sim-page">
<p class="notice" role="note"><strong>${escapeHtml(SIMULATED_NOTICE)}</strong> This page stands in for the payment provider.</p>
${body.filter(Boolean).join('\n')}
<p id="status" role="status"></p>
</main>
</body>
</html>`;
}

/** The stand-in pages' own layout, over the app's base: a card on the app's background. */
const PAGE_CSS = `
.sim-header { background: var(--brand); color: #fff; padding: 0.6rem 1rem; }
.sim-brand { font-weight: 800; font-size: 1.2rem; }
.sim-page { max-width: 32rem; margin: 2rem auto; background: var(--card); padding: 1.5rem; border-radius: var(--radius); box-shadow: 0 1px 3px rgba(31, 26, 61, 0.12); }
@media (max-width: 600px) { .sim-page { margin: 0; border-radius: 0; } }
.sim-page h1 { margin-top: 0.5rem; }
.sim-page table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
.sim-page td, .sim-page th { padding: 0.4rem 0; text-align: left; border-bottom: 1px solid #ece8f5; }
.sim-page .amount { text-align: right; font-variant-numeric: tabular-nums; }
.sim-page tfoot th, .sim-page tfoot td { font-weight: 700; }
`;

const PAGE_SCRIPT = `document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
  if (!button) return;
  const status = document.getElementById('status');
  button.disabled = true;
  status.textContent = 'Working…';
  try {
    const res = await fetch(button.dataset.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: '{}',
    });
    const data = await res.json().catch(() => ({}));
    if (res.ok && typeof data.next === 'string') {
      location.href = data.next;
      return;
    }
    status.textContent = data.error || 'Something went wrong. Please try again.';
  } catch {
    status.textContent = 'You appear to be offline. Please check your connection and try again.';
  }
  button.disabled = false;
});
`;
