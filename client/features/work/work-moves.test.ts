import { describe, expect, it } from 'vitest';
import type { Application } from '../../../shared/schemas/application';
import { buyerMoves, sellerMoves } from './work-moves';

/** The moves each side is offered on accepted work (docs/product.md §2.13). */

const paid: Application = {
  id: 'gig-00001.applicant-1',
  gigId: 'gig-00001',
  gigTitle: 'Poster design',
  gigCategory: 'Visual Art',
  creatorId: 'creator-1',
  creatorName: 'Bea Buyer',
  applicantId: 'applicant-1',
  applicantName: 'Sam Seller',
  applicantPortfolioLink: '',
  budget: 45000,
  currency: 'CAD',
  status: 'IN_PROGRESS',
  appliedAt: 1,
  finalBudget: 45000,
  startedAt: 2,
  completedAt: null,
  paymentConfirmedAt: 2,
  updatedAt: 3,
};

describe('the buyer’s "Ask to cancel"', () => {
  it('is offered on paid work in progress, also after the freelancer refused an earlier request', () => {
    expect(buyerMoves(paid).askToCancel).toBe(true);
    const refusedOnce = { ...paid, cancellation: { requestedAt: 4, refusedAt: 5 } };
    expect(buyerMoves(refusedOnce)).toMatchObject({ askToCancel: true, dispute: true });
  });

  it('is not offered while a request waits, on delivered, disputed or unpaid work', () => {
    for (const a of [
      { ...paid, status: 'CANCELLATION_REQUESTED' as const, cancellation: { requestedAt: 4 } },
      { ...paid, status: 'DELIVERED' as const },
      { ...paid, status: 'DISPUTED' as const },
      { ...paid, finalBudget: 0, paymentConfirmedAt: null },
    ])
      expect(buyerMoves(a).askToCancel, a.status).toBe(false);
  });
});

describe('the freelancer’s "Cancel and refund"', () => {
  it('is offered on paid work in progress, and on a dispute over work never submitted', () => {
    expect(sellerMoves(paid).cancelPaid).toBe(true);
    const dispute = { by: 'buyer' as const, reason: 'Nothing arrived', openedAt: 6 };
    expect(sellerMoves({ ...paid, status: 'DISPUTED', dispute }).cancelPaid).toBe(true);
    const submitted = [{ note: 'Draft', submittedAt: 5 }];
    expect(sellerMoves({ ...paid, status: 'DISPUTED', dispute, submissions: submitted }).cancelPaid).toBe(false);
    expect(sellerMoves({ ...paid, status: 'DELIVERED', submissions: submitted }).cancelPaid).toBe(false);
  });

  it('a cancellation request is answered with "Accept and refund" or "Refuse" instead', () => {
    const asked = { ...paid, status: 'CANCELLATION_REQUESTED' as const, cancellation: { requestedAt: 4 } };
    expect(sellerMoves(asked)).toMatchObject({ answerCancellation: true, cancelPaid: false });
  });
});
