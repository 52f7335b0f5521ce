import { describe, expect, it } from 'vitest';
import { NICHES } from '../constants';
import {
  changeNiche,
  isHttpUrl,
  isSubcategoryOf,
  URL_TOO_LONG,
  USERNAME_TOO_LONG,
  validatePortfolioSetup,
  type PortfolioSetupValues,
} from './portfolio';
import { firstError } from './types';

const valid: PortfolioSetupValues = {
  username: 'ada',
  location: 'GB',
  creativeNiche: 'visual_art',
  subcategory: 'Illustration',
  portfolioLink: 'https://ada.example.com',
};

describe('docs/product.md §5 Portfolio setup', () => {
  it('accepts a complete setup', () => {
    expect(validatePortfolioSetup(valid)).toEqual({});
  });

  it.each<[string, Partial<PortfolioSetupValues>, keyof PortfolioSetupValues, string]>([
    ["Username required ('Username is required')", { username: '' }, 'username', 'Username is required'],
    [
      "Username required ('Username is required'): whitespace only",
      { username: '   ' },
      'username',
      'Username is required',
    ],
    [
      "at least 3 characters ('Username must be at least 3 characters long'): 2",
      { username: 'ab' },
      'username',
      'Username must be at least 3 characters long',
    ],
    [
      "at least 3 characters: ' ab ' is 2 once trimmed",
      { username: ' ab ' },
      'username',
      'Username must be at least 3 characters long',
    ],
    [
      '[decision] at most 64 characters (the stored limit)',
      { username: 'a'.repeat(65) },
      'username',
      USERNAME_TOO_LONG,
    ],
    ["Location: 'Please select your location'", { location: '' }, 'location', 'Please select your location'],
    [
      "Location: 'Please select your location' (not a supported country)",
      { location: 'DE' },
      'location',
      'Please select your location',
    ],
    [
      "Niche: 'Please select your creative niche'",
      { creativeNiche: '', subcategory: '' },
      'creativeNiche',
      'Please select your creative niche',
    ],
    [
      "Subcategory: 'Please select your specific focus area'",
      { subcategory: '' },
      'subcategory',
      'Please select your specific focus area',
    ],
    [
      "Subcategory: 'Please select your specific focus area' (not of the chosen niche)",
      { subcategory: 'Poetry' },
      'subcategory',
      'Please select your specific focus area',
    ],
    [
      "Portfolio link required ('Portfolio link is required')",
      { portfolioLink: '' },
      'portfolioLink',
      'Portfolio link is required',
    ],
    [
      "Portfolio link required ('Portfolio link is required'): whitespace only",
      { portfolioLink: '  ' },
      'portfolioLink',
      'Portfolio link is required',
    ],
    [
      "must start with http:// or https:// ('Please enter a valid URL'): bare domain",
      { portfolioLink: 'example.com' },
      'portfolioLink',
      'Please enter a valid URL',
    ],
    [
      "must start with http:// or https:// ('Please enter a valid URL'): ftp",
      { portfolioLink: 'ftp://example.com' },
      'portfolioLink',
      'Please enter a valid URL',
    ],
    [
      "must start with http:// or https:// ('Please enter a valid URL'): nothing after it",
      { portfolioLink: 'https://' },
      'portfolioLink',
      'Please enter a valid URL',
    ],
    [
      '[decision] a link over 2048 characters is refused',
      { portfolioLink: `https://example.com/${'a'.repeat(2030)}` },
      'portfolioLink',
      URL_TOO_LONG,
    ],
  ])('%s', (_rule, overrides, field, message) => {
    const errors = validatePortfolioSetup({ ...valid, ...overrides });
    // An empty niche leaves the subcategory without a niche to belong to.
    const expected =
      overrides.creativeNiche === ''
        ? { [field]: message, subcategory: 'Please select your specific focus area' }
        : { [field]: message };
    expect(errors).toEqual(expected);
  });

  it.each([
    ['abc', true],
    ['ab', false],
  ])("'Username min 3' (§9): %s passes: %s", (username, ok) => {
    expect(validatePortfolioSetup({ ...valid, username }).username === undefined).toBe(ok);
  });

  it.each([
    ['http://example.com', true],
    ['https://example.com/work?x=1', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['  https://example.com  ', true],
    ['https://my site.com', false],
    ['example.com', false],
    ['javascript:alert(1)', false],
    ['http:/example.com', false],
  ])("'must start with http:// or https://': isHttpUrl(%j) → %s", (url, ok) => {
    expect(isHttpUrl(url)).toBe(ok);
  });

  it('gives the first message in docs/product.md order', () => {
    const errors = validatePortfolioSetup({
      username: '',
      location: '',
      creativeNiche: '',
      subcategory: '',
      portfolioLink: '',
    });
    expect(Object.values(errors)).toEqual([
      'Username is required',
      'Please select your location',
      'Please select your creative niche',
      'Please select your specific focus area',
      'Portfolio link is required',
    ]);
    expect(firstError(errors)).toBe('Username is required');
  });
});

describe('niches and subcategories (docs/product.md §3)', () => {
  it.each(NICHES.flatMap((n) => n.subcategories.map((s) => [n.id, s] as const)))(
    '%s accepts its own subcategory %s',
    (niche, sub) => {
      expect(isSubcategoryOf(niche, sub)).toBe(true);
      expect(validatePortfolioSetup({ ...valid, creativeNiche: niche, subcategory: sub })).toEqual({});
    },
  );

  it.each([
    ['writing', 'Illustration'],
    ['unknown', 'Other'],
    ['', ''],
  ])('%s does not accept %j', (niche, sub) => {
    expect(isSubcategoryOf(niche, sub)).toBe(false);
  });
});

describe("docs/product.md §5 'Changing the niche resets the subcategory.'", () => {
  it.each([
    ['another niche', 'media'],
    ['[decision] the same niche chosen again', 'visual_art'],
    ['no niche', ''],
  ])('%s: subcategory becomes empty', (_case, nicheId) => {
    const next = changeNiche(valid, nicheId);
    expect(next).toEqual({ ...valid, creativeNiche: nicheId, subcategory: '' });
    expect(valid.subcategory).toBe('Illustration'); // the input is not mutated
  });
});
