import { IDBDatabase, IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema, type RxStorage } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { internalInsertsReadFirst } from './internal-inserts';
import { noteSchema as schema, type Note as Item } from '../../tests/support/notes';
type Db = RxDatabase<{ items: RxCollection<Item>; others: RxCollection<Item> }>;

const storage = () =>
  internalInsertsReadFirst(getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>);

const open: Db[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) await db.close();
  vi.restoreAllMocks();
});

async function openDb(name: string, collections: ('items' | 'others')[] = ['items', 'others']) {
  const db: Db = await createRxDatabase({ name, storage: storage(), multiInstance: false });
  open.push(db);
  await db.addCollections(
    Object.fromEntries(
      collections.map((c) => [c, { schema }]),
    ),
  );
  return db;
}

/** Read-write IndexedDB transactions started on RxDB's internal store while `run` runs. */
async function internalWritesDuring(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const original = IDBDatabase.prototype.transaction;
  vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (
    this: IDBDatabase,
    ...args: Parameters<IDBDatabase['transaction']>
  ) {
    if (args[1] === 'readwrite' && this.name.includes('_rxdb_internal')) count++;
    return original.apply(this, args);
  });
  await run();
  vi.restoreAllMocks();
  return count;
}

describe("RxDB's internal store on open", () => {
  it('a database opened again writes nothing to it, and keeps its documents', async () => {
    const first = await internalWritesDuring(() => openDb('inserts-again'));
    expect(first).toBeGreaterThan(0); // the first open writes the token and the collections
    const before = await open[0]!.storageToken;
    await open[0]!.items.insert({ id: 'kept', text: 'kept across opens' });
    await open.pop()!.close();

    expect(await internalWritesDuring(() => openDb('inserts-again'))).toBe(0);
    const again = open[0]!;
    expect(await again.storageToken).toBe(before);
    expect((await again.items.findOne('kept').exec())?.text).toBe('kept across opens');
  });

  it('a collection added since the last open is written as RxDB writes it', async () => {
    await openDb('inserts-new-collection', ['items']);
    await open.pop()!.close();
    const writes = await internalWritesDuring(() => openDb('inserts-new-collection', ['items', 'others']));
    expect(writes).toBeGreaterThan(0);
    await open.pop()!.close();
    // Both are known now: nothing more to write.
    expect(await internalWritesDuring(() => openDb('inserts-new-collection', ['items', 'others']))).toBe(0);
  });

  it('a collection whose schema changed without a new version is still refused as RxDB refuses it (DB6)', async () => {
    await openDb('inserts-schema', ['items']);
    await open.pop()!.close();
    const db: Db = await createRxDatabase({ name: 'inserts-schema', storage: storage(), multiInstance: false });
    open.push(db);
    const changed: RxJsonSchema<Item> = { ...schema, properties: { ...schema.properties, text: { type: 'string', maxLength: 5 } } };
    await expect(db.addCollections({ items: { schema: changed } })).rejects.toMatchObject({ code: 'DB6' });
  });
});
