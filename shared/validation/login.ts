import { emailError, SIGNUP_MESSAGES } from './signup';
import { collectErrors, type FieldErrors } from './types';

/**
 * docs/product.md §5 Login: "Email is required or invalid; password is required." The texts are the
 * signup ones. Strength rules are not checked here: an old password must still let its owner in.
 */
export type LoginValues = { email: string; password: string };
export type LoginField = keyof LoginValues;

export function validateLogin(v: LoginValues): FieldErrors<LoginField> {
  return collectErrors<LoginField>([
    ['email', emailError(v.email)],
    ['password', !v.password && SIGNUP_MESSAGES.passwordRequired],
  ]);
}
