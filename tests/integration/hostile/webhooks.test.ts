import { afterAll, describe, expect, it } from 'vitest';
import { hostileString, randomText } from '../../support/hostile';
import { startTestServer, type TestServer } from '../../support/in-process-server';
import { signedEvent, startStripeMock, stripeSignature, type StripeMock } from '../../support/stripe-mock';
import {
  CONNECT_WEBHOOK_SECRET,
  judge,
  N,
  root,
  run,
  send,
  TIMEOUT,
  WEBHOOK_SECRET,
} from '../../support/hostile-suite';

let stripeServer: TestServer;
let stripe: StripeMock;
afterAll(async () => {
  await stripeServer?.cleanup();
  await stripe?.close();
});

describe(`POST /api/stripe/webhook and /api/stripe/connect-webhook (${N} unsigned, forged and stale events)`, () => {
  it(
    'refuses every one with 400 (413 when too large) and a JSON { error }, and records nothing',
    async () => {
      stripe = await startStripeMock();
      stripeServer = await startTestServer({
        STRIPE_SECRET_KEY: 'sk_test_hostile',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
        LOG_LEVEL: 'silent',
        SNAPSHOT_INTERVAL_MS: '3600000',
      });
      const r = root.fork('webhook');
      const violations = await run(stripeServer, 'POST /api/stripe/webhook', N, async () => {
        // Each endpoint with its own secret (decision 007); the defects are the same for both.
        const [path, secret] = r.pick([
          ['/api/stripe/webhook', WEBHOOK_SECRET],
          ['/api/stripe/connect-webhook', CONNECT_WEBHOOK_SECRET],
        ] as const);
        const event = signedEvent(
          secret,
          r.pick(['checkout.session.completed', 'account.updated', 'charge.refunded']),
          { id: `cs_${randomText(r, 8)}`, metadata: { applicationId: 'x' } },
          { account: 'acct_x' },
        );
        const headers: Record<string, string> = {
          'content-type': r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']),
        };
        if (r.chance(0.3)) headers.origin = 'https://evil.example';
        let body: string = event.body;
        let defect: string;
        let status = 400;
        switch (r.int(0, 6)) {
          case 0:
            defect = 'no signature';
            break;
          case 1:
            defect = 'a made-up signature';
            headers['stripe-signature'] =
              `t=${Math.floor(Date.now() / 1000)},v1=${Buffer.from(Array.from({ length: 32 }, () => r.int(0, 255))).toString('hex')}`;
            break;
          case 2:
            defect = 'signed with another secret';
            headers['stripe-signature'] = stripeSignature(event.body, 'whsec_attacker');
            break;
          case 3:
            defect = 'a stale signature (over 300 s)';
            headers['stripe-signature'] = stripeSignature(
              event.body,
              secret,
              Math.floor(Date.now() / 1000) - r.int(301, 100_000),
            );
            break;
          case 4:
            defect = 'a signature of another body';
            headers['stripe-signature'] = event.signature;
            body = event.body.replace('"livemode":false', '"livemode":true');
            break;
          case 5:
            defect = 'a malformed signature header';
            headers['stripe-signature'] = r.pick([
              '',
              't=abc',
              'v1=',
              't=1,v1=zz',
              hostileString(r)
                .replace(/[^\x20-\x7e]/g, '')
                .slice(0, 500) || 'x',
              'x'.repeat(r.int(1, 4000)),
            ]);
            body = r.chance(0.5) ? body : hostileString(r);
            break;
          default:
            defect = 'too large';
            headers['stripe-signature'] = event.signature;
            body = JSON.stringify({ padding: 'p'.repeat(512 * 1024 + r.int(1, 100_000)) });
            status = 413;
        }
        const a = await send(stripeServer, {
          defect,
          method: 'POST',
          path,
          headers,
          body,
          expect: { kind: 'refused', status },
        });
        return {
          defect,
          problem: judge({ defect, method: 'POST', path: '', headers, expect: { kind: 'refused', status } }, a),
        };
      });
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
    },
    TIMEOUT,
  );
});
