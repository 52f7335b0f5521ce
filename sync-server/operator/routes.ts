import { Router } from 'express';
import { z } from 'zod';
import { SETTLEMENT_KINDS } from '../../shared/schemas/application';
import { MAX_MONEY_MINOR } from '../../shared/validation/decimal';
import { getAuth } from '../auth/middleware';
import { actorOf, isOperator } from '../auth/operators';
import { notFound } from '../http/errors';
import { parseBody } from '../http/parse';
import { lockKey, type Payments } from '../payments/payments';
import { claimAndSettle, visibleApplication } from '../payments/work-routes';
import { operatorQueue } from './disputes';

const resolveBody = z.strictObject({
  applicationId: z.string().min(1).max(200),
  outcome: z.enum(SETTLEMENT_KINDS),
  /** For a split: the freelancer's part of the final budget, in minor units (before the platform's 10%). */
  freelancerAmount: z.number().int().min(0).max(MAX_MONEY_MINOR).optional(),
});

/**
 * The operator area (decision 031), for operators (auth/operators.ts): the open disputes and
 * their resolution. To everyone else, signed in or not, nothing here exists: every path answers
 * 404 like any unknown path, before anything is read or parsed.
 */
export function operatorRoutes(p: Payments): Router {
  const router = Router();
  const { ctx } = p;

  router.use('/operator', (_req, res, next) => {
    const auth = getAuth(res);
    if (!auth || !isOperator(ctx, auth.user)) throw notFound();
    next();
  });

  router.get('/operator/disputes', async (_req, res) => {
    res.json(await operatorQueue(ctx));
  });

  router.post('/operator/disputes/resolve', async (req, res) => {
    const { user } = getAuth(res)!;
    const body = parseBody(resolveBody, req.body);
    const answer = await p.lock.run(lockKey.application(body.applicationId), async () => {
      const app = visibleApplication(p, body.applicationId, user.id, true);
      // The operator's own decision already claimed (a retry after no answer) is continued.
      const continuing = app.status === 'SETTLING' && app.settlement?.by === 'operator';
      return claimAndSettle(
        p,
        app,
        actorOf(ctx, user),
        {
          type: 'RESOLVE',
          outcome: body.outcome,
          ...(body.freelancerAmount !== undefined ? { freelancerBase: body.freelancerAmount } : {}),
        },
        continuing,
      );
    });
    res.json(answer);
  });

  return router;
}
