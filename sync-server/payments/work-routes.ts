import { Router, type Response } from 'express';
import { z } from 'zod';
import { WORK_MACHINE_MESSAGES, type ApplicationEvent } from '../../shared/application-machine';
import { WORK_PAYMENT_MESSAGES as W } from '../../shared/payment-messages';
import type { Application } from '../../shared/schemas/application';
import { requireAuth } from '../auth/middleware';
import { actorOf, isOperator } from '../auth/operators';
import { conflict, forbidden, HttpError, notFound } from '../http/errors';
import { parseBody } from '../http/parse';
import type { Stored } from '../store/store';
import { PAYMENT_MESSAGES as M } from './messages';
import { lockKey, type Payments } from './payments';
import { decideMove, settleLocked, type SettleOutcome } from './settle';

const applicationBody = z.strictObject({ applicationId: z.string().min(1).max(200) });

/** What a money move of issue 15 answers: the application's status and settlement once it settled. */
export type WorkMoneyAnswer = { status: Application['status']; settlement: Application['settlement'] | null };

/** The application, if `userId` is one of its two parties (or an operator may see it): 404 for anyone else. */
export function visibleApplication(
  p: Payments,
  applicationId: string,
  userId: string,
  operator = false,
): Stored<'applications'> {
  const app = p.ctx.store.get('applications', applicationId);
  if (!app || app._deleted) throw notFound(M.applicationNotFound);
  if (!operator && app.applicantId !== userId && app.creatorId !== userId) throw notFound(M.applicationNotFound);
  return app;
}

/**
 * Claims the money with `event` (or continues a claim already made, `continuing`), settles it,
 * and answers: 200 once settled, 502 with what happened when the provider refused or did not answer.
 */
export async function claimAndSettle(
  p: Payments,
  app: Stored<'applications'>,
  actor: Parameters<typeof decideMove>[2],
  event: ApplicationEvent,
  continuing: boolean,
): Promise<WorkMoneyAnswer> {
  if (!continuing) {
    const claimed = await decideMove(p, app.id, actor, event);
    if (!claimed.ok) throw claimed.code === 'forbidden' ? forbidden(claimed.error) : conflict(claimed.error);
  }
  const settled = await settleLocked(p, app.id);
  return answerOf(settled);
}

function answerOf(settled: SettleOutcome): WorkMoneyAnswer {
  const a = settled.application;
  if (settled.outcome === 'settled') return { status: a.status, settlement: a.settlement ?? null };
  if (settled.outcome === 'pending') throw new HttpError(502, W.providerNoAnswer);
  if (a.settlement?.refundedAt) throw new HttpError(502, W.payoutRefusedAfterRefund);
  throw new HttpError(502, a.settlement?.kind === 'refund' ? W.refundRefused : W.paymentRefused);
}

function send(res: Response, answer: WorkMoneyAnswer) {
  res.json(answer);
}

/**
 * The parties' money moves of issue 15 (mounted on /api after the session): the freelancer
 * cancels paid work with a full refund (on their own, or accepting the buyer's request), and a
 * payment the provider refused is tried again. Replicated moves (submitting, requesting changes,
 * asking to cancel, refusing, disputing) go through the applications policy instead.
 */
export function workRoutes(p: Payments): Router {
  const router = Router();
  const { ctx } = p;

  router.post('/work/cancel', async (req, res) => {
    const { user } = requireAuth(res);
    const { applicationId } = parseBody(applicationBody, req.body);
    const answer = await p.lock.run(lockKey.application(applicationId), async () => {
      const app = visibleApplication(p, applicationId, user.id);
      if (app.applicantId !== user.id) throw forbidden(WORK_MACHINE_MESSAGES.onlyApplicantCancelsPaid);
      const continuing =
        app.status === 'SETTLING' && app.settlement?.kind === 'refund' && app.settlement.by === 'freelancer';
      return claimAndSettle(p, app, actorOf(ctx, user), { type: 'CANCEL_PAID' }, continuing);
    });
    send(res, answer);
  });

  router.post('/work/retry', async (req, res) => {
    const { user } = requireAuth(res);
    const { applicationId } = parseBody(applicationBody, req.body);
    const operator = isOperator(ctx, user);
    const answer = await p.lock.run(lockKey.application(applicationId), async () => {
      const app = visibleApplication(p, applicationId, user.id, operator);
      return claimAndSettle(p, app, actorOf(ctx, user), { type: 'RETRY_SETTLEMENT' }, app.status === 'SETTLING');
    });
    send(res, answer);
  });

  return router;
}
