import { decimalToMinor, isTooLargeDecimal } from './decimal';
import { LOGGED_OUT_MESSAGES } from './logged-out';

/** docs/product.md §5 Apply and §8 Applying, word for word. */
export const APPLY_MESSAGES = {
  loggedOut: LOGGED_OUT_MESSAGES.apply,
  verifying: 'Please wait while we verify your account...',
  unavailable: 'Unable to process application at this time',
  gigMissing: 'Unable to process application: Gig data is missing',
  creatorMissing: 'Unable to process application: Invalid gig data (missing creator)',
  ownGig: 'You cannot apply to your own gig',
  alreadyApplied: 'You have already applied to this gig',
  profileMissing: 'Please complete your profile before applying',
  rateRequired: 'Please enter your budget offer',
} as const;

/** Not in docs/product.md. The first is also the server's text for a malformed offer. */
export const RATE_INVALID = 'Please enter a valid budget offer';
export const RATE_TOO_LARGE = 'Budget offer cannot be more than 1,000,000,000';

/**
 * A typed amount in integer minor units, or null. Accepts a plain non-negative decimal ("250",
 * "99.5", ".5", "1.005" → 101): rounded to 2 decimals half away from zero at the third decimal,
 * which is the one rounding rule for money input. Refused: negatives and other signs, exponents
 * ("1e3"), separators ("1,000": ambiguous between locales), currency signs, NaN and Infinity,
 * and anything above 1,000,000,000 major units. 0 is accepted: passion-driven gigs exist, and an
 * offer of nothing is the applicant's call.
 */
export function parseMoneyInput(text: string): number | null {
  return decimalToMinor(text.trim()) ?? null;
}

/** The message for a refused money input: required, too large or invalid; undefined if fine. */
export function moneyInputError(text: string, required: string = APPLY_MESSAGES.rateRequired): string | undefined {
  const value = text.trim();
  if (!value) return required;
  if (parseMoneyInput(value) !== null) return undefined;
  return isTooLargeDecimal(value) ? RATE_TOO_LARGE : RATE_INVALID;
}

export type ApplicationCheck = {
  rate: string;
  actor: { id: string } | null;
  profile: { complete: boolean } | null;
  gig: { createdBy?: string } | null;
  alreadyApplied: boolean;
  verifying?: boolean;
  /**
   * The account cannot be verified now: the device is offline and its first sync has not brought
   * the user's own record yet, so whether their profile exists is unknown until it reconnects.
   */
  unavailable?: boolean;
};

/**
 * The first reason an application cannot be sent, or null. Order: who is asking (logged out,
 * still being verified, not verifiable while offline), then what they apply to (no gig, no creator, their own gig, applied
 * already), then what they bring (a profile, then the rate): a user is never asked to fix the
 * rate of an application that could not be sent anyway.
 */
export function validateApplication(v: ApplicationCheck): string | null {
  const m = APPLY_MESSAGES;
  if (!v.actor) return m.loggedOut;
  if (v.verifying) return m.verifying;
  if (v.unavailable) return m.unavailable;
  if (!v.gig) return m.gigMissing;
  if (!v.gig.createdBy) return m.creatorMissing;
  if (v.gig.createdBy === v.actor.id) return m.ownGig;
  if (v.alreadyApplied) return m.alreadyApplied;
  if (!v.profile || !v.profile.complete) return m.profileMissing;
  return moneyInputError(v.rate) ?? null;
}
