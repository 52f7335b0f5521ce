import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local Stripe-compatible HTTP server for integration tests (127.0.0.1, a free port), covering
 * the endpoints the payments code calls: accounts, account links, Checkout Sessions (with
 * `expand`), transfers and refunds (made, and listed by charge, payment intent or transfer group).
 * It records every request (path, form-decoded body, Idempotency-Key), honours idempotency keys
 * like Stripe (same key + same parameters → the first answer replayed, a 500 included; other
 * parameters → an idempotency_error), and lets a test do what the buyer or Stripe would: pay a
 * session, finish an account's onboarding, refuse a transfer or refund, or answer one with a
 * server error after making it or without.
 * (stripe-stateful-mock answers 404 for account links, sessions and transfers, as we found when choosing a mock.)
 */

export type RecordedRequest = {
  method: string;
  path: string;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  idempotencyKey: string | undefined;
};
type Obj = Record<string, unknown>;
type Answer = { status: number; body: Obj };

export type StripeMock = {
  url: string;
  requests: RecordedRequest[];
  /** Requests to one path (method POST unless given), in order. */
  calls(path: string, method?: string): RecordedRequest[];
  accounts: Map<string, Obj>;
  sessions: Map<string, Obj>;
  transfers: Obj[];
  /** Refunds made, in order (each with `charge`, `payment_intent` and `amount`). */
  refunds: Obj[];
  /** The buyer pays: the session gets a payment intent and a charge. */
  markPaid(sessionId: string): { paymentIntentId: string; chargeId: string };
  /** Onboarding finished: charges_enabled and payouts_enabled, transfers capability active. */
  enableAccount(accountId: string): void;
  /**
   * The next `count` transfers fail with this status: 400 refuses them (insufficient funds); 500
   * answers a server error, after making the transfer when `made` (Stripe may have done the work
   * when it answers 500) or without. Stripe keeps that answer under the key.
   */
  failTransfers(count: number, status?: number, options?: { made?: boolean }): void;
  /** The same for refunds. */
  failRefunds(count: number, status?: number, options?: { made?: boolean }): void;
  close(): Promise<void>;
};

const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(8).toString('hex')}`;
const seconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=x` → { a: { b: [ { c: 'x' } ] } }, as Stripe decodes its form bodies. */
export function decodeForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Obj = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Obj;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const o = v as Obj;
    const keys = Object.keys(o);
    const isArray = keys.length > 0 && keys.every((k, i) => k === String(i));
    const mapped = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
    return isArray ? keys.map((k) => mapped[k]) : mapped;
  };
  return arrays(root) as Obj;
}

const error = (status: number, message: string, type = 'invalid_request_error', code?: string): Answer => ({
  status,
  body: { error: { type, message, ...(code ? { code } : {}) } },
});

