import { describe, expect, it } from 'vitest';
import { COUNTRIES, CURRENCY_CODES } from './constants';
import {
  buyerCheckout,
  currencySymbol,
  formatMinorPlain,
  formatMoney,
  payoutSplit,
  roundMinor,
  settlementAmounts,
  splitFromTotal,
} from './money';

describe('docs/product.md §9 buyer service fee: 3% on top of the base price', () => {
  it.each([
    [1, 0, 1],
    [17, 1, 18], // 0.51 rounds half away from zero
    [50, 2, 52], // 1.5 → 2
    [100, 3, 103],
    [45000, 1350, 46350],
    [99999, 3000, 102999],
    [1_000_000_000_00, 3_000_000_000, 1_030_000_000_00],
  ])('base %i → fee %i, total %i', (base, fee, total) => {
    expect(buyerCheckout(base)).toEqual({ base, fee, total });
  });
});

describe('docs/product.md §9: Base = amount / 1.03, Fee = 0.03 × amount / 1.03', () => {
  it.each([
    [103, 100, 3],
    [46350, 45000, 1350],
    [1, 1, 0],
    [2, 2, 0],
    [0, 0, 0],
  ])('amount %i → base %i + fee %i', (amount, base, fee) => {
    expect(splitFromTotal(amount)).toEqual({ base, fee });
  });
  it('base + fee always equals the amount, and checkout then split gives back the base (0.01 to 100,000.00)', () => {
    for (let base = 0; base < 10_000_000; base += 997) {
      const { total } = buyerCheckout(base);
      const split = splitFromTotal(total);
      expect(split.base + split.fee).toBe(total);
      expect(Math.abs(split.base - base)).toBeLessThanOrEqual(1);
    }
  });
});

describe('docs/product.md §9 platform fee: 10% retained, the freelancer receives 90%', () => {
  it.each([
    [100, 90, 10],
    [1, 1, 0],
    [5, 4, 1],
    [45000, 40500, 4500],
    [99999, 89999, 10000],
  ])('base %i → freelancer %i, platform %i', (base, freelancer, platformFee) => {
    expect(payoutSplit(base)).toEqual({ freelancer, platformFee });
  });
  it('the two parts always add up to the base', () => {
    for (let base = 0; base < 1_000_000; base += 7) {
      const s = payoutSplit(base);
      expect(s.freelancer + s.platformFee).toBe(base);
    }
  });
});

describe('rounding and display', () => {
  it('rounds half away from zero, including floating-point halves', () => {
    expect(roundMinor(0.5)).toBe(1);
    expect(roundMinor(1.005 * 100)).toBe(101);
    expect(roundMinor(-0.5)).toBe(-1);
    expect(() => roundMinor(Number.NaN)).toThrow();
  });
  it.each([
    [0, '0.00'],
    [1, '0.01'],
    [1234, '12.34'],
    [100000000000, '1000000000.00'],
  ])('%i minor units show as %s', (minor, text) => {
    expect(formatMinorPlain(minor)).toBe(text);
  });
  it.each([
    ['USD', '$1,234.50', '$0.00', '$1,000,000,000.00'],
    ['GBP', '£1,234.50', '£0.00', '£1,000,000,000.00'],
    ['CAD', 'C$1,234.50', 'C$0.00', 'C$1,000,000,000.00'],
    ['EUR', '€1,234.50', '€0.00', '€1,000,000,000.00'],
    ['NGN', '₦1,234.50', '₦0.00', '₦1,000,000,000.00'],
  ])('formats %s with its own symbol, commas and two decimals', (currency, amount, zero, max) => {
    expect(formatMoney(123450, currency)).toBe(amount);
    expect(formatMoney(0, currency)).toBe(zero);
    expect(formatMoney(100_000_000_000, currency)).toBe(max);
  });
  it.each(CURRENCY_CODES)('%s: the symbol comes from the country table', (currency) => {
    expect(currencySymbol(currency)).toBe(COUNTRIES.find((c) => c.currency === currency)!.symbol);
  });
  it.each([
    [1, 'C$0.01'],
    [10, 'C$0.10'],
    [99_999, 'C$999.99'],
    [100_000, 'C$1,000.00'],
    [-300, '-C$3.00'],
  ])('%i minor units read %s', (minor, text) => expect(formatMoney(minor, 'CAD')).toBe(text));
  it('an unknown code is shown as itself; a non-integer amount is refused', () => {
    expect(formatMoney(500, 'XYZ')).toBe('XYZ 5.00');
    expect(() => formatMoney(1.5, 'CAD')).toThrow(RangeError);
  });
});

