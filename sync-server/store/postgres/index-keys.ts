import type pg from 'pg';
import type { IndexDefinitions, StoredDoc } from '../store';
import { inTransaction, underMigrationLock } from './migrations';
import { keysUnder, toDoc, type DocRow } from './pg-documents';

/**
 * The index keys of the documents already stored, kept in step with the indexes of the code that
 * runs (sync-server/indexes.ts). `document_keys` is written with each document, by the index
 * functions of the instance that writes it, and a decision's check at commit compares the keys it
 * read in its replica with that table's. An index added to the code would have no rows for the
 * documents written before it: every decision reading it would be refused as stale, for ever. So
 * at start, under the migrations' lock and before the instance serves, each index of the code not
 * recorded in `indexes_built` has its rows computed from every document of its collection, in one
 * transaction, and is recorded; a recorded index the code no longer has loses its rows.
 *
 * An index is known by its collection and name. Changing what an index's function computes gives
 * it a new name (its rows are built afresh, the old name's removed): the function's text cannot
 * tell, since the same source reads differently under each TypeScript runner (measured: tsx
 * prints `void 0` where Vitest prints `undefined`, and each names imports its own way). Instances
 * of the old code still running while one of the new code builds would go on writing no rows for
 * the new index: a deployment that adds or renames an index stops the old instances first
 * (docs/decisions/023-postgres-instances.md).
 */

/** Documents read per query while an index is built. */
const PAGE = 2_000;

/** An index whose rows `reconcileIndexKeys` built (`documents` read) or removed. */
export type IndexRebuild = { collection: string; index: string; action: 'built' | 'removed'; documents: number };

/** One line for the server's log and the migration script. */
export function describeIndexRebuild({ collection, index, action, documents }: IndexRebuild): string {
  return action === 'built'
    ? `built the keys of index ${collection}.${index} from ${documents.toLocaleString('en-US')} documents`
    : `removed the keys of index ${collection}.${index} (no longer defined)`;
}

/**
 * Brings `document_keys` in step with `indexes`: builds every index not yet recorded, removes the
 * rows of every index recorded but no longer defined. Several instances starting at once do it
 * once (the migrations' advisory lock). Returns what it did.
 */
export function reconcileIndexKeys(pool: pg.Pool, indexes: IndexDefinitions): Promise<IndexRebuild[]> {
  return underMigrationLock(pool, async (client) => {
    const { rows } = await client.query<{ collection: string; index_name: string }>(
      'SELECT collection, index_name FROM indexes_built',
    );
    const recorded = new Map(rows.map((r) => [JSON.stringify([r.collection, r.index_name]), r]));
    const done: IndexRebuild[] = [];
    for (const [collection, defs] of Object.entries(indexes)) {
      for (const [index, keyOf] of Object.entries(defs ?? {})) {
        if (recorded.delete(JSON.stringify([collection, index]))) continue;
        const documents = await inTransaction(client, () => build(client, collection, index, keyOf));
        done.push({ collection, index, action: 'built', documents });
      }
    }
    for (const { collection, index_name: index } of recorded.values()) {
      await inTransaction(client, async () => {
        const at = [collection, index];
        await client.query('DELETE FROM document_keys WHERE collection = $1 AND index_name = $2', at);
        await client.query('DELETE FROM indexes_built WHERE collection = $1 AND index_name = $2', at);
      });
      done.push({ collection, index, action: 'removed', documents: 0 });
    }
    return done;
  });
}

/** Computes an index's rows from every document of its collection and records it; returns how many were read. */
async function build(
  client: pg.PoolClient,
  collection: string,
  index: string,
  keyOf: (doc: StoredDoc) => string | string[] | undefined,
): Promise<number> {
  // Rows a crash or an older deployment left under the name: computed again from the documents.
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
  await client.query('INSERT INTO indexes_built (collection, index_name) VALUES ($1, $2)', [collection, index]);
  return read;
}
