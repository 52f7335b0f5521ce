import { describe, expect, it } from 'vitest';
import { validateLogin } from './login';

describe('docs/product.md §5 Login: "Email is required or invalid; password is required."', () => {
  it.each([
    ['a valid login', { email: 'ada@example.com', password: 'x' }, {}],
    ['email required', { email: '', password: 'x' }, { email: 'Email is required' }],
    ['email required (whitespace only)', { email: '   ', password: 'x' }, { email: 'Email is required' }],
    ['email invalid', { email: 'nope', password: 'x' }, { email: 'Email is invalid' }],
    ['password required', { email: 'ada@example.com', password: '' }, { password: 'Password is required' }],
    [
      'both, in field order',
      { email: '', password: '' },
      { email: 'Email is required', password: 'Password is required' },
    ],
    [
      '[decision] no strength rule at login: an old weak password still signs in',
      { email: 'ada@example.com', password: 'weak' },
      {},
    ],
  ])('%s', (_rule, values, errors) => {
    expect(validateLogin(values)).toEqual(errors);
  });
});
