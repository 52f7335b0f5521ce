import type { Application } from '../../../shared/schemas/application';
import { isPaid } from '../../../shared/work-machine';

/**
 * Which moves each side is offered on accepted work (docs/product.md §2.13, the machine's §4.4):
 * the buttons the work's card shows. The server judges every move again.
 */

const disputable = (a: Application) =>
  isPaid(a) && (a.status === 'IN_PROGRESS' || a.status === 'DELIVERED' || a.status === 'CANCELLATION_REQUESTED');
const unpaidWork = (a: Application) =>
  (a.finalBudget ?? 0) === 0 && (a.status === 'IN_PROGRESS' || a.status === 'DELIVERED');
const cancelUnpaid = (a: Application) => a.status === 'PENDING_PAYMENT' || unpaidWork(a);

export type BuyerMoves = {
  retry: boolean;
  approveOrChanges: boolean;
  askToCancel: boolean;
  cancelUnpaid: boolean;
  dispute: boolean;
};

export function buyerMoves(a: Application): BuyerMoves {
  return {
    retry: a.status === 'SETTLEMENT_FAILED',
    approveOrChanges: a.status === 'DELIVERED',
    // Paid work in progress, also after the freelancer refused an earlier request: a new one may follow.
    askToCancel: a.status === 'IN_PROGRESS' && isPaid(a),
    cancelUnpaid: cancelUnpaid(a),
    dispute: disputable(a),
  };
}

export type SellerMoves = {
  retry: boolean;
  submit: boolean;
  answerCancellation: boolean;
  /** "Cancel and refund": paid work before delivery, a dispute on work never submitted included. */
  cancelPaid: boolean;
  cancelUnpaid: boolean;
  withdraw: boolean;
  dispute: boolean;
};

export function sellerMoves(a: Application): SellerMoves {
  const neverSubmitted = (a.submissions ?? []).length === 0;
  return {
    retry: a.status === 'SETTLEMENT_FAILED',
    submit: a.status === 'IN_PROGRESS' || a.status === 'DELIVERED',
    answerCancellation: a.status === 'CANCELLATION_REQUESTED',
    cancelPaid: isPaid(a) && (a.status === 'IN_PROGRESS' || (a.status === 'DISPUTED' && neverSubmitted)),
    cancelUnpaid: cancelUnpaid(a),
    withdraw: a.status === 'PENDING' || a.status === 'CLOSED',
    dispute: disputable(a),
  };
}