export async function startStripeMock(): Promise<StripeMock> {
  const requests: RecordedRequest[] = [];
  const accounts = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const intents = new Map<string, Obj>();
  const charges = new Map<string, Obj>();
  const transfers: Obj[] = [];
  const refunds: Obj[] = [];
  const idempotency = new Map<string, { fingerprint: string; answer: Answer }>();
  type Failures = { count: number; status: number; made: boolean };
  let transferFailures: Failures = { count: 0, status: 400, made: false };
  let refundFailures: Failures = { count: 0, status: 400, made: false };
  /** The failure the next call meets, if any: a refusal (nothing made), or a server error after making it or not. */
  const nextFailure = (f: Failures): Failures | undefined => {
    if (f.count <= 0) return undefined;
    f.count -= 1;
    return { ...f, made: f.status >= 500 && f.made };
  };
  const serverError = (status: number) => error(status, 'An unknown error occurred', 'api_error');
  /** A Stripe list object of `data` (newest first), one page. */
  const list = (url: string, data: Obj[]): Answer => ({
    status: 200,
    body: { object: 'list', url, has_more: false, data: [...data].reverse() },
  });

  function expandedSession(session: Obj, expand: string[]): Obj {
    const intentId = session.payment_intent as string | null;
    if (!intentId || !expand.some((e) => e === 'payment_intent' || e.startsWith('payment_intent.'))) return session;
    const intent = { ...intents.get(intentId)! };
    if (expand.includes('payment_intent.latest_charge') && intent.latest_charge)
      intent.latest_charge = charges.get(intent.latest_charge as string);
    return { ...session, payment_intent: intent };
  }

  function route(method: string, path: string, body: Obj, query: Obj): Answer {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/accounts') {
      const id = randomId('acct');
      const account: Obj = {
        id,
        object: 'account',
        type: body.type ?? 'express',
        email: body.email ?? null,
        country: body.country ?? 'CA',
        metadata: body.metadata ?? {},
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
        capabilities: { transfers: 'inactive' },
        requirements: { currently_due: ['external_account', 'tos_acceptance.date'] },
        created: seconds(),
      };
      accounts.set(id, account);
      return { status: 200, body: account };
    }
    if (method === 'POST' && path === '/v1/account_links') {
      if (!accounts.has(String(body.account)))
        return error(400, `No such account: '${String(body.account)}'`, 'invalid_request_error', 'resource_missing');
      return {
        status: 200,
        body: {
          object: 'account_link',
          url: `https://connect.stripe.mock/setup/e/${String(body.account)}/${randomId('link')}`,
          created: seconds(),
          expires_at: seconds() + 300,
        },
      };
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const account = accounts.get(m[1]!);
      return account
        ? { status: 200, body: account }
        : error(404, `No such account: '${m[1]}'`, 'invalid_request_error', 'resource_missing');
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const items = (body.line_items ?? []) as {
        quantity: string;
        price_data: { currency: string; unit_amount: string };
      }[];
      const currencies = new Set(items.map((i) => i.price_data.currency));
      if (currencies.size !== 1) return error(400, 'All line items must share one currency');
      const amountTotal = items.reduce((sum, i) => sum + Number(i.price_data.unit_amount) * Number(i.quantity), 0);
      const id = randomId('cs_test');
      const session: Obj = {
        id,
        object: 'checkout.session',
        mode: body.mode,
        url: `https://checkout.stripe.mock/c/pay/${id}`,
        amount_total: amountTotal,
        currency: [...currencies][0],
        metadata: body.metadata ?? {},
        client_reference_id: body.client_reference_id ?? null,
        payment_intent: null,
        payment_status: 'unpaid',
        status: 'open',
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        expires_at: seconds() + 86_400,
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = sessions.get(m[1]!);
      if (!session)
        return error(404, `No such checkout.session: '${m[1]}'`, 'invalid_request_error', 'resource_missing');
      const expand = Array.isArray(query.expand) ? (query.expand as string[]) : [];
      return { status: 200, body: expandedSession(session, expand) };
    }
    if (method === 'POST' && path === '/v1/transfers') {
      const destination = accounts.get(String(body.destination));
      if (!destination)
        return error(
          400,
          `No such destination: '${String(body.destination)}'`,
          'invalid_request_error',
          'resource_missing',
        );
      if (!destination.payouts_enabled)
        return error(
          400,
          'Your destination account needs to have at least one of the following capabilities enabled: transfers',
        );
      if (body.source_transaction && !charges.has(String(body.source_transaction)))
        return error(400, `No such charge: '${String(body.source_transaction)}'`);
      const failure = nextFailure(transferFailures);
      if (failure && failure.status < 500)
        return error(
          failure.status,
          'Insufficient funds in Stripe account.',
          'invalid_request_error',
          'balance_insufficient',
        );
      if (failure && !failure.made) return serverError(failure.status);
      const transfer: Obj = {
        id: randomId('tr'),
        object: 'transfer',
        amount: Number(body.amount),
        currency: body.currency,
        destination: body.destination,
        transfer_group: body.transfer_group ?? null,
        source_transaction: body.source_transaction ?? null,
        metadata: body.metadata ?? {},
        created: seconds(),
      };
      transfers.push(transfer);
      return failure ? serverError(failure.status) : { status: 200, body: transfer };
    }
    if (method === 'GET' && path === '/v1/transfers') {
      const group = query.transfer_group === undefined ? undefined : String(query.transfer_group);
      return list(
        path,
        transfers.filter((t) => group === undefined || t.transfer_group === group),
      );
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const charge = query.charge === undefined ? undefined : String(query.charge);
      const intent = query.payment_intent === undefined ? undefined : String(query.payment_intent);
      return list(
        path,
        refunds.filter(
          (r) => (charge === undefined || r.charge === charge) && (intent === undefined || r.payment_intent === intent),
        ),
      );
    }
    if (method === 'POST' && path === '/v1/refunds') {
      // As Stripe: a charge, or a payment intent (its latest charge); at most what is left of it.
      const intent = body.payment_intent ? intents.get(String(body.payment_intent)) : undefined;
      const chargeId = body.charge ? String(body.charge) : (intent?.latest_charge as string | undefined);
      const charge = chargeId ? charges.get(chargeId) : undefined;
      if (!charge)
        return error(
          400,
          `No such charge: '${String(body.charge ?? body.payment_intent)}'`,
          'invalid_request_error',
          'resource_missing',
        );
      const amount = body.amount === undefined ? Number(charge.amount) : Number(body.amount);
      const refunded = Number(charge.amount_refunded ?? 0);
      if (!(amount > 0) || refunded + amount > Number(charge.amount))
        return error(
          400,
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${Number(charge.amount) - refunded})`,
          'invalid_request_error',
          'amount_too_large',
        );
      const failure = nextFailure(refundFailures);
      if (failure && failure.status < 500)
        return error(failure.status, 'The refund could not be processed.', 'invalid_request_error', 'charge_disputed');
      if (failure && !failure.made) return serverError(failure.status);
      charge.amount_refunded = refunded + amount;
      const refund: Obj = {
        id: randomId('re'),
        object: 'refund',
        amount,
        charge: chargeId,
        payment_intent: charge.payment_intent ?? null,
        currency: charge.currency,
        reason: body.reason ?? null,
        metadata: body.metadata ?? {},
        status: 'succeeded',
        created: seconds(),
      };
      refunds.push(refund);
      return failure ? serverError(failure.status) : { status: 200, body: refund };
    }
    return error(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      const body = decodeForm(Buffer.concat(chunks).toString('utf8'));
      const query = decodeForm(url.search.slice(1));
      const key = req.headers['idempotency-key'];
      const idempotencyKey = typeof key === 'string' ? key : undefined;
      requests.push({ method, path: url.pathname, body, query, idempotencyKey });
      const send = (answer: Answer, replayed = false) => {
        res.writeHead(answer.status, {
          'content-type': 'application/json',
          'request-id': randomId('req'),
          ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
          // As Stripe: a replayed server error is not worth the SDK's own retries.
          ...(replayed && answer.status >= 500 ? { 'stripe-should-retry': 'false' } : {}),
        });
        res.end(JSON.stringify(answer.body));
      };
      if (!/^Bearer sk_/.test(req.headers.authorization ?? ''))
        return send(error(401, 'Invalid API Key provided', 'invalid_request_error'));
      if (method === 'POST' && idempotencyKey) {
        const fingerprint = `${url.pathname} ${JSON.stringify(body)}`;
        const seen = idempotency.get(idempotencyKey);
        if (seen) {
          if (seen.fingerprint !== fingerprint) {
            return send(
              error(
                400,
                `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
                'idempotency_error',
              ),
            );
          }
          return send(seen.answer, true);
        }
        const answer = route(method, url.pathname, body, query);
        idempotency.set(idempotencyKey, { fingerprint, answer });
        return send(answer);
      }
      send(route(method, url.pathname, body, query));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: (path, method = 'POST') => requests.filter((r) => r.path === path && r.method === method),
    accounts,
    sessions,
    transfers,
    refunds,
    markPaid(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const chargeId = randomId('ch');
      const paymentIntentId = randomId('pi');
      charges.set(chargeId, {
        id: chargeId,
        object: 'charge',
        amount: session.amount_total,
        currency: session.currency,
        paid: true,
        payment_intent: paymentIntentId,
      });
      intents.set(paymentIntentId, {
        id: paymentIntentId,
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
        status: 'succeeded',
        latest_charge: chargeId,
      });
      Object.assign(session, { payment_status: 'paid', status: 'complete', payment_intent: paymentIntentId });
      return { paymentIntentId, chargeId };
    },
    enableAccount(accountId) {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`no account ${accountId}`);
      Object.assign(account, {
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        capabilities: { transfers: 'active' },
        requirements: { currently_due: [] },
      });
    },
    failTransfers(count, status = 400, options = {}) {
      transferFailures = { count, status, made: options.made === true };
    },
    failRefunds(count, status = 400, options = {}) {
      refundFailures = { count, status, made: options.made === true };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A webhook request body and its Stripe-Signature header, signed like Stripe signs them. `account`
 * marks an event that happened on a connected account, as Stripe sends them to a Connect endpoint.
 */
export function signedEvent(
  secret: string,
  type: string,
  object: Obj,
  options: { id?: string; timestamp?: number; account?: string } = {},
): { id: string; body: string; signature: string } {
  const id = options.id ?? randomId('evt');
  const event = {
    id,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: seconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
  };
  const body = JSON.stringify(options.account ? { ...event, account: options.account } : event);
  return { id, body, signature: stripeSignature(body, secret, options.timestamp) };
}

/** A Stripe-Signature header for `body` under `secret` (at `timestamp`, in seconds; now by default), as Stripe computes it. */
export function stripeSignature(body: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    ...(timestamp !== undefined ? { timestamp } : {}),
  });
}
