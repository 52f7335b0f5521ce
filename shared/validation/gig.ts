import {
  countryByCode,
  CURRENCY_CODES,
  DEFAULT_CURRENCY,
  LIMITS,
  LOCATION_TYPES,
  nicheByName,
  type LocationType,
} from '../constants';
import { OPENINGS, openingsError } from '../hiring';
import { budgetTextError } from './budget-text';
import { LOGGED_OUT_MESSAGES } from './logged-out';
import { collectErrors, type FieldErrors } from './types';

export { budgetTextError, parseBudgetText, type BudgetRange } from './budget-text';

/** docs/product.md §5 Create gig, word for word, in docs/product.md order. */
/** docs/product.md §8 Gigs, "Create gig": who may create one. */
export const CREATE_GIG_MESSAGES = {
  loggedOut: LOGGED_OUT_MESSAGES.createGig,
  profileMissing: 'Please complete your profile before creating a gig',
} as const;

export const GIG_MESSAGES = {
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  categoryRequired: 'Category is required',
  locationTypeRequired: 'Location type is required',
  /** The create-gig page's text; the modal says budgetRequiredModal. */
  budgetRequiredPage: 'Budget is required for non-passion-driven projects',
  budgetRequiredModal: 'Budget is required',
  skillsRequired: 'Skills are required',
  deadlineRequired: 'Project deadline is required for remote gigs',
  dateRequired: 'Project date is required for in-person gigs',
  countryRequired: 'Country is required for in-person gigs',
  cityRequired: 'City is required for in-person gigs',
} as const;

/** Not in docs/product.md: the texts of the limits and checks docs/product.md states without a message. */
export const GIG_EXTRA_MESSAGES = {
  titleTooLong: `Title must be at most ${LIMITS.titleMax} characters`,
  descriptionTooLong: `Description must be at most ${LIMITS.descriptionMax} characters`,
  categoryUnknown: 'Please select a category from the list',
  locationTypeUnknown: 'Please select a location type from the list',
  skillsTooLong: `Skills must be at most ${LIMITS.skillsMax} characters`,
  deadlineInvalid: 'Project deadline must be a valid date',
  deadlinePast: 'Project deadline cannot be in the past',
  dateInvalid: 'Project date must be a valid date',
  datePast: 'Project date cannot be in the past',
  countryUnknown: 'Please select a country from the list',
  cityTooLong: `City must be at most ${LIMITS.cityMax} characters`,
  currencyUnknown: 'Please select a supported currency',
} as const;

/** The create-gig form as its inputs hold it: strings, '' for empty. */
export type GigFormValues = {
  title: string;
  description: string;
  category: string;
  locationType: '' | LocationType;
  country: string;
  city: string;
  budget: string;
  isPassionDriven: boolean;
  currency: string;
  skills: string;
  projectDeadline: string;
  projectDate: string;
  /** How many people the gig hires, as typed. */
  openings: string;
};
export type GigField = Exclude<keyof GigFormValues, 'isPassionDriven'>;
export type GigFormVariant = 'page' | 'modal';

export const EMPTY_GIG_FORM: GigFormValues = {
  title: '',
  description: '',
  category: '',
  locationType: '',
  country: '',
  city: '',
  budget: '',
  isPassionDriven: false,
  currency: DEFAULT_CURRENCY,
  skills: '',
  projectDeadline: '',
  projectDate: '',
  openings: String(OPENINGS.default),
};

/** "Skills are split on commas, trimmed, empties removed, and rejoined with a comma and a space." */
export function normalizeSkills(skills: string): string {
  return skills
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(', ');
}

/** "Text fields are trimmed" (docs/product.md §5); skills normalised as above. */
export function normalizeGigForm(values: GigFormValues): GigFormValues {
  return {
    ...values,
    title: values.title.trim(),
    description: values.description.trim(),
    category: values.category.trim(),
    country: values.country.trim(),
    city: values.city.trim(),
    budget: values.budget.trim(),
    currency: values.currency.trim(),
    skills: normalizeSkills(values.skills),
    projectDeadline: values.projectDeadline.trim(),
    projectDate: values.projectDate.trim(),
    openings: values.openings.trim(),
  };
}

/** A real calendar day written YYYY-MM-DD (what a date input gives). */
export function isIsoDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The calendar day of `date` in the runtime's time zone: the form's `today` and the inputs' min. */
export function localIsoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "Date inputs have a minimum of today": ISO days compare correctly as text. */
function dayError(
  day: string,
  today: string,
  required: string | undefined,
  invalid: string,
  past: string,
): string | undefined {
  if (!day) return required;
  if (!isIsoDay(day)) return invalid;
  return day < today ? past : undefined;
}

