import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { originPolicy, requestProtocol } from './security';

/** A request as the policy reads it: its Host header and the port it came in on. */
const request = (host: string | undefined, localPort = 8080) =>
  ({
    get: (name: string) => (name === 'host' ? host : undefined),
    headers: { host },
    socket: { localPort },
  }) as unknown as IncomingMessage;

describe('the origin policy without PUBLIC_ORIGIN', () => {
  it('is this machine on the listening port, and HOST when it names one', () => {
    const policy = originPolicy(undefined, '192.168.1.5');
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080', '192.168.1.5:8080']) {
      expect(policy.knownHost(request(host)), host).toBe(true);
      expect(policy.allowsOrigin(`http://${host}`, request(host)), host).toBe(true);
      expect(policy.socketSources(request(host))).toBe(`ws://${host} wss://${host}`);
    }
    for (const host of ['192.168.1.6:8080', 'localhost:8081', 'evil.example:8080', 'localhost;x:8080', undefined]) {
      expect(policy.knownHost(request(host)), String(host)).toBe(false);
      expect(policy.socketSources(request(host))).toBe("'self'");
    }
    expect(policy.allowsOrigin('http://evil.example:8080', request('evil.example:8080'))).toBe(false);
    // The request's own origin only: another local name, or another scheme, is not it.
    expect(policy.allowsOrigin('http://127.0.0.1:8080', request('localhost:8080'))).toBe(false);
    expect(policy.allowsOrigin('https://localhost:8080', request('localhost:8080'))).toBe(false);
  });

  it('takes a Host without a port as the scheme’s own', () => {
    const policy = originPolicy(undefined, undefined);
    expect(policy.knownHost(request('localhost', 80))).toBe(true);
    expect(policy.knownHost(request('localhost', 8080))).toBe(false);
  });

  it('an IPv6 HOST is named in brackets; the wildcard addresses add nothing', () => {
    expect(originPolicy(undefined, 'fd00::5').knownHost(request('[fd00::5]:8080'))).toBe(true);
    expect(originPolicy(undefined, '0.0.0.0').knownHost(request('0.0.0.0:8080'))).toBe(false);
    expect(originPolicy(undefined, '::').knownHost(request('[::]:8080'))).toBe(false);
  });
});

describe('the origin policy with PUBLIC_ORIGIN', () => {
  it('is that origin alone, whatever the Host header says (a proxy may rewrite it)', () => {
    const policy = originPolicy('https://gigs.example/', undefined);
    expect(policy.knownHost(request('internal:3000'))).toBe(true);
    expect(policy.allowsOrigin('https://gigs.example', request('internal:3000'))).toBe(true);
    expect(policy.allowsOrigin('http://localhost:8080', request('localhost:8080'))).toBe(false);
    expect(policy.socketSources(request('internal:3000'))).toBe('wss://gigs.example');
  });
});

describe('the scheme a request came in on', () => {
  /** A request from `remote`, on a TLS socket or not, with these headers. */
  const from = (remote: string, headers: Record<string, string> = {}, encrypted = false) =>
    ({ headers, socket: { remoteAddress: remote, encrypted, localPort: 8080 } }) as unknown as IncomingMessage;

  it('is https on a TLS socket and http otherwise', () => {
    expect(requestProtocol(from('203.0.113.7', {}, true))).toBe('https');
    expect(requestProtocol(from('203.0.113.7'))).toBe('http');
  });

  it('takes a proxy’s X-Forwarded-Proto from this machine only, its first value, http or https', () => {
    for (const loopback of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) {
      expect(requestProtocol(from(loopback, { 'x-forwarded-proto': 'https' })), loopback).toBe('https');
      expect(requestProtocol(from(loopback, { 'x-forwarded-proto': 'HTTPS, http' })), loopback).toBe('https');
      expect(requestProtocol(from(loopback, { 'x-forwarded-proto': 'http' }, true)), loopback).toBe('http');
    }
    // Anyone else may say what they like: the socket decides.
    expect(requestProtocol(from('203.0.113.7', { 'x-forwarded-proto': 'https' }))).toBe('http');
    expect(requestProtocol(from('::ffff:203.0.113.7', { 'x-forwarded-proto': 'https' }))).toBe('http');
    // Nothing but http or https is taken from the header.
    expect(requestProtocol(from('127.0.0.1', { 'x-forwarded-proto': 'javascript' }))).toBe('http');
    expect(requestProtocol(from('127.0.0.1', { 'x-forwarded-proto': 'javascript' }, true))).toBe('https');
  });
});
