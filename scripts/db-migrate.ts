import { INDEXES } from '../sync-server/indexes';
import { describeIndexRebuild, reconcileIndexKeys } from '../sync-server/store/postgres/index-keys';
import { migrate } from '../sync-server/store/postgres/migrations';
import { createPool } from '../sync-server/store/postgres/pool';

/**
 * `npm run db:migrate`: applies the PostgreSQL store's pending migrations to DATABASE_URL, and
 * builds the keys of the indexes added since (which every start also does, before serving: run
 * here, a long build happens before the instances start).
 */
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('Set DATABASE_URL to the PostgreSQL database to migrate, e.g. postgres://user:password@host:5432/gigs');
  process.exit(2);
}
const pool = createPool(url, 2);
try {
  const applied = await migrate(pool);
  console.log(applied.length > 0 ? `Applied migrations ${applied.join(', ')}.` : 'The schema is up to date.');
  const changed = await reconcileIndexKeys(pool, INDEXES);
  for (const r of changed) console.log(`Index keys: ${describeIndexRebuild(r)}.`);
  if (changed.length === 0) console.log('The index keys are up to date.');
} finally {
  await pool.end();
}
