import { COUNTRIES, FEES, type CurrencyCode } from './constants';

/**
 * Money is held in integer minor units (cents, kobo) past the input field; all five currencies
 * have two decimals. One rounding rule: half away from zero to the minor unit, applied once to
 * each derived amount, and the last part of every split is a difference, so parts always add up.
 */

export function roundMinor(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError('Amount must be a finite number');
  // Nudge by a relative epsilon so 0.5 produced by floating point (e.g. 1.005 * 100) rounds up.
  return Math.sign(x) * Math.round(Math.abs(x) * (1 + Number.EPSILON));
}

/** What the buyer pays: the base price plus the 3% buyer service fee on top (docs/product.md §9). */
export function buyerCheckout(baseMinor: number): { base: number; fee: number; total: number } {
  const fee = roundMinor(baseMinor * FEES.buyerServiceFeeRate);
  return { base: baseMinor, fee, total: baseMinor + fee };
}

/** docs/product.md §9 from a paid amount: base = amount / 1.03, fee = 0.03 × amount / 1.03; base + fee = amount. */
export function splitFromTotal(totalMinor: number): { base: number; fee: number } {
  const base = roundMinor(totalMinor / (1 + FEES.buyerServiceFeeRate));
  return { base, fee: totalMinor - base };
}

/** On completion the platform keeps 10% and the freelancer receives 90% of the base (docs/product.md §9). */
export function payoutSplit(baseMinor: number): { freelancer: number; platformFee: number } {
  const platformFee = roundMinor(baseMinor * FEES.platformFeeRate);
  return { freelancer: baseMinor - platformFee, platformFee };
}

export function toMajor(minor: number): number {
  return minor / 100;
}

/**
 * '12.34': two decimals and no symbol, for what is not a display (the success page's query, a
 * rate sent back to a form). Everything shown to a user goes through formatMoney.
 */
export function formatMinorPlain(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The symbol of a supported currency (C$, ₦, £, $, €); an unknown code is shown as itself and a space. */
export function currencySymbol(currency: CurrencyCode | string): string {
  return COUNTRIES.find((c) => c.currency === currency)?.symbol ?? `${currency} `;
}

/**
 * The one money format of the app, on every screen and on the server's pages: the currency's
 * symbol, thousands commas and two decimals ('C$1,234.50', '₦0.50', '-$3.00'). Written out rather
 * than left to Intl.NumberFormat, whose symbols differ between locales and ICU builds (CA$, NGN).
 */
export function formatMoney(minor: number, currency: CurrencyCode | string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError('Amount must be an integer number of minor units');
  const abs = Math.abs(minor);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${minor < 0 ? '-' : ''}${currencySymbol(currency)}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

export type SettlementAmounts = {
  /** Paid out to the freelancer: their part of the base less the platform fee on it. */
  toFreelancer: number;
  /** The platform's 10% of the freelancer's part. */
  platformFee: number;
  /** Back to the buyer: `refundBase + refundFee`. */
  refund: number;
  /** The part of the base refunded. */
  refundBase: number;
  /** The buyer's service fee refunded pro rata: `roundMinor(fee × refundBase / base)`. */
  refundFee: number;
  /** What the platform keeps in all: the platform fee and the service fee not refunded. */
  platformKept: number;
};

/**
 * Who gets what of a paid application when `freelancerBase` of its base goes to the freelancer
 * (docs/decisions/031-money-nobody-strands.md): 0 is a full refund, fee included; the whole base is
 * a full release (the existing 90% payout, the buyer's fee kept); anything between is an
 * operator's split, with the buyer's service fee refunded in proportion to the base refunded. One
 * rounding, half away from zero to the minor unit, on the fee's share; the platform keeps the
 * rest, so `toFreelancer + refund + platformKept` is always exactly what was charged.
 */
export function settlementAmounts(paid: { base: number; fee: number }, freelancerBase: number): SettlementAmounts {
  const { base, fee } = paid;
  if (!Number.isSafeInteger(freelancerBase) || freelancerBase < 0 || freelancerBase > base)
    throw new RangeError('The freelancer’s part must be a whole number of minor units from 0 to the final budget');
  const { freelancer: toFreelancer, platformFee } = payoutSplit(freelancerBase);
  const refundBase = base - freelancerBase;
  const refundFee = base > 0 ? roundMinor((fee * refundBase) / base) : fee;
  return {
    toFreelancer,
    platformFee,
    refund: refundBase + refundFee,
    refundBase,
    refundFee,
    platformKept: platformFee + (fee - refundFee),
  };
}
