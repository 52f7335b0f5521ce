import { describe, expect, it } from 'vitest';
import { BIO_TOO_LONG, changeNiche, validateProfile, validateProfileField, type ProfileValues } from './profile';
import { NAME_TOO_LONG } from './signup';
import { firstError } from './types';

const valid: ProfileValues = {
  name: 'Ada Lovelace',
  username: 'ada',
  location: 'GB',
  creativeNiche: 'writing',
  subcategory: 'Poetry',
  portfolioLink: 'https://ada.example.com',
  bio: 'I write.',
};

describe('docs/product.md §5 Profile page: "Name, username, location, niche and subcategory are required."', () => {
  it('accepts a complete profile', () => {
    expect(validateProfile(valid)).toEqual({});
  });

  it.each<[string, Partial<ProfileValues>, Partial<Record<keyof ProfileValues, string>>]>([
    ['name required', { name: ' ' }, { name: 'Name is required' }],
    ['username required', { username: '' }, { username: 'Username is required' }],
    [
      'username at least 3 characters: 2',
      { username: 'ab' },
      { username: 'Username must be at least 3 characters long' },
    ],
    ['location required', { location: '' }, { location: 'Please select your location' }],
    [
      'niche required (and with it the subcategory)',
      { creativeNiche: '' },
      { creativeNiche: 'Please select your creative niche', subcategory: 'Please select your specific focus area' },
    ],
    ['subcategory required', { subcategory: '' }, { subcategory: 'Please select your specific focus area' }],
    [
      'subcategory must belong to the niche',
      { subcategory: 'Illustration' },
      { subcategory: 'Please select your specific focus area' },
    ],
    ['[decision] the portfolio link is optional here', { portfolioLink: '' }, {}],
    ['[decision] the portfolio link is optional here (absent)', { portfolioLink: undefined }, {}],
    [
      "[decision] a link given must be http(s): 'Please enter a valid URL'",
      { portfolioLink: 'ada.example.com' },
      { portfolioLink: 'Please enter a valid URL' },
    ],
    ['[decision] the bio is optional', { bio: undefined }, {}],
    ['[decision] a bio over 1000 characters is refused', { bio: 'x'.repeat(1001) }, { bio: BIO_TOO_LONG }],
    ['[decision] a bio of 1000 characters is fine', { bio: 'x'.repeat(1000) }, {}],
    ['[decision] a name over 100 characters is refused', { name: 'x'.repeat(101) }, { name: NAME_TOO_LONG }],
  ])('%s', (_rule, overrides, errors) => {
    expect(validateProfile({ ...valid, ...overrides })).toEqual(errors);
  });

  it('reports the first message in field order', () => {
    expect(
      firstError(validateProfile({ name: '', username: '', location: '', creativeNiche: '', subcategory: '' })),
    ).toBe('Name is required');
  });
});

describe('validateProfileField (autosave per field)', () => {
  it.each<[keyof ProfileValues, string, string | undefined]>([
    ['name', '', 'Name is required'],
    ['name', 'Grace', undefined],
    ['username', 'ab', 'Username must be at least 3 characters long'],
    ['username', 'abc', undefined],
    ['location', 'NG', undefined],
    ['location', '', 'Please select your location'],
    ['subcategory', 'Screenwriting', undefined],
    ['subcategory', 'Dance', 'Please select your specific focus area'],
    ['portfolioLink', 'http://x.org', undefined],
    ['portfolioLink', 'x.org', 'Please enter a valid URL'],
  ])('%s = %j → %s', (field, value, message) => {
    expect(validateProfileField(field, value, valid)).toBe(message);
  });

  it('judges only the field asked about, even when another field is wrong', () => {
    expect(validateProfileField('name', 'Grace', { ...valid, username: '' })).toBeUndefined();
  });

  it('judges the subcategory against the niche of the other values', () => {
    expect(
      validateProfileField('subcategory', 'Dance', { ...valid, creativeNiche: 'performing_arts' }),
    ).toBeUndefined();
  });

  it("'Changing the niche resets the subcategory' on the profile page too", () => {
    const next = changeNiche(valid, 'media');
    expect(next.subcategory).toBe('');
    expect(validateProfileField('subcategory', next.subcategory, next)).toBe('Please select your specific focus area');
  });
});