function lengthError(value: string, max: number, message: string): string | undefined {
  return value.length > max ? message : undefined;
}

/**
 * The create-gig rules, one message per field, in docs/product.md order. Values are judged trimmed, as
 * normalizeGigForm would store them. Lengths count UTF-16 units, as the inputs' maxLength and the
 * stored schema do.
 *
 * Hybrid gigs: docs/product.md names no extra required field for them, and its own change rules clear the
 * deadline (not remote) and the date, country and city (not in-person) when hybrid is chosen. So a
 * hybrid gig requires none of them; requiring any would make hybrid impossible to submit. What a
 * hybrid gig does carry is still checked (a supported country, a valid date not in the past).
 */
export function validateGigForm(
  values: GigFormValues,
  options: { today: string; variant: GigFormVariant },
): FieldErrors<GigField> {
  const v = normalizeGigForm(values);
  const { today } = options;
  const type = v.locationType;
  const m = GIG_MESSAGES;
  const x = GIG_EXTRA_MESSAGES;
  const budgetRequired = options.variant === 'page' ? m.budgetRequiredPage : m.budgetRequiredModal;
  return collectErrors<GigField>([
    ['title', !v.title ? m.titleRequired : lengthError(v.title, LIMITS.titleMax, x.titleTooLong)],
    [
      'description',
      !v.description ? m.descriptionRequired : lengthError(v.description, LIMITS.descriptionMax, x.descriptionTooLong),
    ],
    ['category', !v.category ? m.categoryRequired : !nicheByName(v.category) && x.categoryUnknown],
    ['locationType', !type ? m.locationTypeRequired : !LOCATION_TYPES.includes(type) && x.locationTypeUnknown],
    // "Budget is not required when the gig is passion driven": its text is then ignored (cleared).
    ['budget', !v.isPassionDriven && (!v.budget ? budgetRequired : budgetTextError(v.budget))],
    ['skills', !v.skills ? m.skillsRequired : lengthError(v.skills, LIMITS.skillsMax, x.skillsTooLong)],
    [
      'projectDeadline',
      type === 'remote' && dayError(v.projectDeadline, today, m.deadlineRequired, x.deadlineInvalid, x.deadlinePast),
    ],
    [
      'projectDate',
      type !== 'remote' &&
        type !== '' &&
        dayError(v.projectDate, today, type === 'in-person' ? m.dateRequired : undefined, x.dateInvalid, x.datePast),
    ],
    // A country or city given with any location type is kept, so it is checked whatever the type.
    ['country', !v.country ? type === 'in-person' && m.countryRequired : !countryByCode(v.country) && x.countryUnknown],
    ['city', !v.city ? type === 'in-person' && m.cityRequired : lengthError(v.city, LIMITS.cityMax, x.cityTooLong)],
    ['currency', v.currency !== '' && !(CURRENCY_CODES as readonly string[]).includes(v.currency) && x.currencyUnknown],
    ['openings', openingsError(v.openings)],
  ]);
}

/**
 * "Choosing a location type other than remote clears the deadline. Choosing one other than
 * in-person clears date, country and city. Choosing remote sets CAD."
 */
export function changeLocationType(values: GigFormValues, type: '' | LocationType): GigFormValues {
  const next: GigFormValues = { ...values, locationType: type };
  if (type !== 'remote') next.projectDeadline = '';
  if (type !== 'in-person') Object.assign(next, { projectDate: '', country: '', city: '' });
  if (type === 'remote') next.currency = DEFAULT_CURRENCY;
  return next;
}

/** "Choosing a country sets the currency." An unknown or empty code leaves the currency as it was. */
export function changeCountry(values: GigFormValues, code: string): GigFormValues {
  return { ...values, country: code, currency: countryByCode(code)?.currency ?? values.currency };
}

/** "Marking a gig passion driven clears and disables the budget." Unmarking leaves it empty. */
export function setPassionDriven(values: GigFormValues, isPassionDriven: boolean): GigFormValues {
  return { ...values, isPassionDriven, budget: isPassionDriven ? '' : values.budget };
}

/**
 * The currency a gig is stored in: CAD when remote, else its country's currency, else the form's
 * own choice when supported, else CAD (the default).
 */
export function currencyFor(values: Pick<GigFormValues, 'locationType' | 'country' | 'currency'>): string {
  if (values.locationType === 'remote') return DEFAULT_CURRENCY;
  const fromCountry = countryByCode(values.country.trim())?.currency;
  if (fromCountry) return fromCountry;
  const own = values.currency.trim();
  return (CURRENCY_CODES as readonly string[]).includes(own) ? own : DEFAULT_CURRENCY;
}
