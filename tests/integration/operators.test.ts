import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUp } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { releaseStore, storeEnvFor } from '../support/store-under-test';
import { openDispute, paidWork, resolveDispute, statusOf, type Work } from '../support/work';

/**
 * Who is an operator (decision 031, revised): the web sign-up refuses an email OPERATOR_EMAILS
 * lists, operator accounts come from `npm run operator` (run here as a child process on the
 * server's store: the data folder, or its PostgreSQL database), and an account that merely has a
 * listed email (it signed up before the email was listed) is not an operator until the command
 * takes it over. Runs on both stores.
 */

const OPS = 'ops.lead@example.com';
const SQUAT = 'squatter@example.com';
const LISTED = `${OPS}, ${SQUAT}`;
const run = promisify(execFile);
let dir: string;
let server: TestServer | undefined;
let squatter: TestClient;
let work: Work;
let generated: string;

async function start(operatorEmails: string) {
  await server?.close();
  server = await startTestServer({ LOG_LEVEL: 'silent', OPERATOR_EMAILS: operatorEmails }, dir);
  return server;
}

/** `npm run operator -- …` on the folder's store, with the server stopped (one process owns a data folder). */
async function operatorCommand(args: string[], env: Record<string, string> = {}) {
  await server?.close();
  server = undefined;
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'operator', '--', ...args], {
      env: {
        ...process.env,
        DATA_DIR: dir,
        SCRYPT_LOG_N: '12',
        LOG_LEVEL: 'silent',
        OPERATOR_EMAILS: LISTED,
        ...(await storeEnvFor(dir)),
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const login = (client: TestClient, email: string, password: string) =>
  client.post<{ user?: { id: string }; operator?: boolean; error?: string }>('/api/auth/login', { email, password });
const session = (client: TestClient) => client.get<{ operator?: boolean }>('/api/auth/session');

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-operators-'));
  // Before the squatter's email is listed: an ordinary sign-up.
  const first = await start('');
  squatter = new TestClient(first.url);
  await signUp(squatter, { name: 'Sly Squatter', email: SQUAT });
});
afterAll(async () => {
  await server?.close();
  await fs.rm(dir, { recursive: true, force: true });
  await releaseStore(dir);
});

describe('operator accounts', () => {
  it('the web sign-up refuses an email OPERATOR_EMAILS lists, however it is typed', async () => {
    const s = await start(LISTED);
    for (const email of [OPS, ' Ops.Lead@EXAMPLE.com ']) {
      const res = await new TestClient(s.url).post<{ error: string }>('/api/auth/signup', {
        name: 'Mallory',
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        termsAccepted: true,
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error:
          'This email is reserved for an operator of Creative Gigs. Operator accounts are created by the people who run the server, not by signing up.',
      });
    }
    expect([...s.ctx.store.all('credentials')].filter((c) => c.email === OPS)).toHaveLength(0);
  });

  it('an account that merely has a listed email (signed up before it was listed) is not an operator', async () => {
    const s = await start(LISTED);
    squatter = new TestClient(s.url);
    const res = await login(squatter, SQUAT, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.operator).toBeUndefined();
    expect((await session(squatter)).body.operator).toBeUndefined();
    expect((await squatter.get('/api/operator/disputes')).status).toBe(404);
    work = await paidWork(s, { name: 'simulated' });
    expect((await openDispute(s, work.buyer.http, work.applicationId, 'Nothing arrived')).refusal).toBeUndefined();
    expect((await resolveDispute(squatter, work.applicationId, 'refund')).status).toBe(404);
    expect(statusOf(s, work.applicationId)).toBe('DISPUTED');
  });

  it('`npm run operator` creates an operator account with a generated password printed once, and refuses an unlisted email', async () => {
    const made = await operatorCommand(['--email', OPS, '--name', 'Opal Operator']);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`Created the operator account ${OPS}.`);
    generated = /Password \(shown once\): (\S+)/.exec(made.stdout)?.[1] ?? '';
    expect(generated).toMatch(/^[A-Za-z0-9]{20}$/);

    const unlisted = await operatorCommand(['--email', 'someone@example.com', '--name', 'Someone']);
    expect(unlisted.code).toBe(1);
    expect(unlisted.stderr).toContain('someone@example.com is not listed in OPERATOR_EMAILS');
  });

  it('the command’s account is an operator and resolves the dispute', async () => {
    const s = await start(LISTED);
    const ops = new TestClient(s.url);
    expect((await login(ops, OPS, generated)).body.operator).toBe(true);
    const resolved = await resolveDispute(ops, work.applicationId, 'refund');
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'REFUNDED', settlement: { by: 'operator', refund: 46350 } });
  });

  it('the command takes over an existing account with a listed email: new password, its sessions ended, then an operator', async () => {
    const confirmed = await operatorCommand(['--email', SQUAT], { OPERATOR_PASSWORD: 'TakenOver2026' });
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toContain(`The account ${SQUAT} is now an operator.`);
    expect(confirmed.stdout).not.toContain('Password (shown once)');
    const s = await start(LISTED);
    const old = TestClient.withSession(s.url, squatter.sessionToken());
    expect((await session(old)).status).toBe(401);
    expect((await login(new TestClient(s.url), SQUAT, PASSWORD)).status).toBe(401);
    const owner = new TestClient(s.url);
    expect((await login(owner, SQUAT, 'TakenOver2026')).body.operator).toBe(true);
  });

  it('an email taken off OPERATOR_EMAILS takes the role away', async () => {
    const s = await start(SQUAT);
    const ops = new TestClient(s.url);
    expect((await login(ops, OPS, generated)).body.operator).toBeUndefined();
    expect((await ops.get('/api/operator/disputes')).status).toBe(404);
  });
});
