import { describe, expect, it } from 'vitest';
import type { Application } from '../../../shared/schemas/application';
import { startSettlement } from '../../../shared/work-machine';
import { settlementFailedText } from './work-texts';

/** Decision 031, revised: a refused settlement says exactly what moved. */

const work: Application = {
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
  status: 'DISPUTED',
  appliedAt: 1,
  finalBudget: 45000,
  startedAt: 2,
  completedAt: null,
  paymentConfirmedAt: 2,
  updatedAt: 3,
};

function failed(kind: 'refund' | 'release' | 'split', refundedAt: number | null): Application {
  const claimed = startSettlement(work, kind, 'operator', kind === 'split' ? 20000 : kind === 'release' ? 45000 : 0, 9);
  return {
    ...work,
    status: 'SETTLEMENT_FAILED',
    settlement: { ...claimed.settlement!, failure: 'declined', refundedAt },
  };
}

describe('a refused settlement, in words', () => {
  it('a split whose refund went out and whose payout was refused names the refund and the payout', () => {
    const a = failed('split', 10);
    expect(settlementFailedText(a, 'buyer')).toBe(
      'You were refunded C$257.50. The payment provider refused the payout of C$180.00 to Sam Seller; it can be tried again.',
    );
    expect(settlementFailedText(a, 'seller')).toBe(
      'Bea Buyer was refunded C$257.50. The payment provider refused your payout of C$180.00; it can be tried again.',
    );
  });

  it('when nothing moved it says so', () => {
    expect(settlementFailedText(failed('split', null), 'buyer')).toBe(
      'The payment provider refused the split. Nothing was marked paid; it can be tried again.',
    );
    expect(settlementFailedText(failed('release', null), 'seller')).toBe(
      'The payment provider refused the payout. Nothing was marked paid; it can be tried again.',
    );
    expect(settlementFailedText(failed('refund', null), 'buyer')).toBe(
      'The payment provider refused the refund. Nothing was marked paid; it can be tried again.',
    );
  });
});
