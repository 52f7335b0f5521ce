import { describe, expect, it } from 'vitest';
import { parseMoneyInput, RATE_INVALID, RATE_TOO_LARGE, validateApplication, type ApplicationCheck } from './apply';

const ok: ApplicationCheck = {
  rate: '250',
  actor: { id: 'applicant-1' },
  profile: { complete: true },
  gig: { createdBy: 'creator-1' },
  alreadyApplied: false,
};

describe('docs/product.md §5 Apply and §8 Applying', () => {
  it('accepts a logged-in applicant with a profile, a rate, and a gig of someone else', () => {
    expect(validateApplication(ok)).toBeNull();
  });

  it.each<[string, Partial<ApplicationCheck>, string]>([
    [
      "§8 'Please log in or create an account to apply for gigs'",
      { actor: null },
      'Please log in or create an account to apply for gigs',
    ],
    [
      "§8 'Please wait while we verify your account...'",
      { verifying: true },
      'Please wait while we verify your account...',
    ],
    [
      "§8 'Unable to process application at this time' (offline before the own record arrived)",
      { unavailable: true, profile: null },
      'Unable to process application at this time',
    ],
    [
      "§8 'Unable to process application: Gig data is missing'",
      { gig: null },
      'Unable to process application: Gig data is missing',
    ],
    [
      "'The gig must have a creator': 'Unable to process application: Invalid gig data (missing creator)'",
      { gig: {} },
      'Unable to process application: Invalid gig data (missing creator)',
    ],
    [
      "'The gig must have a creator' (empty id)",
      { gig: { createdBy: '' } },
      'Unable to process application: Invalid gig data (missing creator)',
    ],
    [
      "'A user cannot apply to their own gig ('You cannot apply to your own gig')'",
      { gig: { createdBy: 'applicant-1' } },
      'You cannot apply to your own gig',
    ],
    [
      "'A user cannot apply twice to the same gig ('You have already applied to this gig')'",
      { alreadyApplied: true },
      'You have already applied to this gig',
    ],
    [
      "'The applicant's profile must exist ('Please complete your profile before applying')'",
      { profile: null },
      'Please complete your profile before applying',
    ],
    [
      "'The applicant's profile must exist' (incomplete)",
      { profile: { complete: false } },
      'Please complete your profile before applying',
    ],
    ["'A rate is required: 'Please enter your budget offer''", { rate: '' }, 'Please enter your budget offer'],
    ["'A rate is required' (whitespace only)", { rate: '   ' }, 'Please enter your budget offer'],
    ['[decision] a negative rate is invalid', { rate: '-5' }, RATE_INVALID],
    ['[decision] a non-number rate is invalid', { rate: 'abc' }, RATE_INVALID],
    ['[decision] a rate over 1,000,000,000 is refused', { rate: '1000000000.01' }, RATE_TOO_LARGE],
  ])('%s', (_rule, overrides, message) => {
    expect(validateApplication({ ...ok, ...overrides })).toBe(message);
  });

  it.each<[string, Partial<ApplicationCheck>, string]>([
    [
      'logged out beats everything',
      { actor: null, verifying: true, gig: null, rate: '', profile: null },
      'Please log in or create an account to apply for gigs',
    ],
    ['verifying beats a missing gig', { verifying: true, gig: null }, 'Please wait while we verify your account...'],
    [
      'verifying beats unavailable',
      { verifying: true, unavailable: true },
      'Please wait while we verify your account...',
    ],
    [
      'unavailable beats a missing gig and a missing profile',
      { unavailable: true, gig: null, profile: null },
      'Unable to process application at this time',
    ],
    [
      'a missing gig beats an empty rate',
      { gig: null, rate: '' },
      'Unable to process application: Gig data is missing',
    ],
    [
      'own gig beats already applied',
      { gig: { createdBy: 'applicant-1' }, alreadyApplied: true },
      'You cannot apply to your own gig',
    ],
    [
      'already applied beats a missing profile',
      { alreadyApplied: true, profile: null },
      'You have already applied to this gig',
    ],
    [
      'a missing profile beats an empty rate',
      { profile: null, rate: '' },
      'Please complete your profile before applying',
    ],
  ])('[decision] order: %s', (_case, overrides, message) => {
    expect(validateApplication({ ...ok, ...overrides })).toBe(message);
  });

  it('[decision] an offer of 0 is accepted', () => {
    expect(validateApplication({ ...ok, rate: '0' })).toBeNull();
  });

  it('the invalid-rate messages read clearly', () => {
    expect(RATE_INVALID).toBe('Please enter a valid budget offer');
    expect(RATE_TOO_LARGE).toBe('Budget offer cannot be more than 1,000,000,000');
  });
});

describe('parseMoneyInput: integer minor units, 2 decimals, half away from zero at the 3rd decimal', () => {
  it.each<[string, number]>([
    ['250', 250_00],
    ['0', 0],
    ['0.01', 1],
    ['99.5', 99_50],
    ['99.50', 99_50],
    ['.5', 50],
    ['12.', 12_00],
    [' 12 ', 12_00],
    ['007', 7_00],
    ['1.004', 1_00],
    ['1.005', 1_01], // floating point would give 100.49999… and round down
    ['1.0049999', 1_00],
    ['2.675', 2_68],
    ['0.995', 1_00],
    ['0.994', 99],
    ['1000000000', 1_000_000_000_00],
    ['999999999.999', 1_000_000_000_00],
  ])('%j → %i', (text, minor) => {
    expect(parseMoneyInput(text)).toBe(minor);
  });

  it.each([
    ['-1'],
    ['-0.01'],
    ['+5'],
    ['abc'],
    ['NaN'],
    ['Infinity'],
    [''],
    ['.'],
    ['1e3'],
    ['1,000'],
    ['$5'],
    ['5 5'],
    ['1000000000.01'],
    ['1000000000.005'],
    ['99999999999999999999'],
  ])('%j → null', (text) => {
    expect(parseMoneyInput(text)).toBeNull();
  });
});
