import path from 'node:path';
import { parseArgs } from 'node:util';
import { INDEXES } from '../sync-server/indexes';
import { ImportRefused, importDataDir } from '../sync-server/store/postgres/import';
import { createPool } from '../sync-server/store/postgres/pool';

/**
 * `npm run db:import -- --from ./data`: copies an embedded store into the empty PostgreSQL
 * database DATABASE_URL names, then checks the copy (counts and a checksum per collection).
 */
const { values } = parseArgs({ options: { from: { type: 'string', default: './data' } } });
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('Set DATABASE_URL to the empty PostgreSQL database to import into.');
  process.exit(2);
}
const from = path.resolve(values.from ?? './data');
const pool = createPool(url, 4);
try {
  const summary = await importDataDir({ from, pool, connectionString: url, indexes: INDEXES });
  for (const [collection, { count, checksum }] of Object.entries(summary.collections)) {
    console.log(`${collection.padEnd(14)} ${String(count).padStart(8)}  sha256 ${checksum.slice(0, 16)}…  verified`);
  }
  const { rooms, updates, checksum } = summary.chat;
  console.log(
    `${'chat logs'.padEnd(14)} ${String(rooms).padStart(8)}  rooms, ${updates} updates, sha256 ${checksum.slice(0, 16)}…  verified`,
  );
  console.log(`Imported ${from} into PostgreSQL.`);
} catch (err) {
  console.error(err instanceof ImportRefused ? err.message : err);
  process.exitCode = 1;
} finally {
  await pool.end();
}
