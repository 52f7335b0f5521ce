import { describe, expect, it } from 'vitest';
import { decimalToMinor, isTooLargeDecimal, MAX_MONEY_MINOR } from './decimal';

describe('decimalToMinor: exact decimal text to minor units', () => {
  it.each<[string, number | undefined, number | undefined]>([
    ['12', undefined, 12_00],
    ['12.345', undefined, 12_35],
    ['12.344', undefined, 12_34],
    ['12.345', 2, undefined],
    ['12.34', 2, 12_34],
    ['0000000000000012', undefined, 12_00],
    ['', undefined, undefined],
    ['.', undefined, undefined],
    ['1 2', undefined, undefined],
    ['1000000000', undefined, MAX_MONEY_MINOR],
    ['1000000000.004', undefined, MAX_MONEY_MINOR],
    ['1000000000.005', undefined, undefined],
  ])('decimalToMinor(%j, maxDecimals %s) → %s', (text, maxDecimals, minor) => {
    expect(decimalToMinor(text, maxDecimals)).toBe(minor);
  });

  it.each([
    ['1000000000.01', true],
    ['99999999999999999999', true],
    ['1000000000', false],
    ['abc', false],
    ['', false],
  ])('isTooLargeDecimal(%j) → %s', (text, tooLarge) => {
    expect(isTooLargeDecimal(text)).toBe(tooLarge);
  });
});
