import { LIMITS } from '../constants';
import { sanitizeText } from '../text';
import { collectErrors, type FieldErrors } from './types';

/** docs/product.md §5 Signup, word for word. */
export const SIGNUP_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordWeak: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  confirmRequired: 'Please confirm your password',
  passwordsDiffer: 'Passwords do not match',
  termsRequired: 'You must accept the terms and conditions',
} as const;

/** Not in docs/product.md: the stored name is bounded. */
export const NAME_TOO_LONG = `Name must be at most ${LIMITS.nameMax} characters`;

/**
 * "A simple address pattern" (docs/product.md §5): something, an @, something, a dot, something, with no
 * spaces and one @. Deliverability is the mail server's business, not the form's.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Accounts and the waitlist are keyed by this form of the address (no invisible controls: decision 013). */
export function normalizeEmail(email: string): string {
  return sanitizeText(email).trim().toLowerCase();
}

/** 'Email is required' / 'Email is invalid' or undefined; shared by signup, login and waitlist. */
export function emailError(email: string): string | undefined {
  const value = email.trim();
  if (!value) return SIGNUP_MESSAGES.emailRequired;
  if (value.length > LIMITS.emailMax || !EMAIL_PATTERN.test(value)) return SIGNUP_MESSAGES.emailInvalid;
  return undefined;
}

/**
 * The password itself is never trimmed: a space is a legitimate character of it. Length counts
 * characters (code points), so an emoji counts once. "Uppercase" and "lowercase" are any script's
 * cased letters; "number" is a digit 0-9.
 */
export function passwordError(password: string): string | undefined {
  if (!password) return SIGNUP_MESSAGES.passwordRequired;
  if ([...password].length < LIMITS.passwordMin) return SIGNUP_MESSAGES.passwordTooShort;
  if (!/\p{Lu}/u.test(password) || !/\p{Ll}/u.test(password) || !/[0-9]/.test(password))
    return SIGNUP_MESSAGES.passwordWeak;
  return undefined;
}

export function nameError(name: string): string | undefined {
  const value = name.trim();
  if (!value) return SIGNUP_MESSAGES.nameRequired;
  if (value.length > LIMITS.nameMax) return NAME_TOO_LONG;
  return undefined;
}

export type SignupValues = {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  termsAccepted: boolean;
};
export type SignupField = keyof SignupValues;

export function validateSignup(v: SignupValues): FieldErrors<SignupField> {
  return collectErrors<SignupField>([
    ['name', nameError(v.name)],
    ['email', emailError(v.email)],
    ['password', passwordError(v.password)],
    [
      'confirmPassword',
      !v.confirmPassword
        ? SIGNUP_MESSAGES.confirmRequired
        : v.confirmPassword !== v.password && SIGNUP_MESSAGES.passwordsDiffer,
    ],
    ['termsAccepted', v.termsAccepted !== true && SIGNUP_MESSAGES.termsRequired],
  ]);
}
