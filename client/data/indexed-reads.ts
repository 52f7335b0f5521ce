import { getQueryMatcher, getSortComparator } from 'rxdb';
import type { PreparedQuery, RxDocumentData, RxStorage, RxStorageQueryResult } from 'rxdb';
import {
  DEXIE_DOCS_TABLE_NAME,
  dexieReplaceIfStartsWithPipe,
  fromDexieToStorage,
  getKeyRangeByQueryPlan,
  type getRxStorageDexie,
  type RxStorageInstanceDexie,
} from 'rxdb/plugins/storage-dexie';
import { overrideInstances } from './storage-overrides';

type AnyDexieInstance = RxStorageInstanceDexie<unknown>;

// Dexie's types as RxDB's own copy of Dexie declares them (the project's `dexie` may differ).
type DexieDb = Parameters<NonNullable<NonNullable<Parameters<typeof getRxStorageDexie>[0]>['onCreate']>>[0];
type CoreMiddleware = Parameters<DexieDb['use']>[0];
type CoreTable = ReturnType<Parameters<CoreMiddleware['create']>[0]['table']>;
type GetManyRequest = Parameters<CoreTable['getMany']>[0];
type RangeType = Parameters<CoreTable['count']>[0]['query']['range']['type'];

/**
 * A Dexie storage whose queries read their rows in one IndexedDB request (`getAll` on the query
 * plan's index) instead of RxDB's cursor, which asks IndexedDB once per row. Each of those asks is
 * a round trip to the browser's storage process: reading the board's 10k gigs took 170–240 ms by
 * cursor and 110 ms by `getAll` on this machine, the first 50 gigs 3 ms and under 1 ms, and after a
 * reload, with every collection opening at once, the first 50 gigs waited ~60 ms behind the other
 * cursors (decision 008). The results are RxDB's own: the same index and key range from the same
 * query plan, the same matcher and sort where the index does not settle them, the same skip and
 * limit. One query keeps RxDB's cursor: a limit whose order the index gives but whose selector it
 * does not, where the cursor stops at the limit and `getAll` could only read every row in range.
 */
export function indexedReads<I, O>(storage: RxStorage<I, O>): RxStorage<I, O> {
  return overrideInstances(storage, (inner) => ({
    query: (prepared) => readByIndex(inner as unknown as AnyDexieInstance, prepared),
  }));
}

async function readByIndex(
  instance: AnyDexieInstance,
  prepared: PreparedQuery<unknown>,
): Promise<RxStorageQueryResult<unknown>> {
  const { query, queryPlan } = prepared;
  const skip = query.skip ?? 0;
  const limit = typeof query.limit === 'number' ? query.limit : Infinity;
  // The cursor stops at the limit; reading by `getAll` would read every row the index gives.
  if (limit !== Infinity && queryPlan.sortSatisfiedByIndex && !queryPlan.selectorSatisfiedByIndex) {
    return instance.query(prepared);
  }
  const state = await instance.internals;
  const dexie = state.dexieDb as unknown as { _options: { IDBKeyRange?: typeof IDBKeyRange } };
  let range: IDBKeyRange;
  try {
    range = getKeyRangeByQueryPlan(state.booleanIndexes, queryPlan, dexie._options.IDBKeyRange) as IDBKeyRange;
  } catch (error) {
    if ((error as { name?: string }).name === 'DataError') return { documents: [] };
    throw error;
  }
  const settled = queryPlan.sortSatisfiedByIndex && queryPlan.selectorSatisfiedByIndex;
  const indexName = `[${queryPlan.index.map((field) => dexieReplaceIfStartsWithPipe(field)).join('+')}]`;
  let stored: unknown[] = [];
  await state.dexieDb.transaction('r', state.dexieTable, async (transaction) => {
    const store = (transaction as unknown as { idbtrans: IDBTransaction }).idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME);
    const request = store.index(indexName).getAll(range, settled && limit !== Infinity ? skip + limit : undefined);
    stored = await new Promise<unknown[]>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result as unknown[]);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB read failed'));
    });
  });
  let rows = stored.map((row) => fromDexieToStorage<unknown>(state.booleanIndexes, row));
  if (!queryPlan.selectorSatisfiedByIndex) {
    const matches = getQueryMatcher(instance.schema, query);
    rows = rows.filter((row) => matches(row as RxDocumentData<unknown>));
  }
  if (!queryPlan.sortSatisfiedByIndex) rows.sort(getSortComparator(instance.schema, query));
  return { documents: rows.slice(skip, skip + limit) };
}

/** Fewer keys than this are read one by one: a key range costs a read of its keys first. */
const RANGE_MIN_KEYS = 8;
/** A key range is read whole only while it holds at most this many rows per key asked for. */
const RANGE_ROWS_PER_KEY = 2;
/** Dexie's `DBCoreRangeType.Range` (a `const enum`, which isolated modules cannot read). */
const KEY_RANGE = 2 as RangeType;

/**
 * A Dexie middleware (given to Dexie through RxDB's `onCreate` setting) for the documents' table:
 * reading many documents by id (RxDB reads every document it is about to write, and the
 * replication reads its own state of every document it pulls) asks IndexedDB once per key, each
 * a request the main thread makes and answers: 0.6 s of the first sync of 10k gigs on this
 * machine, nearly all of it for ids the device does not hold yet. When the ids' key range holds
 * few other rows (a pulled batch is in id order; a new device holds none), it reads the range's
 * keys, stopping past two per id asked (a wide range costs a bounded look, not a walk of it all),
 * then, unless the range is empty, the range's documents in one request, and answers each id
 * from those. Otherwise, and for a handful of ids, Dexie's own reads. The answer is the same
 * either way: one entry per key asked, in order, `undefined` where no document is stored.
 */
export const keyRangeGets: CoreMiddleware = {
  stack: 'dbcore',
  name: 'keyRangeGets',
  create: (down) => ({
    ...down,
    table(name: string): CoreTable {
      const table = down.table(name);
      if (name !== DEXIE_DOCS_TABLE_NAME) return table;
      return { ...table, getMany: (request) => getManyByRange(table, request) };
    },
  }),
};

async function getManyByRange(table: CoreTable, request: GetManyRequest): Promise<unknown[]> {
  const { keys, trans } = request;
  const primary = table.schema.primaryKey;
  if (keys.length < RANGE_MIN_KEYS || !primary.extractKey || keys.some((key) => typeof key !== 'string')) {
    return table.getMany(request);
  }
  const ids = keys as string[];
  let lower = ids[0]!;
  let upper = ids[0]!;
  for (const id of ids) {
    if (id < lower) lower = id;
    if (id > upper) upper = id;
  }
  const query = { index: primary, range: { type: KEY_RANGE, lower, upper, lowerOpen: false, upperOpen: false } };
  // The range's keys, up to one more than it may hold (a count would walk the whole range).
  const most = ids.length * RANGE_ROWS_PER_KEY;
  const held = await table.query({ trans, values: false, limit: most + 1, query });
  if (held.result.length > most) return table.getMany(request);
  if (held.result.length === 0) return ids.map(() => undefined);
  const { result } = await table.query({ trans, values: true, query });
  const extractKey = primary.extractKey;
  const byId = new Map(result.map((row) => [extractKey(row) as string, row as unknown]));
  return ids.map((id) => byId.get(id));
}
