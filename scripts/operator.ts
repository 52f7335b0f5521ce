import { parseArgs } from 'node:util';
import { generatePassword, makeOperatorAccount, OperatorAccountRefused } from '../sync-server/auth/operator-accounts';
import { readConfig } from '../sync-server/config';
import { INDEXES } from '../sync-server/indexes';
import { openJournalStore } from '../sync-server/store/journal-store';
import { PgStore } from '../sync-server/store/postgres/pg-store';
import type { Store } from '../sync-server/store/store';

/**
 * `npm run operator -- --email ana@example.com --name "Ana Operator"`: creates the operator account
 * of an email OPERATOR_EMAILS lists, or confirms the account that already has it (decision 031,
 * revised). The password is OPERATOR_PASSWORD, or one generated and printed once. Works on the
 * store the server uses: DATABASE_URL when set (instances may keep running), else DATA_DIR (stop
 * the server first: one process owns the folder).
 */
const USAGE =
  'Usage: npm run operator -- --email <address> [--name "<name>"]   (password: OPERATOR_PASSWORD, or generated)';

const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } });
if (!values.email) {
  console.error(USAGE);
  process.exit(2);
}
const config = readConfig();
const given = process.env.OPERATOR_PASSWORD;
const password = given || generatePassword();

let store: Store;
try {
  store = config.databaseUrl
    ? await PgStore.open({ connectionString: config.databaseUrl, indexes: INDEXES, poolSize: 2 })
    : await openJournalStore({
        dataDir: config.dataDir,
        indexes: INDEXES,
        snapshotIntervalMs: config.snapshotIntervalMs,
        snapshotEveryCommits: config.snapshotEveryCommits,
      });
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
try {
  const done = await makeOperatorAccount(
    store,
    config,
    { email: values.email, ...(values.name !== undefined ? { name: values.name } : {}), password },
    Date.now(),
  );
  const email = values.email.trim().toLowerCase();
  console.log(
    done.created
      ? `Created the operator account ${email}.`
      : `The account ${email} is now an operator. Its password was replaced and ${done.sessionsEnded} session(s) ended.`,
  );
  if (!given) console.log(`Password (shown once): ${password}`);
} catch (err) {
  console.error(err instanceof OperatorAccountRefused ? err.message : err);
  process.exitCode = 1;
} finally {
  await store.close();
}
