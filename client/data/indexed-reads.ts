import { getQueryMatcher, getSortComparator } from 'rxdb';
import type { PreparedQuery, RxDocumentData, RxStorage, RxStorageQueryResult } from 'rxdb';
import {
  DEXIE_DOCS_TABLE_NAME,
  dexieReplaceIfStartsWithPipe,
  fromDexieToStorage,
  getKeyRangeByQueryPlan,
  type RxStorageInstanceDexie,
} from 'rxdb/plugins/storage-dexie';

type AnyDexieInstance = RxStorageInstanceDexie<unknown>;

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
  return new Proxy(storage, {
    get(target, prop, receiver) {
      if (prop !== 'createStorageInstance') return Reflect.get(target, prop, receiver) as unknown;
      return async (params: Parameters<RxStorage<I, O>['createStorageInstance']>[0]) =>
        readInstance(await target.createStorageInstance(params));
    },
  });
}

function readInstance<T extends object>(instance: T): T {
  const inner = instance as unknown as AnyDexieInstance;
  const query = (prepared: PreparedQuery<unknown>) => readByIndex(inner, prepared);
  return new Proxy(instance, {
    get(target, prop) {
      if (prop === 'query') return query;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
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
