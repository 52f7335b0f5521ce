/**
 * Exact decimal text to integer minor units (1/100 of the major unit; every supported currency,
 * NGN included, has two decimals). Works on the digits as text, so 1.005 rounds to 101, which
 * floating point (1.005 * 100 = 100.49999…) would get wrong.
 */

/** The largest amount accepted anywhere: one billion major units (matches minorUnitsSchema). */
export const MAX_MONEY_MINOR = 1_000_000_000_00;

const PLAIN_DECIMAL = /^(\d*)(?:\.(\d*))?$/;

/**
 * A plain non-negative decimal ("12", "12.5", ".5", "12.") in minor units, rounded to two
 * decimals half away from zero at the third decimal. `maxDecimals` refuses longer fractions
 * instead of rounding them. Undefined for anything else (signs, exponents, separators, spaces)
 * and for amounts above MAX_MONEY_MINOR.
 */
export function decimalToMinor(text: string, maxDecimals = Infinity): number | undefined {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return undefined;
  const whole = (match[1] ?? '').replace(/^0+/, '');
  const fraction = match[2] ?? '';
  if (!match[1] && !fraction) return undefined; // "", "." : no digit at all
  if (fraction.length > maxDecimals) return undefined;
  if (whole.length > 12) return undefined; // far above the maximum; keeps Number() exact
  const cents = Number((fraction + '00').slice(0, 2));
  const roundUp = (fraction[2] ?? '0') >= '5' ? 1 : 0;
  const minor = Number(whole || '0') * 100 + cents + roundUp;
  return minor <= MAX_MONEY_MINOR ? minor : undefined;
}

/** True when the text is a plain decimal whose only fault is being above MAX_MONEY_MINOR. */
export function isTooLargeDecimal(text: string): boolean {
  return PLAIN_DECIMAL.test(text) && /\d/.test(text) && decimalToMinor(text) === undefined;
}
