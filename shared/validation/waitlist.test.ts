import { describe, expect, it } from 'vitest';
import { firstError } from './types';
import { validateWaitlist, WAITLIST_EXTRA_MESSAGES as X, type WaitlistValues } from './waitlist';

const valid: WaitlistValues = { name: 'Ada', email: 'ada@example.com', city: 'Lagos', location: 'NG' };

describe("docs/product.md §5 Waitlist: 'Name, email, city and country are all required.'", () => {
  it('accepts a complete entry', () => {
    expect(validateWaitlist(valid)).toEqual({});
  });

  it.each<[string, Partial<WaitlistValues>, Record<string, string>]>([
    ["[decision text] name: 'Name is required'", { name: ' ' }, { name: 'Name is required' }],
    ["[decision text] email: 'Email is required'", { email: '' }, { email: 'Email is required' }],
    ["[decision text] city: 'City is required'", { city: '' }, { city: 'City is required' }],
    ["[decision text] country: 'Country is required'", { location: '' }, { location: 'Country is required' }],
    [
      "[decision] 'Any email format rule is not shown': the simple pattern applies",
      { email: 'ada-at-example' },
      { email: 'Email is invalid' },
    ],
    ['[decision] the country must be one of the five supported', { location: 'DE' }, { location: X.countryUnknown }],
    ['[decision] a city over 100 characters is refused', { city: 'c'.repeat(101) }, { city: X.cityTooLong }],
    [
      'surrounding spaces are fine',
      { name: ' Ada ', email: ' Ada@Example.com ', city: ' Lagos ', location: ' NG ' },
      {},
    ],
  ])('%s', (_rule, overrides, errors) => {
    expect(validateWaitlist({ ...valid, ...overrides })).toEqual(errors);
  });

  it('all four missing: every message, name first', () => {
    const errors = validateWaitlist({ name: '', email: '', city: '', location: '' });
    expect(Object.values(errors)).toEqual([
      'Name is required',
      'Email is required',
      'City is required',
      'Country is required',
    ]);
    expect(firstError(errors)).toBe('Name is required');
  });
});
