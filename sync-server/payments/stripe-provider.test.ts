import { describe, expect, it } from 'vitest';
import { idempotencyKeys } from './provider';
import { apiBaseOptions } from './stripe-provider';

describe('STRIPE_API_BASE → the SDK host, port and protocol', () => {
  it.each([
    [undefined, {}],
    ['http://127.0.0.1:12111', { host: '127.0.0.1', port: '12111', protocol: 'http' }],
    ['http://localhost', { host: 'localhost', port: '80', protocol: 'http' }],
    ['https://api.stripe.com', { host: 'api.stripe.com', port: '443', protocol: 'https' }],
  ])('%s', (base, expected) => {
    expect(apiBaseOptions(base)).toEqual(expected);
  });
});

describe('idempotency keys are derived from what they protect', () => {
  it('one key per application and step; a new attempt number only after a refusal or an expired session', () => {
    expect(idempotencyKeys.transfer('g.a', 0)).toBe('application:g.a:transfer');
    expect(idempotencyKeys.transfer('g.a', 2)).toBe('application:g.a:transfer:retry-2');
    expect(idempotencyKeys.checkout('g.a', 0)).toBe('application:g.a:checkout:0');
    expect(idempotencyKeys.connectAccount('u1')).toBe('user:u1:connect-account');
  });
});
