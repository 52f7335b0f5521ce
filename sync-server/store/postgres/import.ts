import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type pg from 'pg';
import { loadDataDir } from '../load';
import { lockDataDir } from '../lock';
import type { CollectionName, IndexDefinitions, StoredDoc } from '../store';
import { reconcileIndexKeys } from './index-keys';
import { migrate } from './migrations';
import { ROWS_PER_TRANSACTION } from './order';
import { PgDocuments } from './pg-documents';

/**
 * Moves an embedded store (a data folder) into an empty PostgreSQL database: every document of
 * every collection (tombstones included, so devices still learn of deletions), and every chat log.
 * The data folder is locked for the whole run, so a server still using it makes the import refuse
 * instead of copying a moving target. Each collection is then read back from PostgreSQL and
 * compared with the source by count and checksum.
 */

export type CollectionSummary = { count: number; checksum: string };
export type ImportSummary = {
  collections: Partial<Record<CollectionName, CollectionSummary>>;
  chat: { rooms: number; updates: number; checksum: string };
};

export class ImportRefused extends Error {}

/** JSON with keys sorted at every level, so equal documents hash equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Count and checksum of documents, ignoring `_seq` (each store numbers its own writes). */
export function summarise(docs: Iterable<StoredDoc>): CollectionSummary {
  const lines: string[] = [];
  for (const doc of docs) {
    const { _seq, ...rest } = doc;
    lines.push(canonical(rest));
  }
  lines.sort();
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line).update('\n');
  return { count: lines.length, checksum: hash.digest('hex') };
}

function summariseChat(logs: Map<string, Uint8Array[]>): ImportSummary['chat'] {
  const hash = createHash('sha256');
  let updates = 0;
  for (const room of [...logs.keys()].sort()) {
    hash.update(room).update('\n');
    for (const update of logs.get(room) ?? []) {
      hash.update(Buffer.from(update).toString('base64')).update('\n');
      updates += 1;
    }
  }
  return { rooms: logs.size, updates, checksum: hash.digest('hex') };
}

export async function importDataDir(options: {
  from: string;
  pool: pg.Pool;
  connectionString: string;
  indexes: IndexDefinitions;
}): Promise<ImportSummary> {
  const found = await fs.stat(options.from).then(
    (st) => st.isDirectory(),
    () => false,
  );
  if (!found) throw new ImportRefused(`There is no data folder at ${options.from}.`);
  const lock = await lockDataDir(options.from).catch((err: Error) => {
    throw new ImportRefused(`The data folder ${options.from} is in use (${err.message}). Stop its server first.`);
  });
  try {
    await migrate(options.pool);
    const { rows } = await options.pool.query<{ used: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM documents) OR EXISTS (SELECT 1 FROM chat_updates) AS used',
    );
    if (rows[0]?.used) throw new ImportRefused('The database already holds data: import only into an empty database.');
    // Records the indexes as built (nothing to build in an empty database): the copy's keys are
    // computed with them below, and the first start has nothing to do.
    await reconcileIndexKeys(options.pool, options.indexes);

    const { memory } = await loadDataDir(options.from, options.indexes);
    const target = new PgDocuments({
      pool: options.pool,
      connectionString: options.connectionString,
      indexes: options.indexes,
    });
    const source: ImportSummary = { collections: {}, chat: summariseChat(memory.chat) };
    for (const collection of memory.collectionNames()) {
      const docs = [...memory.all(collection)];
      source.collections[collection] = summarise(docs);
      for (let i = 0; i < docs.length; i += ROWS_PER_TRANSACTION) {
        await target.commit(docs.slice(i, i + ROWS_PER_TRANSACTION).map((doc) => ({ collection, doc })));
      }
    }
    for (const [room, updates] of memory.chat) await target.writeChatLog(room, updates);

    const copied: ImportSummary = { collections: {}, chat: { rooms: 0, updates: 0, checksum: '' } };
    for (const collection of memory.collectionNames())
      copied.collections[collection] = summarise(await target.all(collection));
    const rooms = new Map<string, Uint8Array[]>();
    for (const room of memory.chat.keys()) rooms.set(room, (await target.chatLog(room)).updates);
    copied.chat = summariseChat(rooms);
    if (canonical(copied) !== canonical(source)) {
      throw new Error(
        `The copy does not match its source.\nsource: ${canonical(source)}\ncopy:   ${canonical(copied)}`,
      );
    }
    return copied;
  } finally {
    await lock.release();
  }
}
