import { describe, expect, it } from 'vitest';
import { COUNTRIES, NICHES } from '../constants';
import {
  changeCountry,
  changeLocationType,
  currencyFor,
  EMPTY_GIG_FORM,
  GIG_EXTRA_MESSAGES as X,
  isIsoDay,
  localIsoDay,
  normalizeGigForm,
  normalizeSkills,
  setPassionDriven,
  validateGigForm,
  type GigFormValues,
} from './gig';
import { firstError } from './types';

const TODAY = '2026-03-15';
const YESTERDAY = '2026-03-14';
const page = { today: TODAY, variant: 'page' } as const;
const modal = { today: TODAY, variant: 'modal' } as const;

const remote: GigFormValues = {
  ...EMPTY_GIG_FORM,
  title: 'Logo for a bakery',
  description: 'A warm, hand-drawn logo.',
  category: 'Visual Art',
  locationType: 'remote',
  budget: '500-1000',
  skills: 'illustration, branding',
  projectDeadline: '2026-04-01',
};
const inPerson: GigFormValues = {
  ...remote,
  locationType: 'in-person',
  projectDeadline: '',
  projectDate: '2026-04-01',
  country: 'FR',
  city: 'Lyon',
  currency: 'EUR',
};
const hybrid: GigFormValues = { ...remote, locationType: 'hybrid', projectDeadline: '' };

describe('docs/product.md §5 Create gig: the required fields', () => {
  it.each([
    ['a remote gig', remote],
    ['an in-person gig', inPerson],
    ['a hybrid gig', hybrid],
  ])('accepts %s', (_case, values) => {
    expect(validateGigForm(values, page)).toEqual({});
  });

  it.each<[string, GigFormValues, Record<string, string>]>([
    ["'Title is required'", { ...remote, title: '' }, { title: 'Title is required' }],
    [
      "'Title is required' (whitespace only: text fields are trimmed)",
      { ...remote, title: '   ' },
      { title: 'Title is required' },
    ],
    ["'Description is required'", { ...remote, description: ' \n ' }, { description: 'Description is required' }],
    ["'Category is required'", { ...remote, category: '' }, { category: 'Category is required' }],
    [
      "'Location type is required'",
      { ...remote, locationType: '', projectDeadline: '' },
      { locationType: 'Location type is required' },
    ],
    [
      "page: 'Budget is required for non-passion-driven projects'",
      { ...remote, budget: '' },
      { budget: 'Budget is required for non-passion-driven projects' },
    ],
    ["'Skills are required'", { ...remote, skills: '' }, { skills: 'Skills are required' }],
    [
      "'Skills are required' (only commas and spaces: empties removed)",
      { ...remote, skills: ' , ,' },
      { skills: 'Skills are required' },
    ],
    [
      "Remote: 'Project deadline is required for remote gigs'",
      { ...remote, projectDeadline: '' },
      { projectDeadline: 'Project deadline is required for remote gigs' },
    ],
    [
      "In-person: 'Project date is required for in-person gigs'",
      { ...inPerson, projectDate: '' },
      { projectDate: 'Project date is required for in-person gigs' },
    ],
    [
      "In-person: 'Country is required for in-person gigs'",
      { ...inPerson, country: '' },
      { country: 'Country is required for in-person gigs' },
    ],
    [
      "In-person: 'City is required for in-person gigs'",
      { ...inPerson, city: ' ' },
      { city: 'City is required for in-person gigs' },
    ],
  ])('%s', (_rule, values, errors) => {
    expect(validateGigForm(values, page)).toEqual(errors);
  });

  it("modal version of the budget message: 'Budget is required'", () => {
    expect(validateGigForm({ ...remote, budget: '' }, modal)).toEqual({ budget: 'Budget is required' });
  });

  it.each([
    ['page', page],
    ['modal', modal],
  ])("'Budget is not required when the gig is passion driven' (%s)", (_variant, options) => {
    expect(validateGigForm({ ...remote, isPassionDriven: true, budget: '' }, options)).toEqual({});
    // Whatever text lingers is ignored: it is cleared when stored.
    expect(validateGigForm({ ...remote, isPassionDriven: true, budget: 'abc' }, options)).toEqual({});
  });

  it("'Errors, in order: Title, Description, Category, Location type, Budget, Skills' then the location rules", () => {
    const all = validateGigForm({ ...EMPTY_GIG_FORM }, page);
    expect(Object.values(all)).toEqual([
      'Title is required',
      'Description is required',
      'Category is required',
      'Location type is required',
      'Budget is required for non-passion-driven projects',
      'Skills are required',
    ]);
    expect(firstError(all)).toBe('Title is required');
    expect(Object.values(validateGigForm({ ...EMPTY_GIG_FORM, locationType: 'in-person' }, page)).slice(4)).toEqual([
      'Skills are required',
      'Project date is required for in-person gigs',
      'Country is required for in-person gigs',
      'City is required for in-person gigs',
    ]);
    expect(Object.values(validateGigForm({ ...EMPTY_GIG_FORM, locationType: 'remote' }, page)).slice(4)).toEqual([
      'Skills are required',
      'Project deadline is required for remote gigs',
    ]);
  });

  it.each([
    ['remote needs no date, country or city', remote],
    ['in-person needs no deadline', inPerson],
    ['[decision] hybrid needs none of deadline, date, country, city', hybrid],
  ])('%s', (_case, values) => {
    expect(validateGigForm(values, page)).toEqual({});
  });
});

