import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { IndexRebuild } from '../../sync-server/store/postgres/index-keys';
import { PgStore } from '../../sync-server/store/postgres/pg-store';
import type { IndexDefinitions, StoredDoc } from '../../sync-server/store/store';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';

// A deployment's code gains, renames or loses an index (sync-server/indexes.ts) while its
// PostgreSQL database already holds documents: their keys are computed at start, before the
// instance serves, so a decision reading the index commits instead of being refused as stale.

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const BY_AUTHOR: IndexDefinitions = { gigs: { createdBy: (d: StoredDoc) => str(d.createdBy) } };
const WITH_NICHE: IndexDefinitions = {
  gigs: { createdBy: (d: StoredDoc) => str(d.createdBy), niche: (d: StoredDoc) => str(d.niche) },
};
// What the niche index computes changed: under a new name.
const NICHE_LOWERCASE: IndexDefinitions = {
  gigs: { createdBy: (d: StoredDoc) => str(d.createdBy), nicheLower: (d: StoredDoc) => str(d.niche)?.toLowerCase() },
};

const gig = (id: string, niche: string) => ({
  collection: 'gigs' as const,
  doc: { id, _deleted: false, title: `Gig ${id}`, createdBy: 'u1', niche, updatedAt: new Date().toISOString() },
});

let db: TestDatabase | undefined;
const open: PgStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await db?.drop();
  db = undefined;
});

async function start(indexes: IndexDefinitions, rebuilds: IndexRebuild[] = []): Promise<PgStore> {
  const store = await PgStore.open({
    connectionString: db!.url,
    indexes,
    poolSize: 3,
    onIndexRebuild: (r) => rebuilds.push(r),
  });
  open.push(store);
  return store;
}

async function stop(store: PgStore): Promise<void> {
  open.splice(open.indexOf(store), 1);
  await store.close();
}

/** The rows of `document_keys` for a gigs index: "key id", sorted. */
async function nicheRows(index = 'niche'): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: db!.url, max: 1 });
  try {
    const { rows } = await pool.query<{ key: string; id: string }>(
      `SELECT key, id FROM document_keys WHERE collection = 'gigs' AND index_name = $1 ORDER BY key, id`,
      [index],
    );
    return rows.map((r) => `${r.key} ${r.id}`);
  } finally {
    await pool.end();
  }
}

/** A decision that reads the niche index and writes a gig of it: its value, or the error it ended with. */
async function decideByNiche(store: PgStore, niche: string, id: string, index = 'niche'): Promise<string> {
  try {
    const { value } = await store.transaction((read) => {
      const found = read.byIndex('gigs', index, niche).map((d) => d.id);
      return { writes: [gig(id, niche)], value: found.sort().join(',') };
    });
    return value;
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
}

describe('index keys of the documents already stored', () => {
  it('an index added to the code is built at start from every stored document, and decisions reading it commit', async () => {
    db = await createTestDatabase();
    const before = await start(BY_AUTHOR);
    // More than one page of the rebuild's reads (2,000), in several transactions.
    const ids = Array.from({ length: 2_300 }, (_, i) => `g${String(i).padStart(5, '0')}`);
    for (let i = 0; i < ids.length; i += 500)
      await before.commit(ids.slice(i, i + 500).map((id, j) => gig(id, (i + j) % 2 ? 'Music' : 'Crafts')));
    await stop(before);
    expect(await nicheRows()).toEqual([]);

    const rebuilds: IndexRebuild[] = [];
    const after = await start(WITH_NICHE, rebuilds);
    expect(rebuilds).toEqual([{ collection: 'gigs', index: 'niche', action: 'built', documents: 2_300 }]);
    const rows = await nicheRows();
    expect(rows).toHaveLength(2_300);
    expect(rows.filter((r) => r.startsWith('Music '))).toHaveLength(1_150);

    // Without those rows the database's check would find the read stale at every attempt.
    const music = ids.filter((_, i) => i % 2 === 1);
    expect(await decideByNiche(after, 'Music', 'g-new')).toBe([...music].sort().join(','));
    expect(after.get('gigs', 'g-new')).toMatchObject({ niche: 'Music' });
  });

  it('an index renamed (what it computes changed) is built under its new name and the old rows go; a known one is left alone', async () => {
    db = await createTestDatabase();
    const first = await start(WITH_NICHE);
    await first.commit([gig('a', 'Music'), gig('b', 'Crafts'), gig('c', 'Music')]);
    await stop(first);
    expect(await nicheRows()).toEqual(['Crafts b', 'Music a', 'Music c']);

    const rebuilds: IndexRebuild[] = [];
    const renamed = await start(NICHE_LOWERCASE, rebuilds);
    expect(rebuilds).toEqual([
      { collection: 'gigs', index: 'nicheLower', action: 'built', documents: 3 },
      { collection: 'gigs', index: 'niche', action: 'removed', documents: 0 },
    ]);
    expect(await nicheRows('nicheLower')).toEqual(['crafts b', 'music a', 'music c']);
    expect(await nicheRows()).toEqual([]);
    expect(await decideByNiche(renamed, 'music', 'd', 'nicheLower')).toBe('a,c');
    await stop(renamed);

    rebuilds.length = 0;
    await stop(await start(NICHE_LOWERCASE, rebuilds));
    expect(rebuilds).toEqual([]);
    expect(await nicheRows('nicheLower')).toEqual(['crafts b', 'music a', 'music c', 'music d']);
  });

  it('instances starting at once rebuild an index once', async () => {
    db = await createTestDatabase();
    const first = await start(BY_AUTHOR);
    await first.commit([gig('a', 'Music'), gig('b', 'Crafts')]);
    await stop(first);

    const rebuilds: IndexRebuild[] = [];
    const [one, two, three] = await Promise.all([1, 2, 3].map(() => start(WITH_NICHE, rebuilds)));
    expect(rebuilds).toEqual([{ collection: 'gigs', index: 'niche', action: 'built', documents: 2 }]);
    expect(await nicheRows()).toEqual(['Crafts b', 'Music a']);
    for (const [store, id] of [
      [one!, 'x1'],
      [two!, 'x2'],
      [three!, 'x3'],
    ] as const) {
      expect(await decideByNiche(store, 'Crafts', id)).toMatch(/^b(,x\d)*$/);
    }
  });
});
