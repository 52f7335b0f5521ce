import { countryByCode, LIMITS, nicheById } from '../constants';
import { isSubcategoryOf, linkFormatError, PORTFOLIO_MESSAGES, usernameError } from './portfolio';
import { nameError } from './signup';
import { collectErrors, type FieldErrors } from './types';

export { changeNiche } from './portfolio';

/** Not in docs/product.md: the stored bio is bounded. */
export const BIO_TOO_LONG = `Bio must be at most ${LIMITS.bioMax} characters`;

export type ProfileValues = {
  name: string;
  username: string;
  location: string;
  creativeNiche: string;
  subcategory: string;
  portfolioLink?: string;
  bio?: string;
};
export type ProfileField = keyof ProfileValues;

/**
 * docs/product.md §5 Profile page: "Name, username, location, niche and subcategory are required." The
 * texts are the signup's ('Name is required') and the portfolio setup's for the rest. The
 * portfolio link is optional here (docs/product.md lists it among neither), but a link given must be
 * http(s) as at setup. The email is not a field of this form: it cannot be edited.
 */
export function validateProfile(v: ProfileValues): FieldErrors<ProfileField> {
  const niche = v.creativeNiche.trim();
  return collectErrors<ProfileField>([
    ['name', nameError(v.name)],
    ['username', usernameError(v.username)],
    ['location', !countryByCode(v.location.trim()) && PORTFOLIO_MESSAGES.locationRequired],
    ['creativeNiche', !nicheById(niche) && PORTFOLIO_MESSAGES.nicheRequired],
    ['subcategory', !isSubcategoryOf(niche, v.subcategory.trim()) && PORTFOLIO_MESSAGES.subcategoryRequired],
    ['portfolioLink', linkFormatError(v.portfolioLink ?? '')],
    ['bio', (v.bio ?? '').trim().length > LIMITS.bioMax && BIO_TOO_LONG],
  ]);
}

/**
 * One field's message for autosave: the form's values with this field's new value. The
 * subcategory is judged against the niche in `allValues`, since it depends on it.
 */
export function validateProfileField<F extends ProfileField>(
  field: F,
  value: ProfileValues[F],
  allValues: ProfileValues,
): string | undefined {
  return validateProfile({ ...allValues, [field]: value })[field];
}
