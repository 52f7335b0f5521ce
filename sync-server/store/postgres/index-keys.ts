import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { IndexDefinitions, StoredDoc } from '../store';
import { MIGRATION_LOCK_KEY } from './migrations';
import { keysUnder, toDoc, type DocRow } from './pg-documents';

/**
 * The index keys of the documents already stored, kept in step with the index functions of the
 * code that runs (sync-server/indexes.ts). `document_keys` is written with each document, by the
 * functions of the instance that writes it; a decision's check at commit compares the keys it read
 * in its replica with that table's. An index added to the code would have no rows for the
 * documents written before it, and one whose function changed would keep the old function's
 * rows: every decision reading it would be refused as stale, for ever. So at start, under the
 * migrations' lock and before the instance serves, each index whose definition is not the one
 * recorded in `index_definitions` has its rows computed again from every document of its
 * collection, in one transaction; an index the code no longer has loses its rows.
 *
 * An index's definition is a hash of its function's text: a change to a helper the function calls
 * is not seen, so such a change renames the index. Instances of the old code still running while
 * one of the new code rebuilds would go on writing rows by the old definitions: an index change is
 * deployed by stopping the old instances first (docs/decisions/023-postgres-instances.md).
 */

/** Documents read per query while an index is rebuilt. */
const PAGE = 2_000;

/** What an index's rows were computed with: a hash of its key function's text. */
export function indexFingerprint(keyOf: (doc: StoredDoc) => unknown): string {
  return createHash('sha256').update(keyOf.toString()).digest('hex');
}

/** An index whose rows `reconcileIndexKeys` computed again (`documents` read) or removed. */
export type IndexRebuild = { collection: string; index: string; action: 'rebuilt' | 'removed'; documents: number };

/** One line for the server's log and the migration script. */
export function describeIndexRebuild({ collection, index, action, documents }: IndexRebuild): string {
  return action === 'rebuilt'
    ? `rebuilt the keys of index ${collection}.${index} from ${documents.toLocaleString('en-US')} documents`
    : `removed the keys of index ${collection}.${index} (no longer defined)`;
}

/**
 * Brings `document_keys` in step with `indexes`: rebuilds every index not recorded with its
 * current definition, removes the rows of every index recorded but no longer defined. Several
 * instances starting at once do it once (the migrations' advisory lock). Returns what it did.
 */
export async function reconcileIndexKeys(pool: pg.Pool, indexes: IndexDefinitions): Promise<IndexRebuild[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const { rows } = await client.query<{ collection: string; index_name: string; fingerprint: string }>(
        'SELECT collection, index_name, fingerprint FROM index_definitions',
      );
      const recorded = new Map(rows.map((r) => [JSON.stringify([r.collection, r.index_name]), r]));
      const done: IndexRebuild[] = [];
      for (const [collection, defs] of Object.entries(indexes)) {
        for (const [index, keyOf] of Object.entries(defs ?? {})) {
          const fingerprint = indexFingerprint(keyOf);
          const at = JSON.stringify([collection, index]);
          const was = recorded.get(at);
          recorded.delete(at);
          if (was?.fingerprint === fingerprint) continue;
          const documents = await inTransaction(client, () => rebuild(client, collection, index, keyOf, fingerprint));
          done.push({ collection, index, action: 'rebuilt', documents });
        }
      }
      for (const { collection, index_name: index } of recorded.values()) {
        await inTransaction(client, async () => {
          await client.query('DELETE FROM document_keys WHERE collection = $1 AND index_name = $2', [
            collection,
            index,
          ]);
          await client.query('DELETE FROM index_definitions WHERE collection = $1 AND index_name = $2', [
            collection,
            index,
          ]);
        });
        done.push({ collection, index, action: 'removed', documents: 0 });
      }
      return done;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

async function inTransaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
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

/** Computes an index's rows again from every document of its collection; returns how many were read. */
async function rebuild(
  client: pg.PoolClient,
  collection: string,
  index: string,
  keyOf: (doc: StoredDoc) => string | string[] | undefined,
  fingerprint: string,
): Promise<number> {
  await client.query('DELETE FROM document_keys WHERE collection = $1 AND index_name = $2', [collection, index]);
  let read = 0;
  let after: string | null = null;
  for (;;) {
    const { rows }: { rows: DocRow[] } = await client.query<DocRow>(
      `SELECT collection, id, seq, deleted, body FROM documents
        WHERE collection = $1 AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
      [collection, after, PAGE],
    );
    if (rows.length === 0) break;
    const keys = rows.flatMap((row) => keysUnder(collection, index, keyOf, toDoc(row)));
    if (keys.length > 0) {
      await client.query(
        `INSERT INTO document_keys (collection, index_name, key, id)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING`,
        [keys.map((k) => k.collection), keys.map((k) => k.index), keys.map((k) => k.key), keys.map((k) => k.id)],
      );
    }
    read += rows.length;
    after = rows.at(-1)!.id;
  }
  await client.query(
    `INSERT INTO index_definitions (collection, index_name, fingerprint) VALUES ($1, $2, $3)
       ON CONFLICT (collection, index_name) DO UPDATE SET fingerprint = EXCLUDED.fingerprint`,
    [collection, index, fingerprint],
  );
  return read;
}