describe('docs/product.md §3/§9 limits: title max 100, description max 500', () => {
  it.each<[string, Partial<GigFormValues>, Record<string, string>]>([
    ['title of 100 characters is accepted', { title: 't'.repeat(100) }, {}],
    ['title of 101 characters is refused', { title: 't'.repeat(101) }, { title: X.titleTooLong }],
    ['title of 100 characters plus surrounding spaces is accepted (trimmed)', { title: ` ${'t'.repeat(100)} ` }, {}],
    ['description of 500 characters is accepted', { description: 'd'.repeat(500) }, {}],
    [
      'description of 501 characters is refused',
      { description: 'd'.repeat(501) },
      { description: X.descriptionTooLong },
    ],
    ['[decision] skills over 500 characters are refused', { skills: 's'.repeat(501) }, { skills: X.skillsTooLong }],
    ['[decision] a city over 100 characters is refused', { city: 'c'.repeat(101) }, { city: X.cityTooLong }],
  ])('%s', (_case, overrides, errors) => {
    expect(validateGigForm({ ...remote, ...overrides }, page)).toEqual(errors);
  });

  it('the too-long messages name the limit', () => {
    expect(X.titleTooLong).toBe('Title must be at most 100 characters');
    expect(X.descriptionTooLong).toBe('Description must be at most 500 characters');
  });
});

describe("docs/product.md §3 'category (the niche display name)'", () => {
  it.each(NICHES.map((n) => [n.name]))('%s is a category', (name) => {
    expect(validateGigForm({ ...remote, category: name }, page)).toEqual({});
  });

  it.each([['visual_art'], ['craft_diy'], ['visual art'], ['Sculpture']])(
    '%s (an id, another case, or unknown) is refused',
    (category) => {
      expect(validateGigForm({ ...remote, category }, page)).toEqual({ category: X.categoryUnknown });
    },
  );
});

