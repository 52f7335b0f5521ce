import { describe, expect, it } from 'vitest';
import { REPLICATED } from '../../../sync-server/replication/visibility';
import { attackerOf, N, runEndpoint, specs, suite, TIMEOUT, useHostileSuite } from '../../support/hostile-suite';

useHostileSuite();

describe(`hostile HTTP payloads (${N} per endpoint)`, () => {
  // The specs need the world: build them lazily, one test per endpoint.
  const names = [
    'POST /api/auth/signup',
    'POST /api/auth/login',
    'POST /api/auth/logout',
    'GET /api/auth/session',
    'GET /api/auth/me',
    'GET /api/push/key',
    'GET /api/push/subscription',
    'POST /api/push/subscribe',
    'POST /api/push/unsubscribe',
    'POST /api/waitlist',
    'GET /api/public-config',
    ...REPLICATED.map((c) => `GET /api/sync/${c}/pull`),
    ...REPLICATED.map((c) => `POST /api/sync/${c}/push`),
    'GET /api/sync/stream',
    'POST /api/stripe/create-connect-account',
    'GET /api/stripe/account-status',
    'GET /api/stripe/account-link/refresh',
    'POST /api/payments/checkout',
    'POST /api/payments/confirm',
    'POST /api/gigs/complete-gig',
    'POST /api/work/cancel',
    'POST /api/work/retry',
    'GET /api/operator/disputes',
    'POST /api/operator/disputes/resolve',
    'GET /api/profiles/:username',
    'POST /api/payments/simulated/onboarding/:linkId',
    'POST /api/payments/simulated/checkout/:sessionId/pay',
  ];
  it.each(names)(
    '%s refuses every one with a 4xx { error } and leaves the store unchanged',
    async (name) => {
      const spec = specs().find((s) => s.name === name)!;
      const violations = await runEndpoint(suite.server, spec, attackerOf());
      expect(violations.slice(0, 15), `${violations.length} violations`).toEqual([]);
    },
    TIMEOUT,
  );

  it('the attacker’s own valid requests still work afterwards (the payloads were refused, not the attacker)', async () => {
    expect((await suite.w.attacker.http.get('/api/auth/session')).status).toBe(200);
    const paid = await suite.w.attacker.http.post<{ next: string }>(
      `/api/payments/simulated/checkout/${suite.w.openSession}/pay`,
      {},
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  });
});
