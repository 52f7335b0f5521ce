import type pg from 'pg';

/**
 * The PostgreSQL schema, as numbered migrations applied in order at start (and by
 * `npm run db:migrate`). Each runs in its own transaction with the version it records, under one
 * advisory lock held for the whole run, so several instances starting at once apply each
 * migration exactly once: the others wait for the lock, then find it recorded. A migration, once released,
 * is never edited: a change is a new migration.
 */
export type Migration = { version: number; name: string; sql: string };

/** Arbitrary constant naming the lock every migrating instance takes ("gig-mig" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x6769672d6d6967;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'documents, index keys, chat logs, rate windows',
    sql: `
      -- Every stored document, one row per (collection, id). seq orders the change feed: it is
      -- derived from the writing transaction's id (see order.ts) so that a reader can serve only
      -- what no transaction still running can precede.
      CREATE TABLE documents (
        collection text   NOT NULL,
        id         text   NOT NULL,
        seq        bigint NOT NULL,
        deleted    boolean NOT NULL DEFAULT false,
        body       json   NOT NULL, -- json, not jsonb: kept as written (jsonb refuses NUL characters in text)
        PRIMARY KEY (collection, id)
      );
      CREATE UNIQUE INDEX documents_seq ON documents (seq);

      -- Secondary index keys, computed by the same index functions as the embedded store.
      CREATE TABLE document_keys (
        collection text NOT NULL,
        index_name text NOT NULL,
        key        text NOT NULL,
        id         text NOT NULL,
        PRIMARY KEY (collection, index_name, key, id)
      );
      CREATE INDEX document_keys_by_doc ON document_keys (collection, id);

      -- Chat: each room's log of Yjs updates. pos numbers a room's entries 1, 2, 3…: an append
      -- names the position after the last entry its instance has seen, so two instances appending
      -- to one room at once cannot both succeed (the loser catches up and tries again), and a
      -- reader that has seen position p has seen everything before it.
      CREATE TABLE chat_updates (
        room   text   NOT NULL,
        pos    bigint NOT NULL,
        update bytea  NOT NULL,
        PRIMARY KEY (room, pos)
      );

      -- Rate-limit and quota windows, shared by every instance (pg-window-counters.ts). Keys hold
      -- user-controlled text (emails, addresses); old windows are pruned by start.
      CREATE TABLE rate_windows (
        key      text    PRIMARY KEY,
        start_ms bigint  NOT NULL,
        count    integer NOT NULL,
        added    boolean NOT NULL
      );
      CREATE INDEX rate_windows_start ON rate_windows (start_ms);
    `,
  },
  {
    version: 2,
    name: 'indexes built',
    sql: `
      -- The indexes whose rows in document_keys are complete, by collection and name. An index
      -- the code has and this table lacks is built from the stored documents at start, before the
      -- instance serves; one it has and the code lacks loses its rows (index-keys.ts).
      CREATE TABLE indexes_built (
        collection text NOT NULL,
        index_name text NOT NULL,
        PRIMARY KEY (collection, index_name)
      );
    `,
  },
];

/**
 * Runs `work` on one connection holding the migrations' advisory lock: one instance at a time
 * changes the schema or the index keys (index-keys.ts), the others wait and then find it done.
 */
export async function underMigrationLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** `work` in a transaction of its own on `client`: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const value = await work();
    await client.query('COMMIT');
    return value;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

/** Applies every migration not yet recorded; returns the versions it applied. */
export async function migrate(pool: pg.Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  // One migrating instance at a time, from the creation of the version table on: two
  // instances racing on a first CREATE TABLE IF NOT EXISTS can both miss the table and collide.
  await underMigrationLock(pool, async (client) => {
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      await inTransaction(client, async () => {
        const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
        if (done.rowCount === 0) {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          applied.push(migration.version);
        }
      });
    }
  });
  return applied;
}
