import { IDBIndex, IDBKeyRange, IDBObjectStore, indexedDB } from 'fake-indexeddb';
import {
  createRxDatabase,
  type MangoQuery,
  type RxCollection,
  type RxDatabase,
  type RxJsonSchema,
  type RxStorage,
} from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { indexedReads, keyRangeGets } from './indexed-reads';

type Item = { id: string; group: string; rank: number; flag: boolean; text: string };

const schema: RxJsonSchema<Item> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 20 },
    group: { type: 'string', maxLength: 4 },
    rank: { type: 'integer', minimum: 0, maximum: 1000, multipleOf: 1 },
    flag: { type: 'boolean' },
    text: { type: 'string' },
  },
  required: ['id', 'group', 'rank', 'flag', 'text'],
  indexes: ['rank', ['group', 'rank'], 'flag'],
};

/** 120 items over three groups, ranks out of order and repeated, some deleted afterwards. */
const items: Item[] = Array.from({ length: 120 }, (_, i) => ({
  id: `item-${String(i).padStart(3, '0')}`,
  group: ['a', 'b', 'c'][i % 3]!,
  rank: (i * 37) % 100,
  flag: i % 4 === 0,
  text: `${['blue', 'red', 'green', 'gold'][i % 4]} ${(i * 13) % 29}`,
}));
const removed = items.filter((_, i) => i % 10 === 7).map((item) => item.id);

type Db = RxDatabase<{ items: RxCollection<Item> }>;
const dexie = () => getRxStorageDexie({ indexedDB, IDBKeyRange }) as RxStorage<unknown, unknown>;
/** As the browser's storage reads (browser-storage.ts), over fake-indexeddb. */
const reading = () =>
  indexedReads(
    getRxStorageDexie({ indexedDB, IDBKeyRange, onCreate: (db) => void db.use(keyRangeGets) }) as RxStorage<
      unknown,
      unknown
    >,
  );

let plain: Db;
let wrapped: Db;

async function open(name: string, storage: RxStorage<unknown, unknown>): Promise<Db> {
  const db: Db = await createRxDatabase({ name, storage, multiInstance: false });
  await db.addCollections({ items: { schema } });
  await db.items.bulkInsert(items);
  await db.items.find({ selector: { id: { $in: removed } } }).remove();
  return db;
}

beforeAll(async () => {
  plain = await open('reads-plain', dexie());
  wrapped = await open('reads-wrapped', reading());
});

afterAll(async () => {
  await plain.close();
  await wrapped.close();
});

const ids = async (db: Db, query: MangoQuery<Item>) => (await db.items.find(query).exec()).map((d) => d.id);

/** IndexedDB cursors opened on an index while `run` runs. */
const cursorsDuring = (run: () => Promise<unknown>) => callsDuring(IDBIndex.prototype, 'openCursor', run);
/** Documents read one by one (`get` on a table) while `run` runs. */
const getsDuring = (run: () => Promise<unknown>) => callsDuring(IDBObjectStore.prototype, 'get', run);

