import { formatMoney } from '../../../shared/money';
import type { Application } from '../../../shared/schemas/application';

/**
 * What a settlement the provider refused says to `side` (SETTLEMENT_FAILED, docs/product.md §2.13):
 * exactly what moved. A split refunds the buyer first, so its payout may be refused after the
 * refund went out; otherwise nothing moved.
 */
export function settlementFailedText(a: Application, side: 'buyer' | 'seller'): string {
  const s = a.settlement;
  const money = (minor: number) => formatMoney(minor, a.currency);
  if (s?.refundedAt) {
    return side === 'buyer'
      ? `You were refunded ${money(s.refund)}. The payment provider refused the payout of ${money(s.toFreelancer)} to ${a.applicantName}; it can be tried again.`
      : `${a.creatorName} was refunded ${money(s.refund)}. The payment provider refused your payout of ${money(s.toFreelancer)}; it can be tried again.`;
  }
  const what = s?.kind === 'refund' ? 'refund' : s?.kind === 'split' ? 'split' : 'payout';
  return `The payment provider refused the ${what}. Nothing was marked paid; it can be tried again.`;
}
