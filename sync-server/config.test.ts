import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

describe('configuration', () => {
  it('has defaults that make `npm start` work on a fresh machine', () => {
    const c = readConfig({});
    expect(c).toMatchObject({
      port: 8080,
      dataDir: path.resolve('data'),
      scryptLogN: 17,
      cookieSecure: false,
      rateLimits: true,
    });
    expect(c.stripeSecretKey).toBeUndefined();
  });

  it('refuses invalid values and names every one of them', () => {
    const attempt = () => readConfig({ PORT: 'eighty', SCRYPT_LOG_N: '3', PUBLIC_ORIGIN: 'not a url' });
    for (const name of ['PORT', 'SCRYPT_LOG_N', 'PUBLIC_ORIGIN']) expect(attempt).toThrow(name);
  });

  it('reads every documented variable', () => {
    const c = readConfig({
      PORT: '9000',
      DATA_DIR: '/tmp/x',
      COOKIE_SECURE: 'true',
      RATE_LIMITS: 'off',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
    });
    expect(c).toMatchObject({
      port: 9000,
      dataDir: '/tmp/x',
      cookieSecure: true,
      rateLimits: false,
      stripeSecretKey: 'sk_test_1',
      stripeApiBase: 'http://127.0.0.1:12111',
    });
  });
});

describe('Stripe Connect settings (decision 007)', () => {
  it('reads the Connect webhook secret and the platform country, CA by default', () => {
    expect(readConfig({}).stripePlatformCountry).toBe('CA');
    const c = readConfig({ STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect', STRIPE_PLATFORM_COUNTRY: 'US' });
    expect(c).toMatchObject({ stripeConnectWebhookSecret: 'whsec_connect', stripePlatformCountry: 'US' });
  });

  it('refuses a platform country without self-serve cross-border payouts, saying which are possible', () => {
    expect(() => readConfig({ STRIPE_PLATFORM_COUNTRY: 'NG' })).toThrow(
      /STRIPE_PLATFORM_COUNTRY: must be one of US, GB, CA, FR/,
    );
  });
});

describe('web push settings (decision 030)', () => {
  it('sends to the browsers’ push services by default, with keys from the store', () => {
    const c = readConfig({});
    expect(c.vapidKeys).toBeUndefined();
    expect(c.vapidSubject).toMatch(/^mailto:/);
    expect(c.pushServiceOrigins).toContain('https://fcm.googleapis.com');
  });

  it('reads the key pair, the subject and the push services', () => {
    const c = readConfig({
      VAPID_PUBLIC_KEY: 'pub',
      VAPID_PRIVATE_KEY: 'priv',
      VAPID_SUBJECT: 'mailto:ops@example.com',
      PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:4000, https://*.push.example',
    });
    expect(c).toMatchObject({
      vapidKeys: { publicKey: 'pub', privateKey: 'priv' },
      vapidSubject: 'mailto:ops@example.com',
      pushServiceOrigins: ['http://127.0.0.1:4000', 'https://*.push.example'],
    });
    expect(readConfig({ PUBLIC_ORIGIN: 'https://gigs.example' }).vapidSubject).toBe('https://gigs.example');
  });

  it('refuses half a key pair, a subject push services cannot use, and an origin that is not one', () => {
    expect(() => readConfig({ VAPID_PUBLIC_KEY: 'pub' })).toThrow(/set both or neither/);
    expect(() => readConfig({ VAPID_SUBJECT: 'ops@example.com' })).toThrow(/VAPID_SUBJECT/);
    expect(() => readConfig({ PUSH_SERVICE_ORIGINS: 'https://x.example/path' })).toThrow(/PUSH_SERVICE_ORIGINS/);
  });
});

describe('delivery and disputes (decision 031)', () => {
  it('releases delivered work after 14 days by default, and has no operator unless named', () => {
    expect(readConfig({})).toMatchObject({ autoReleaseDays: 14, operatorEmails: [] });
  });

  it('reads AUTO_RELEASE_DAYS and OPERATOR_EMAILS (trimmed, lower-cased, comma-separated)', () => {
    expect(
      readConfig({ AUTO_RELEASE_DAYS: '3', OPERATOR_EMAILS: ' Ops@Example.com, second@example.org ,' }),
    ).toMatchObject({ autoReleaseDays: 3, operatorEmails: ['ops@example.com', 'second@example.org'] });
  });

  it('refuses a release after 0 days, and an operator entry that is not an email', () => {
    expect(() => readConfig({ AUTO_RELEASE_DAYS: '0' })).toThrow('AUTO_RELEASE_DAYS');
    expect(() => readConfig({ OPERATOR_EMAILS: 'ops@example.com, admin' })).toThrow('OPERATOR_EMAILS');
  });
});