describe('payments (issue 7): every supported currency, fee rounding edges, the 90/10 split in minor units', () => {
  it.each(CURRENCY_CODES)(
    '%s has two decimals, so minor units are hundredths (what Stripe expects for it too)',
    (currency) => {
      expect(
        new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits,
      ).toBe(2);
    },
  );

  it.each([
    // base, buyer fee, total, freelancer, platform fee: the amounts the payments tests assert on the wire
    [45000, 1350, 46350, 40500, 4500],
    [12345, 370, 12715, 11110, 1235], // fee 370.35 → 370; platform 1234.5 → 1235 (half away from zero)
    [1_000_000, 30_000, 1_030_000, 900_000, 100_000],
    [99999, 3000, 102999, 89999, 10000], // fee 2999.97 → 3000
    [16, 0, 16, 14, 2], // fee 0.48 → 0: no fee line at checkout
    [17, 1, 18, 15, 2], // fee 0.51 → 1
    [15, 0, 15, 13, 2], // platform 1.5 → 2
    [1, 0, 1, 1, 0],
    [0, 0, 0, 0, 0],
  ])('base %i → fee %i, total %i; payout %i + platform %i', (base, fee, total, freelancer, platformFee) => {
    expect(buyerCheckout(base)).toEqual({ base, fee, total });
    expect(payoutSplit(base)).toEqual({ freelancer, platformFee });
    expect(formatMinorPlain(total)).toBe((total / 100).toFixed(2));
  });

  it('the buyer fee is never negative and the total is never below the base', () => {
    for (let base = 0; base < 100_000; base += 13) {
      const { fee, total } = buyerCheckout(base);
      expect(fee).toBeGreaterThanOrEqual(0);
      expect(total).toBe(base + fee);
      expect(Math.abs(fee - base * 0.03)).toBeLessThanOrEqual(0.5);
    }
  });
});

describe('[issue 15] settlementAmounts: who gets what of a paid application (decision 031)', () => {
  const paid = { base: 45000, fee: 1350 };

  it('a full refund returns everything, the service fee included; the platform keeps nothing', () => {
    expect(settlementAmounts(paid, 0)).toEqual({
      toFreelancer: 0,
      platformFee: 0,
      refund: 46350,
      refundBase: 45000,
      refundFee: 1350,
      platformKept: 0,
    });
  });

  it('a full release is the existing payout: 90% to the freelancer, the platform keeps 10% and the buyer’s fee', () => {
    expect(settlementAmounts(paid, 45000)).toEqual({
      toFreelancer: 40500,
      platformFee: 4500,
      refund: 0,
      refundBase: 0,
      refundFee: 0,
      platformKept: 5850,
    });
  });

  it('a split: the buyer’s fee refunded in proportion to the base refunded, rounded half away from zero', () => {
    // 250.00 of 450.00 refunded: 13.50 × 250/450 = 7.50.
    expect(settlementAmounts(paid, 20000)).toMatchObject({
      toFreelancer: 18000,
      platformFee: 2000,
      refund: 25750,
      refundFee: 750,
    });
    // 1/3 of the fee of 100 (3) is 1 (0.999… rounds to 1).
    expect(settlementAmounts({ base: 100, fee: 3 }, 67)).toMatchObject({ refundBase: 33, refundFee: 1, refund: 34 });
    // 0.5 of a minor unit rounds up: fee 1 on base 2, half refunded.
    expect(settlementAmounts({ base: 2, fee: 1 }, 1)).toMatchObject({ refundFee: 1 });
  });

  it('always balances: toFreelancer + refund + platformKept = what was charged', () => {
    for (const base of [1, 17, 33, 100, 999, 45000, 99999, 123457, 1_000_000_000_00]) {
      const fee = buyerCheckout(base).fee;
      for (const part of [0, 1, Math.floor(base / 3), Math.floor(base / 2), base - 1, base].filter(
        (x) => x >= 0 && x <= base,
      )) {
        const s = settlementAmounts({ base, fee }, part);
        expect(s.toFreelancer + s.refund + s.platformKept, `${base}/${part}`).toBe(base + fee);
        expect(s.refundFee).toBeGreaterThanOrEqual(0);
        expect(s.refundFee).toBeLessThanOrEqual(fee);
      }
    }
  });

  it.each([[-1], [45001], [1.5], [Number.NaN]])('refuses a freelancer part of %s', (part) => {
    expect(() => settlementAmounts(paid, part)).toThrow(RangeError);
  });
});
