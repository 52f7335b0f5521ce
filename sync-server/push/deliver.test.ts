import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SERVICE_ORIGINS } from '../config';
import { isAllowedEndpoint } from './deliver';
import { generateVapidKeys, isVapidKeyPair } from './vapid';

describe('push service endpoints the server sends to', () => {
  const origins = DEFAULT_PUSH_SERVICE_ORIGINS;
  it.each([
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
    'https://web.push.apple.com/QGuQ',
    'https://wns2-par02p.notify.windows.com/w/?token=x',
  ])('accept the browsers’ push services: %s', (endpoint) => {
    expect(isAllowedEndpoint(endpoint, origins)).toBe(true);
  });

  it.each([
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://evil.example/fcm.googleapis.com',
    'https://fcm.googleapis.com.evil.example/x',
    'https://push.services.mozilla.com.evil.example/x',
    'https://127.0.0.1/push',
    'https://169.254.169.254/latest',
    'https://localhost/push',
    'not a url',
  ])('refuse anything else: %s', (endpoint) => {
    expect(isAllowedEndpoint(endpoint, origins)).toBe(false);
  });

  it('accept a local http push service only when the configuration names its origin', () => {
    expect(isAllowedEndpoint('http://127.0.0.1:4000/push/1', ['http://127.0.0.1:4000'])).toBe(true);
    expect(isAllowedEndpoint('http://127.0.0.1:4001/push/1', ['http://127.0.0.1:4000'])).toBe(false);
  });
});

describe('VAPID keys', () => {
  it('are P-256 pairs, 65-byte public and 32-byte private keys in base64url', () => {
    for (let i = 0; i < 20; i++) {
      const keys = generateVapidKeys();
      expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
      expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32);
      expect(isVapidKeyPair(keys)).toBe(true);
    }
    expect(
      isVapidKeyPair({ publicKey: generateVapidKeys().publicKey, privateKey: generateVapidKeys().privateKey }),
    ).toBe(false);
  });
});