describe("docs/product.md §5 'Date inputs have a minimum of today.'", () => {
  it.each<[string, GigFormValues, Record<string, string>]>([
    ['remote deadline today is accepted', { ...remote, projectDeadline: TODAY }, {}],
    [
      'remote deadline yesterday is refused',
      { ...remote, projectDeadline: YESTERDAY },
      { projectDeadline: 'Project deadline cannot be in the past' },
    ],
    ['in-person date today is accepted', { ...inPerson, projectDate: TODAY }, {}],
    [
      'in-person date yesterday is refused',
      { ...inPerson, projectDate: YESTERDAY },
      { projectDate: 'Project date cannot be in the past' },
    ],
    [
      '[decision] a hybrid gig carrying a past date is refused too',
      { ...hybrid, projectDate: YESTERDAY },
      { projectDate: X.datePast },
    ],
    [
      'a deadline that is not a date is refused',
      { ...remote, projectDeadline: 'next week' },
      { projectDeadline: 'Project deadline must be a valid date' },
    ],
    [
      'a date that does not exist is refused',
      { ...inPerson, projectDate: '2026-02-30' },
      { projectDate: 'Project date must be a valid date' },
    ],
    [
      '[decision] a stale date on a remote gig is ignored (it is not stored)',
      { ...remote, projectDate: YESTERDAY },
      {},
    ],
    [
      '[decision] a stale deadline on an in-person gig is ignored (it is not stored)',
      { ...inPerson, projectDeadline: YESTERDAY },
      {},
    ],
  ])('%s', (_case, values, errors) => {
    expect(validateGigForm(values, page)).toEqual(errors);
  });

  it.each([
    ['2026-03-15', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2026-13-01', false],
    ['2026-3-15', false],
    ['', false],
  ])('isIsoDay(%j) → %s', (day, ok) => {
    expect(isIsoDay(day)).toBe(ok);
  });

  it('localIsoDay gives the calendar day of the runtime time zone, zero-padded', () => {
    expect(localIsoDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('[decision] country and currency checks', () => {
  it.each<[string, GigFormValues, Record<string, string>]>([
    [
      'an unsupported country is refused for in-person gigs',
      { ...inPerson, country: 'DE' },
      { country: X.countryUnknown },
    ],
    ['an unsupported country is refused on a hybrid gig', { ...hybrid, country: 'DE' }, { country: X.countryUnknown }],
    ['a hybrid gig may carry a supported country and city', { ...hybrid, country: 'NG', city: 'Lagos' }, {}],
    ['an unsupported currency is refused', { ...remote, currency: 'JPY' }, { currency: X.currencyUnknown }],
  ])('%s', (_case, values, errors) => {
    expect(validateGigForm(values, page)).toEqual(errors);
  });
});

describe("docs/product.md §5 'Text fields are trimmed. Skills are split on commas, trimmed, empties removed, and rejoined with a comma and a space.'", () => {
  it.each([
    ['paint,walls', 'paint, walls'],
    [' paint, , walls ,design ', 'paint, walls, design'],
    ['solo', 'solo'],
    [',,,', ''],
    ['', ''],
    ['a , b,,c ,', 'a, b, c'],
  ])('normalizeSkills(%j) → %j', (raw, normalized) => {
    expect(normalizeSkills(raw)).toBe(normalized);
  });

  it('normalizeGigForm trims every text field and normalises skills', () => {
    const raw: GigFormValues = {
      title: '  Mural for a café  ',
      description: '\n A wall. \n',
      category: ' Visual Art ',
      locationType: 'in-person',
      country: ' FR ',
      city: ' Lyon ',
      budget: ' 500 ',
      isPassionDriven: false,
      currency: ' EUR ',
      skills: ' paint, , walls ,design ',
      projectDeadline: ' ',
      projectDate: ' 2026-04-01 ',
      openings: ' 3 ',
    };
    expect(normalizeGigForm(raw)).toEqual({
      title: 'Mural for a café',
      description: 'A wall.',
      category: 'Visual Art',
      locationType: 'in-person',
      country: 'FR',
      city: 'Lyon',
      budget: '500',
      isPassionDriven: false,
      currency: 'EUR',
      skills: 'paint, walls, design',
      projectDeadline: '',
      projectDate: '2026-04-01',
      openings: '3',
    });
    expect(validateGigForm(raw, page)).toEqual({});
  });
});

describe('[decision 014] openings: a whole number from 1 to 50', () => {
  it.each([['1'], ['7'], ['50'], [' 2 ']])('%j is accepted', (openings) => {
    expect(validateGigForm({ ...remote, openings }, page)).toEqual({});
  });
  it.each([[''], ['0'], ['51'], ['1.5'], ['-1'], ['two'], ['1e1']])('%j is refused', (openings) => {
    expect(validateGigForm({ ...remote, openings }, page)).toEqual({
      openings: 'Openings must be a whole number from 1 to 50',
    });
  });
});

describe("docs/product.md §5 'Choosing a location type other than remote clears the deadline. Choosing one other than in-person clears date, country and city.'", () => {
  const filled: GigFormValues = { ...inPerson, projectDeadline: '2026-05-01', currency: 'EUR' };

  it.each<[GigFormValues['locationType'], Partial<GigFormValues>]>([
    ['remote', { projectDeadline: '2026-05-01', projectDate: '', country: '', city: '', currency: 'CAD' }],
    ['in-person', { projectDeadline: '', projectDate: '2026-04-01', country: 'FR', city: 'Lyon', currency: 'EUR' }],
    ['hybrid', { projectDeadline: '', projectDate: '', country: '', city: '', currency: 'EUR' }],
    ['', { projectDeadline: '', projectDate: '', country: '', city: '', currency: 'EUR' }],
  ])('choosing %j', (type, expected) => {
    const next = changeLocationType(filled, type);
    expect(next).toEqual({ ...filled, locationType: type, ...expected });
  });

  it("'Choosing remote sets CAD' whatever the currency was", () => {
    expect(changeLocationType({ ...remote, currency: 'NGN' }, 'remote').currency).toBe('CAD');
  });
});

describe("docs/product.md §5 'Choosing a country sets the currency.'", () => {
  it.each(COUNTRIES.map((c) => [c.code, c.currency]))('%s → %s', (code, currency) => {
    expect(changeCountry({ ...inPerson, currency: 'CAD' }, code)).toEqual({ ...inPerson, country: code, currency });
  });

  it('an empty or unknown country leaves the currency as it was', () => {
    expect(changeCountry({ ...inPerson, currency: 'EUR' }, '').currency).toBe('EUR');
    expect(changeCountry({ ...inPerson, currency: 'EUR' }, 'DE').currency).toBe('EUR');
  });

  it.each<[string, Pick<GigFormValues, 'locationType' | 'country' | 'currency'>, string]>([
    ['remote is CAD whatever the country', { locationType: 'remote', country: 'NG', currency: 'NGN' }, 'CAD'],
    ['in-person follows its country', { locationType: 'in-person', country: 'GB', currency: 'CAD' }, 'GBP'],
    ['hybrid with a country follows it', { locationType: 'hybrid', country: 'US', currency: 'CAD' }, 'USD'],
    [
      'hybrid without a country keeps a supported choice',
      { locationType: 'hybrid', country: '', currency: 'EUR' },
      'EUR',
    ],
    ['otherwise the default CAD', { locationType: 'hybrid', country: '', currency: 'XXX' }, 'CAD'],
  ])('currencyFor: %s', (_case, values, currency) => {
    expect(currencyFor(values)).toBe(currency);
  });
});

describe("docs/product.md §5 'Marking a gig passion driven clears and disables the budget.'", () => {
  it.each<[boolean, string, string]>([
    [true, '500-1000', ''],
    [false, '500-1000', '500-1000'],
  ])('setPassionDriven(%s) on budget %j → %j', (flag, budget, expected) => {
    const next = setPassionDriven({ ...remote, budget }, flag);
    expect(next.isPassionDriven).toBe(flag);
    expect(next.budget).toBe(expected);
  });
});
