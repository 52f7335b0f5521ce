import { countryByCode, LIMITS } from '../constants';
import { emailError, nameError } from './signup';
import { collectErrors, type FieldErrors } from './types';

/**
 * docs/product.md §5 Waitlist: "Name, email, city and country are all required." docs/product.md gives no texts, so
 * these follow the signup form's wording. The country field is stored as `location`.
 */
export const WAITLIST_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  cityRequired: 'City is required',
  countryRequired: 'Country is required',
} as const;

export const WAITLIST_EXTRA_MESSAGES = {
  emailInvalid: 'Email is invalid',
  cityTooLong: `City must be at most ${LIMITS.cityMax} characters`,
  countryUnknown: 'Please select a country from the list',
} as const;

export type WaitlistValues = { name: string; email: string; city: string; location: string };
export type WaitlistField = keyof WaitlistValues;

/**
 * "Any email format rule is not shown" (docs/product.md §5). Decided: the signup's simple address pattern
 * applies ('Email is invalid'), because a waitlist exists to reach people later and a typo caught
 * now is a person not lost. The country must be one of the five supported (the stored entry's
 * schema allows no other).
 */
export function validateWaitlist(v: WaitlistValues): FieldErrors<WaitlistField> {
  const city = v.city.trim();
  const location = v.location.trim();
  return collectErrors<WaitlistField>([
    ['name', nameError(v.name)],
    ['email', emailError(v.email)],
    [
      'city',
      !city ? WAITLIST_MESSAGES.cityRequired : city.length > LIMITS.cityMax && WAITLIST_EXTRA_MESSAGES.cityTooLong,
    ],
    [
      'location',
      !location
        ? WAITLIST_MESSAGES.countryRequired
        : !countryByCode(location) && WAITLIST_EXTRA_MESSAGES.countryUnknown,
    ],
  ]);
}
