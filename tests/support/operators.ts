import { makeOperatorAccount } from '../../sync-server/auth/operator-accounts';
import { PASSWORD, setUpProfile, type Person, type SignedUpUser } from './fixtures';
import { TestClient } from './http-client';
import type { TestServer } from './in-process-server';

/**
 * An operator as `npm run operator` makes one (decision 031, revised): the command's own function
 * on the test server's store (tests/integration/operators.test.ts runs the command itself), then
 * signed in over HTTP with its profile set up. `email` must be one the server's OPERATOR_EMAILS lists.
 */
export async function operatorPerson(
  server: TestServer,
  account: { name: string; email: string },
  http = new TestClient(server.url),
): Promise<Person> {
  await makeOperatorAccount(server.ctx.store, server.config, { ...account, password: PASSWORD }, server.ctx.now());
  const res = await http.post<{ user: SignedUpUser; operator?: boolean }>('/api/auth/login', {
    email: account.email,
    password: PASSWORD,
  });
  if (res.status !== 200 || res.body.operator !== true)
    throw new Error(`operator login: ${res.status} ${JSON.stringify(res.body)}`);
  return { http, user: await setUpProfile(http, res.body.user) };
}
