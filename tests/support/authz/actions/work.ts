import { freshGig, idOf, stored, type AppState } from '../world';
import { Action, completeBody, http, moveApplication, pushEdit } from '../cells';

const submission = { note: 'Here it is', submittedAt: 1 };

/** A fresh application in `from`, then the HTTP call `call` makes; an allow when it reaches `status`. */
function call(
  from: AppState,
  path: string,
  body: (w: Parameters<Action['run']>[0], f: { gigId: string; appId: string }) => Record<string, unknown>,
  status: string,
): Action['run'] {
  return async (w, r) => {
    const f = await freshGig(w, from);
    const res = await w.clients[r].post(path, body(w, f));
    return http(res, () => stored(w, 'applications', f.appId)?.status === status);
  };
}

/**
 * Issue 15 (decision 031): delivery, cancellation, disputes and the operator area. Replicated
 * moves are pushes judged by the machine; money moves are HTTP calls; the operator area answers
 * 404 to everyone but the accounts OPERATOR_EMAILS lists.
 */
export const WORK_ACTIONS: Action[] = [
  // --- Pushes: delivery, cancellation, disputes ---------------------------------------------
  {
    name: 'push applications: submit work (IN_PROGRESS → DELIVERED)',
    phase: 2,
    run: moveApplication('IN_PROGRESS', { status: 'DELIVERED', submissions: [submission] }, 'DELIVERED'),
  },
  {
    name: 'push applications: request changes (DELIVERED → IN_PROGRESS)',
    phase: 2,
    run: moveApplication(
      'DELIVERED',
      {
        status: 'IN_PROGRESS',
        submissions: [{ ...submission, note: 'Done', changesRequested: { note: 'Redo', at: 1 } }],
      },
      'IN_PROGRESS',
    ),
  },
  {
    name: 'push applications: withdraw an application (PENDING → WITHDRAWN)',
    phase: 2,
    run: moveApplication('PENDING', { status: 'WITHDRAWN' }, 'WITHDRAWN'),
  },
  {
    name: 'push applications: withdraw an offer (PENDING_ACCEPTANCE → PENDING)',
    phase: 2,
    run: moveApplication('PENDING_ACCEPTANCE', { status: 'PENDING', finalBudget: null }, 'PENDING'),
  },
  {
    name: 'push applications: cancel before payment (PENDING_PAYMENT → CANCELLED)',
    phase: 2,
    run: moveApplication('PENDING_PAYMENT', { status: 'CANCELLED' }, 'CANCELLED'),
  },
  {
    name: 'push applications: cancel paid work without a refund (IN_PROGRESS → CANCELLED)',
    phase: 2,
    run: moveApplication('IN_PROGRESS', { status: 'CANCELLED' }, 'CANCELLED'),
  },
  {
    name: 'push applications: ask to cancel paid work (IN_PROGRESS → CANCELLATION_REQUESTED)',
    phase: 2,
    run: moveApplication(
      'IN_PROGRESS',
      { status: 'CANCELLATION_REQUESTED', cancellation: { requestedAt: 1 } },
      'CANCELLATION_REQUESTED',
    ),
  },
  {
    name: 'push applications: refuse a cancellation (CANCELLATION_REQUESTED → IN_PROGRESS)',
    phase: 2,
    run: moveApplication(
      'CANCELLATION_REQUESTED',
      { status: 'IN_PROGRESS', cancellation: { requestedAt: 1, refusedAt: 1 } },
      'IN_PROGRESS',
    ),
  },
  {
    name: 'push applications: open a dispute (DELIVERED → DISPUTED)',
    phase: 2,
    run: moveApplication(
      'DELIVERED',
      { status: 'DISPUTED', dispute: { by: 'buyer', reason: 'Not as agreed', openedAt: 1 } },
      'DISPUTED',
    ),
  },
  {
    name: 'push applications: resolve a dispute (DISPUTED → REFUNDED)',
    phase: 2,
    run: moveApplication('DISPUTED', { status: 'REFUNDED' }, 'REFUNDED'),
  },
  {
    name: 'push applications: approve delivered work (DELIVERED → COMPLETED)',
    phase: 2,
    run: moveApplication('DELIVERED', { status: 'COMPLETED', completedAt: 1 }, 'COMPLETED'),
  },
  {
    name: 'push applications: write a settlement (IN_PROGRESS → SETTLING)',
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'IN_PROGRESS');
      return pushEdit(
        w,
        r,
        'applications',
        f.appId,
        {
          status: 'SETTLING',
          settlement: {
            kind: 'refund',
            by: 'freelancer',
            from: 'IN_PROGRESS',
            freelancerBase: 0,
            toFreelancer: 0,
            refund: 46350,
            decidedAt: 1,
            settledAt: null,
            failure: null,
          },
        },
        (after) => after?.status === 'SETTLING',
      );
    },
  },

  // --- Money moves over HTTP ----------------------------------------------------------------
  {
    name: 'POST /api/gigs/complete-gig on delivered work ("Approve and pay", own userId)',
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'DELIVERED');
      const self = r === 'visitor' ? 'buyer' : r;
      const res = await w.clients[r].post('/api/gigs/complete-gig', completeBody(w, f, idOf(w, self)));
      return http(res, () => stored(w, 'applications', f.appId)?.status === 'COMPLETED');
    },
  },
  {
    name: 'POST /api/work/cancel (paid work in progress: a full refund)',
    phase: 2,
    run: call('IN_PROGRESS', '/api/work/cancel', (_w, f) => ({ applicationId: f.appId }), 'REFUNDED'),
  },
  {
    name: 'POST /api/work/retry (a refund the provider refused)',
    phase: 2,
    run: call('SETTLEMENT_FAILED', '/api/work/retry', (_w, f) => ({ applicationId: f.appId }), 'REFUNDED'),
  },

  // --- The operator area --------------------------------------------------------------------
  {
    name: 'GET /api/operator/disputes',
    run: async (w, r) => http(await w.clients[r].get('/api/operator/disputes'), (res) => res.status === 200),
  },
  {
    name: 'POST /api/operator/disputes/resolve (a refund in full)',
    phase: 2,
    run: call(
      'DISPUTED',
      '/api/operator/disputes/resolve',
      (_w, f) => ({ applicationId: f.appId, outcome: 'refund' }),
      'REFUNDED',
    ),
  },
  {
    name: 'POST /api/operator/disputes/resolve (a split)',
    phase: 2,
    run: call(
      'DISPUTED',
      '/api/operator/disputes/resolve',
      (_w, f) => ({ applicationId: f.appId, outcome: 'split', freelancerAmount: 20000 }),
      'SPLIT',
    ),
  },
];
