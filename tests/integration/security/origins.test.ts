import http from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PASSWORD, signUp, uniqueEmail } from '../../support/fixtures';
import { TestClient } from '../../support/http-client';
import { startTestServer, type TestServer } from '../../support/in-process-server';
import { creds, ok, refusedUpgrade, useSecurityServer } from '../../support/security-checks';

const security = useSecurityServer('origins');

describe('7. without PUBLIC_ORIGIN, the app is this machine on its port, not whatever the Host header says', () => {
  /** A request with a Host header of our choosing (a page on a rebound DNS name sends its own). */
  function asHost(method: string, urlPath: string, host: string, headers: Record<string, string> = {}, body?: unknown) {
    const u = new URL(security.server.url);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = http.request(
          {
            host: u.hostname,
            port: Number(u.port),
            method,
            path: urlPath,
            headers: {
              host,
              ...headers,
              ...(payload
                ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
                : {}),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(payload);
      },
    );
  }
  const port = () => new URL(security.server.url).port;

  it('a page on another name that resolves here (DNS rebinding) can neither post nor read the API', async () => {
    const rebound = `evil.example:${port()}`;
    const client = new TestClient(security.server.url);
    const user = await signUp(client);
    const login = await asHost('POST', '/api/auth/login', rebound, { origin: `http://${rebound}` }, creds(user));
    expect(login.status).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
    const waitlist = await asHost(
      'POST',
      '/api/waitlist',
      rebound,
      { origin: `http://${rebound}` },
      { name: 'Eve', email: uniqueEmail(), city: 'X', location: 'CA' },
    );
    expect(waitlist.status).toBe(403);
    ok('rebound host: POSTs refused');
    for (const p of ['/api/public-config', '/api/auth/session']) {
      const res = await asHost('GET', p, rebound);
      expect({ p, status: res.status, error: res.body.error }).toEqual({ p, status: 403, error: 'Unknown host' });
    }
    ok('rebound host: API reads refused');
    // The chat socket too: the same rebound name in Host and Origin is no origin of ours.
    const cookie = client.cookieHeader();
    const room = `/api/chat/${'a'.repeat(8)}_${'b'.repeat(8)}`;
    const chat = await refusedUpgrade(security.server.url, room, {
      cookie,
      host: rebound,
      origin: `http://${rebound}`,
    });
    expect({ status: chat.status, error: chat.body.error }).toEqual({
      status: 403,
      error: 'Cross-origin requests are not allowed',
    });
    // With the name this machine is known by, the origin check passes and the room is judged.
    const local = await refusedUpgrade(security.server.url, room, {
      cookie,
      host: `127.0.0.1:${port()}`,
      origin: `http://127.0.0.1:${port()}`,
    });
    expect(local.body.error).not.toBe('Cross-origin requests are not allowed');
    ok('rebound host: chat socket refused');
    // The same origin check with the Host header this machine is known by: the usual answers.
    expect(
      (
        await asHost(
          'POST',
          '/api/auth/login',
          `127.0.0.1:${port()}`,
          { origin: `http://127.0.0.1:${port()}` },
          creds(user),
        )
      ).status,
    ).toBe(200);
  });

  it('localhost, 127.0.0.1 and [::1] on the listening port are the app; another port or a look-alike name is not', async () => {
    for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, `[::1]:${port()}`, `LOCALHOST:${port()}`]) {
      const res = await asHost(
        'POST',
        '/api/auth/login',
        host,
        { origin: `http://${host.toLowerCase()}` },
        { email: uniqueEmail(), password: PASSWORD },
      );
      expect({ host, status: res.status }).toEqual({ host, status: 401 });
      expect((await asHost('GET', '/api/public-config', host)).status).toBe(200);
    }
    ok('local names on the listening port accepted');
    for (const [host, origin] of [
      [`localhost:${port()}`, `http://localhost:${Number(port()) + 1}`],
      [`localhost:${port()}`, `http://localhost.evil.example:${port()}`],
      [`localhost:${port()}`, `http://127.0.0.2:${port()}`],
      [`localhost:${Number(port()) + 1}`, `http://localhost:${Number(port()) + 1}`],
      [`localhost.evil.example:${port()}`, `http://localhost.evil.example:${port()}`],
    ]) {
      const res = await asHost(
        'POST',
        '/api/auth/login',
        host!,
        { origin: origin! },
        { email: uniqueEmail(), password: PASSWORD },
      );
      expect({ host, origin, status: res.status }).toEqual({ host, origin, status: 403 });
    }
    ok('another port or name refused');
  });

  it('PUBLIC_ORIGIN replaces them all (HOST adding its name: sync-server/http/security.test.ts)', async () => {
    const configured = await startTestServer({ LOG_LEVEL: 'silent', PUBLIC_ORIGIN: 'https://gigs.example' });
    onTestFinished(() => configured.cleanup());
    const login = (on: TestServer, origin: string) =>
      new TestClient(on.url, origin).post('/api/auth/login', { email: uniqueEmail(), password: PASSWORD });
    expect((await login(configured, 'https://gigs.example')).status).toBe(401);
    expect((await login(configured, configured.url)).status).toBe(403);
    ok('PUBLIC_ORIGIN: only that origin');
    const csp = (await fetch(configured.url + '/')).headers.get('content-security-policy')!;
    expect(csp).toMatch(/connect-src 'self' wss:\/\/gigs\.example https:\/\/api\.stripe\.com/);
    ok('PUBLIC_ORIGIN: connect-src names its wss origin');
  });
});