async function callsDuring<T extends object>(on: T, method: keyof T & string, run: () => Promise<unknown>) {
  const spy = vi.spyOn(on, method as never);
  try {
    await run();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe('indexedReads', () => {
  const queries: [string, MangoQuery<Item>][] = [
    ['everything, by primary key', {}],
    ['an index range, sorted by it, with a limit', { selector: { rank: { $gte: 20 } }, sort: [{ rank: 'asc' }], limit: 7 }],
    ['the same with a skip', { selector: { rank: { $gte: 20 } }, sort: [{ rank: 'asc' }], skip: 5, limit: 7 }],
    ['an exclusive range on both ends', { selector: { rank: { $gt: 10, $lt: 40 } }, sort: [{ rank: 'asc' }] }],
    ['a compound index, equal then sorted', { selector: { group: 'b' }, sort: [{ rank: 'asc' }, { id: 'asc' }], limit: 6 }],
    ['a boolean index', { selector: { flag: true } }],
    ['a selector no index answers', { selector: { text: { $regex: '^gold' } } }],
    ['a sort no index gives, with a limit', { sort: [{ text: 'desc' }, { id: 'asc' }], limit: 9 }],
    ['an index order with a selector it does not answer, limited', { selector: { text: { $regex: '^red' } }, sort: [{ rank: 'asc' }], limit: 4 }],
    ['a limit of nothing', { selector: { rank: { $gte: 0 } }, sort: [{ rank: 'asc' }], limit: 0 }],
    ['a range holding nothing', { selector: { rank: { $gt: 1000 } }, sort: [{ rank: 'asc' }] }],
  ];

  it.each(queries)('answers like RxDB’s own Dexie query: %s', async (_, query) => {
    const expected = await ids(plain, query);
    expect(await ids(wrapped, query)).toEqual(expected);
  });

  it('never returns a deleted document', async () => {
    const all = await ids(wrapped, {});
    expect(all).toHaveLength(items.length - removed.length);
    expect(all.some((id) => removed.includes(id))).toBe(false);
  });

  it('returns documents whole, booleans as booleans', async () => {
    const [doc] = await wrapped.items.find({ selector: { flag: true }, sort: [{ id: 'asc' }], limit: 1 }).exec();
    expect(doc?.toJSON()).toEqual(items[0]);
  });

  it('reads an index range in one request instead of a cursor', async () => {
    const query: MangoQuery<Item> = { selector: { rank: { $gte: 0 } }, sort: [{ rank: 'asc' }], limit: 50 };
    expect(await cursorsDuring(() => plain.items.find(query).exec())).toBeGreaterThan(0);
    expect(await cursorsDuring(() => wrapped.items.find(query).exec())).toBe(0);
    expect(await cursorsDuring(() => wrapped.items.find().exec())).toBe(0);
  });

  it('keeps the cursor where it stops early: an index order, a selector it does not answer, a limit', async () => {
    // Not a query asked before: RxDB answers a repeated query from its cache, reading nothing.
    const query: MangoQuery<Item> = { selector: { text: { $regex: '^blue' } }, sort: [{ rank: 'asc' }], limit: 3 };
    expect(await cursorsDuring(() => wrapped.items.find(query).exec())).toBeGreaterThan(0);
  });

  it('sees a write at once', async () => {
    await wrapped.items.insert({ id: 'item-new', group: 'a', rank: 0, flag: false, text: 'new' });
    expect(await ids(wrapped, { selector: { rank: { $gte: 0 } }, sort: [{ rank: 'asc' }, { id: 'asc' }], limit: 1 })).toEqual([
      'item-000',
    ]);
    expect(await ids(wrapped, { selector: { group: 'a', rank: 0 } })).toEqual(['item-000', 'item-new']);
    await wrapped.items.findOne('item-new').remove();
  });
});

describe('keyRangeGets', () => {
  const fresh = (from: number, n: number): Item[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `more-${String(from + i).padStart(3, '0')}`,
      group: 'c',
      rank: (from + i) % 100,
      flag: false,
      text: `more ${from + i}`,
    }));

  it('writes a batch of new ids without reading them one by one, and stores them all', async () => {
    const batch = fresh(0, 30);
    expect(await getsDuring(() => plain.items.bulkInsert(batch))).toBeGreaterThanOrEqual(30);
    expect(await getsDuring(() => wrapped.items.bulkInsert(batch))).toBe(0);
    expect(await ids(wrapped, { selector: { group: 'c' } })).toEqual(await ids(plain, { selector: { group: 'c' } }));
  });

  it('finds a conflict on an id already stored, among new ones, as RxDB’s own reads do', async () => {
    const batch = [...fresh(30, 10), ...fresh(25, 5)]; // the last five ids exist (25–29)
    const [mine, theirs] = [await wrapped.items.bulkInsert(batch), await plain.items.bulkInsert(batch)];
    expect(mine.error.map((e) => [e.documentId, e.status])).toEqual(theirs.error.map((e) => [e.documentId, e.status]));
    expect(mine.error.map((e) => e.documentId).sort()).toEqual(['more-025', 'more-026', 'more-027', 'more-028', 'more-029']);
    expect(mine.success).toHaveLength(theirs.success.length);
  });

  it('updates documents read by range with their stored state, deleted ones included', async () => {
    const batch = fresh(0, 12).map((item) => ({ ...item, text: `${item.text}, changed` }));
    await wrapped.items.bulkUpsert(batch);
    await plain.items.bulkUpsert(batch);
    const found = async (db: Db) => [...(await db.items.findByIds([...batch.map((b) => b.id), 'more-999', removed[0]!]).exec()).values()].map((d) => d.toJSON());
    expect(await found(wrapped)).toEqual(await found(plain));
    expect((await found(wrapped)).map((d) => d.text)).toContain('more 3, changed');
  });

  it('reads ids spread across many stored documents one by one', async () => {
    // Every tenth item: the range between the first and the last holds ten times as many rows.
    const spread = items.filter((_, i) => i % 10 === 1).map((item) => ({ ...item, text: `${item.text}!` }));
    const keyReads = vi.spyOn(IDBObjectStore.prototype, 'getAllKeys');
    const counts = vi.spyOn(IDBObjectStore.prototype, 'count');
    try {
      expect(await getsDuring(() => wrapped.items.bulkUpsert(spread))).toBeGreaterThanOrEqual(spread.length);
      // It looked at no more of the range than it could use: its keys up to one past two per id
      // asked (RxDB reads these ids twice, the second time fewer of them).
      // (Dexie passes the limit as `count`, in an options object where IndexedDB takes one.)
      const limits = keyReads.mock.calls.map(([query, count]: unknown[]) =>
        query && typeof query === 'object' && 'count' in query ? query.count : count,
      );
      expect(limits.length).toBeGreaterThan(0);
      expect(limits.every((most) => typeof most === 'number' && most <= spread.length * 2 + 1)).toBe(true);
      expect(counts).not.toHaveBeenCalled();
    } finally {
      keyReads.mockRestore();
      counts.mockRestore();
    }
    expect((await wrapped.items.findOne(spread[3]!.id).exec())?.text).toBe(spread[3]!.text);
  });

  it('reads ids named like what every object inherits as any other id', async () => {
    const db: Db = await createRxDatabase({ name: 'reads-hostile', storage: reading(), multiInstance: false });
    try {
      await db.addCollections({ items: { schema } });
      const item = (id: string, i: number) => ({ id, group: 'a', rank: 500 + i, flag: false, text: id });
      const stored = ['toString', '__proto__', 'zz-0', 'zz-1', 'zz-2', 'zz-3', 'zz-4', 'zz-5'];
      const hostile = [...stored, 'constructor', 'hasOwnProperty', 'valueOf', 'zz-6'];
      // Read by their key range: first empty, then holding some of them.
      expect(await getsDuring(() => db.items.bulkInsert(stored.map(item)))).toBe(0);
      let answer: Awaited<ReturnType<typeof db.items.bulkInsert>> | undefined;
      expect(await getsDuring(async () => (answer = await db.items.bulkInsert(hostile.map(item))))).toBe(0);
      // Only the stored ids conflict: an id not stored is not found on some inherited property.
      expect(answer!.error.map((e) => e.documentId).sort()).toEqual([...stored].sort());
      const found = await db.items.findByIds(hostile).exec();
      expect(hostile.map((id) => found.get(id)?.text)).toEqual(hostile);
    } finally {
      await db.close();
    }
  });
});
