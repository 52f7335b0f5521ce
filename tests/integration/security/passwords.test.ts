import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWASP_SCRYPT, parseHashParams, verifyPassword } from '../../../sync-server/auth/password';
import { readConfig } from '../../../sync-server/config';
import { PASSWORD, signUp, uniqueEmail } from '../../support/fixtures';
import { TestClient } from '../../support/http-client';
import { startTestServer, type TestServer } from '../../support/in-process-server';
import { ok, reportChecks } from '../../support/security-checks';

reportChecks('passwords');

describe('4. scrypt parameters', () => {
  const SCRYPT_HASH = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;
  const credentialsOf = (on: TestServer, email: string) =>
    on.ctx.store.byIndex('credentials', 'email', email)[0]!.passwordHash as string;

  it('the default configuration is OWASP’s scrypt, and a server on defaults stores N=2^17, r=8, p=1', async () => {
    expect(OWASP_SCRYPT).toEqual({ logN: 17, r: 8, p: 1 });
    expect(readConfig({}).scryptLogN).toBe(17);
    ok('default SCRYPT_LOG_N is 17');
    // startTestServer lowers the cost; here the setting is removed so the default applies.
    const defaults = await startTestServer({ LOG_LEVEL: 'silent', SCRYPT_LOG_N: undefined } as unknown as Record<
      string,
      string
    >);
    try {
      expect(defaults.config.scryptLogN).toBe(17);
      const email = uniqueEmail();
      await signUp(new TestClient(defaults.url), { email });
      const stored = credentialsOf(defaults, email);
      expect(parseHashParams(stored)).toEqual({ logN: 17, r: 8, p: 1 });
      expect(stored.startsWith('scrypt$17$8$1$')).toBe(true);
      expect(await verifyPassword(PASSWORD, stored)).toBe(true);
      ok('a server on defaults stores scrypt$17$8$1');
    } finally {
      await defaults.cleanup();
    }
  }, 120_000);

  it('stores the configured cost with a unique 128-bit salt and a 512-bit key; older hashes verify after the setting changes', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-security-scrypt-'));
    try {
      let on = await startTestServer({ LOG_LEVEL: 'silent', SCRYPT_LOG_N: '13' }, dataDir);
      const first = uniqueEmail();
      const second = uniqueEmail();
      try {
        await signUp(new TestClient(on.url), { email: first });
        await signUp(new TestClient(on.url), { email: second });
        const [a, b] = [credentialsOf(on, first), credentialsOf(on, second)];
        for (const hash of [a, b]) {
          const m = SCRYPT_HASH.exec(hash)!;
          expect(m.slice(1, 4)).toEqual(['13', '8', '1']);
          expect(Buffer.from(m[4]!, 'base64')).toHaveLength(16);
          expect(Buffer.from(m[5]!, 'base64')).toHaveLength(64);
        }
        expect(SCRYPT_HASH.exec(a)![4]).not.toBe(SCRYPT_HASH.exec(b)![4]);
        ok('configured SCRYPT_LOG_N=13 is what is stored, salts unique');
      } finally {
        await on.cleanup();
      }
      on = await startTestServer({ LOG_LEVEL: 'silent', SCRYPT_LOG_N: '14' }, dataDir);
      try {
        expect(
          (await new TestClient(on.url).post('/api/auth/login', { email: first, password: PASSWORD })).status,
        ).toBe(200);
        expect(
          (await new TestClient(on.url).post('/api/auth/login', { email: first, password: 'Wrong12345' })).status,
        ).toBe(401);
        const third = uniqueEmail();
        await signUp(new TestClient(on.url), { email: third });
        expect(parseHashParams(credentialsOf(on, third))).toEqual({ logN: 14, r: 8, p: 1 });
        expect(parseHashParams(credentialsOf(on, first))).toEqual({ logN: 13, r: 8, p: 1 });
        ok('a hash made at another cost still verifies; new ones use the new cost');
      } finally {
        await on.cleanup();
      }
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Rate limits
