import { migrate } from '../sync-server/store/postgres/migrations';
import { createPool } from '../sync-server/store/postgres/pool';

/** `npm run db:migrate`: applies the PostgreSQL store's pending migrations to DATABASE_URL. */
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('Set DATABASE_URL to the PostgreSQL database to migrate, e.g. postgres://user:password@host:5432/gigs');
  process.exit(2);
}
const pool = createPool(url, 2);
try {
  const applied = await migrate(pool);
  console.log(applied.length > 0 ? `Applied migrations ${applied.join(', ')}.` : 'The schema is up to date.');
} finally {
  await pool.end();
}
