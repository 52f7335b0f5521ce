import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, NAME_TOO_LONG, normalizeEmail, validateSignup, type SignupValues } from './signup';
import { firstError } from './types';

const valid: SignupValues = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'Secret123',
  confirmPassword: 'Secret123',
  termsAccepted: true,
};
const pw = (password: string) => ({ password, confirmPassword: password });

describe('docs/product.md §5 Signup', () => {
  it('accepts a complete, valid signup', () => {
    expect(validateSignup(valid)).toEqual({});
  });

  it.each<[string, Partial<SignupValues>, keyof SignupValues, string]>([
    ["Name required: 'Name is required'", { name: '' }, 'name', 'Name is required'],
    ["Name required: 'Name is required' (whitespace only)", { name: '   ' }, 'name', 'Name is required'],
    ["Email required ('Email is required')", { email: '' }, 'email', 'Email is required'],
    ["Email required ('Email is required') (whitespace only)", { email: '  ' }, 'email', 'Email is required'],
    [
      "must match a simple address pattern ('Email is invalid'): no @",
      { email: 'ada.example.com' },
      'email',
      'Email is invalid',
    ],
    [
      "must match a simple address pattern ('Email is invalid'): no dot in domain",
      { email: 'ada@example' },
      'email',
      'Email is invalid',
    ],
    [
      "must match a simple address pattern ('Email is invalid'): inner space",
      { email: 'ada lovelace@example.com' },
      'email',
      'Email is invalid',
    ],
    [
      "must match a simple address pattern ('Email is invalid'): two @",
      { email: 'a@b@example.com' },
      'email',
      'Email is invalid',
    ],
    ["Password required ('Password is required')", pw(''), 'password', 'Password is required'],
    [
      "at least 8 characters ('Password must be at least 8 characters long'): 7",
      pw('Secret1'),
      'password',
      'Password must be at least 8 characters long',
    ],
    [
      'must contain a lowercase letter, an uppercase letter and a digit: no uppercase',
      pw('secret123'),
      'password',
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    [
      'must contain a lowercase letter, an uppercase letter and a digit: no lowercase',
      pw('SECRET123'),
      'password',
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    [
      'must contain a lowercase letter, an uppercase letter and a digit: no digit',
      pw('SecretPass'),
      'password',
      'Password must contain at least one uppercase letter, one lowercase letter, and one number',
    ],
    [
      "Confirmation required ('Please confirm your password')",
      { confirmPassword: '' },
      'confirmPassword',
      'Please confirm your password',
    ],
    [
      "must equal the password ('Passwords do not match')",
      { confirmPassword: 'Secret124' },
      'confirmPassword',
      'Passwords do not match',
    ],
    [
      "Terms must be accepted: 'You must accept the terms and conditions'",
      { termsAccepted: false },
      'termsAccepted',
      'You must accept the terms and conditions',
    ],
    ['[decision] a name over 100 characters is refused', { name: 'x'.repeat(101) }, 'name', NAME_TOO_LONG],
    [
      '[decision] an email over 254 characters is invalid',
      { email: `${'a'.repeat(250)}@example.com` },
      'email',
      'Email is invalid',
    ],
  ])('%s', (_rule, overrides, field, message) => {
    const errors = validateSignup({ ...valid, ...overrides });
    // The rule's own message, and no other field's, except that an empty password leaves the
    // (equally empty) confirmation unconfirmed too.
    const expected =
      overrides.password === ''
        ? { password: message, confirmPassword: 'Please confirm your password' }
        : { [field]: message };
    expect(errors).toEqual(expected);
  });

  it.each([
    ['Secret12', 8, true],
    ['Secret1', 7, false],
  ])("'Password min 8' (§9): %s (%i characters) passes the length rule: %s", (password, _length, ok) => {
    expect(validateSignup({ ...valid, ...pw(password) }).password === undefined).toBe(ok);
  });

  it('[decision] the password is not trimmed: spaces count as characters', () => {
    expect(validateSignup({ ...valid, ...pw(' Secret1 ') })).toEqual({});
  });

  it('[decision] name and email are judged trimmed: surrounding spaces are fine', () => {
    expect(validateSignup({ ...valid, name: '  Ada  ', email: '  Ada@Example.COM ' })).toEqual({});
  });

  it('reports every failing field, first message in docs/product.md order', () => {
    const errors = validateSignup({
      name: '',
      email: 'x',
      password: 'short',
      confirmPassword: '',
      termsAccepted: false,
    });
    expect(Object.keys(errors)).toEqual(['name', 'email', 'password', 'confirmPassword', 'termsAccepted']);
    expect(firstError(errors)).toBe('Name is required');
    expect(firstError(validateSignup({ ...valid, ...pw('') }))).toBe('Password is required');
  });
});

describe('EMAIL_PATTERN and normalizeEmail', () => {
  it.each([
    ['a@b.co', true],
    ['first.last+tag@sub.example.org', true],
    ['a@b', false],
    ['@b.co', false],
    ['a@.co', false],
    ['a..b@c.de', true], // "simple" pattern: not a full RFC check
    ['a b@c.de', false],
  ])('EMAIL_PATTERN %s → %s', (email, ok) => {
    expect(EMAIL_PATTERN.test(email)).toBe(ok);
  });

  it.each([
    ['  Ada@Example.COM ', 'ada@example.com'],
    ['ada@example.com', 'ada@example.com'],
  ])('normalizeEmail(%j) trims and lowercases → %s', (raw, normalized) => {
    expect(normalizeEmail(raw)).toBe(normalized);
  });
});
