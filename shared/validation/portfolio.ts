import { countryByCode, LIMITS, nicheById } from '../constants';
import { collectErrors, type FieldErrors } from './types';

/** docs/product.md §5 Portfolio setup, word for word. */
export const PORTFOLIO_MESSAGES = {
  usernameRequired: 'Username is required',
  usernameTooShort: 'Username must be at least 3 characters long',
  locationRequired: 'Please select your location',
  nicheRequired: 'Please select your creative niche',
  subcategoryRequired: 'Please select your specific focus area',
  portfolioLinkRequired: 'Portfolio link is required',
  urlInvalid: 'Please enter a valid URL',
} as const;

/** Not in docs/product.md: the stored username is at most 64 characters (schemas/user.ts). */
export const USERNAME_MAX = 64;
export const USERNAME_TOO_LONG = `Username must be at most ${USERNAME_MAX} characters`;
export const URL_TOO_LONG = `Link must be at most ${LIMITS.urlMax} characters`;

export type PortfolioSetupValues = {
  username: string;
  location: string;
  creativeNiche: string;
  subcategory: string;
  portfolioLink: string;
};
export type PortfolioSetupField = keyof PortfolioSetupValues;

/**
 * Username: trimmed, then 3 to 64 characters. docs/product.md names no character set, so none is imposed.
 */
export function usernameError(username: string): string | undefined {
  const value = username.trim();
  if (!value) return PORTFOLIO_MESSAGES.usernameRequired;
  if ([...value].length < LIMITS.usernameMin) return PORTFOLIO_MESSAGES.usernameTooShort;
  if (value.length > USERNAME_MAX) return USERNAME_TOO_LONG;
  return undefined;
}

/**
 * "Must start with http:// or https://" (docs/product.md §5). Beyond the prefix the rest must parse as a
 * URL with a host, so 'https://' alone or 'https:// my site' is refused. The scheme's case is
 * not significant (HTTPS://… is the same address).
 */
export function isHttpUrl(text: string): boolean {
  const value = text.trim();
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    return new URL(value).hostname.length > 0;
  } catch {
    return false;
  }
}

/** 'Please enter a valid URL' for a present but malformed link; nothing for an empty one. */
export function linkFormatError(link: string): string | undefined {
  const value = link.trim();
  if (!value) return undefined;
  if (value.length > LIMITS.urlMax) return URL_TOO_LONG;
  return isHttpUrl(value) ? undefined : PORTFOLIO_MESSAGES.urlInvalid;
}

/** The subcategory must be one of the chosen niche's own list; with no valid niche none fits. */
export function isSubcategoryOf(nicheId: string, subcategory: string): boolean {
  return (nicheById(nicheId)?.subcategories as readonly string[] | undefined)?.includes(subcategory) ?? false;
}

export function validatePortfolioSetup(v: PortfolioSetupValues): FieldErrors<PortfolioSetupField> {
  return collectErrors<PortfolioSetupField>([
    ['username', usernameError(v.username)],
    // An unknown code is treated as no selection: the form only offers the supported countries.
    ['location', !countryByCode(v.location.trim()) && PORTFOLIO_MESSAGES.locationRequired],
    ['creativeNiche', !nicheById(v.creativeNiche.trim()) && PORTFOLIO_MESSAGES.nicheRequired],
    [
      'subcategory',
      !isSubcategoryOf(v.creativeNiche.trim(), v.subcategory.trim()) && PORTFOLIO_MESSAGES.subcategoryRequired,
    ],
    [
      'portfolioLink',
      !v.portfolioLink.trim() ? PORTFOLIO_MESSAGES.portfolioLinkRequired : linkFormatError(v.portfolioLink),
    ],
  ]);
}

/**
 * "Changing the niche resets the subcategory" (docs/product.md §5). Always reset: a select only reports
 * a change, and a subcategory of the old niche would not belong to the new one anyway.
 */
export function changeNiche<T extends { creativeNiche: string; subcategory: string }>(values: T, nicheId: string): T {
  return { ...values, creativeNiche: nicheId, subcategory: '' };
}
