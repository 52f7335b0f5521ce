import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INDEXES } from '../../sync-server/indexes';
import { migrate, MIGRATIONS } from '../../sync-server/store/postgres/migrations';
import { seqSql } from '../../sync-server/store/postgres/order';
import { CHAT_HEADS_SQL, FEED_SQL, PgDocuments, type Expected } from '../../sync-server/store/postgres/pg-documents';
import { STATISTICS } from '../../sync-server/store/postgres/statistics';
import type { Change, DocWrite } from '../../sync-server/store/store';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';
import { waitFor } from '../support/wait';

// The PostgreSQL store's database half against a real PostgreSQL server: migrations under
// concurrent starts, the change feed that cannot skip an out-of-order commit, fan-out between
// instances, chat compaction beside concurrent appends.

let db: TestDatabase;
const pools: pg.Pool[] = [];
const stores: PgDocuments[] = [];

async function instance(): Promise<PgDocuments> {
  const pool = new pg.Pool({ connectionString: db.url, max: 5 });
  pools.push(pool);
  const store = new PgDocuments({ pool, connectionString: db.url, indexes: INDEXES, idlePollMs: 200 });
  await store.open();
  stores.push(store);
  return store;
}

const gig = (id: string, title: string, createdBy = 'u1') => ({
  collection: 'gigs' as const,
  doc: { id, _deleted: false, title, createdBy, updatedAt: new Date().toISOString() },
});

beforeAll(async () => {
  db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url });
  pools.push(pool);
  await migrate(pool);
});

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
  await db.drop();
});

/** The plans (custom and generic) in which PostgreSQL would read the whole of `table` to run `sql`. */
async function wholeTableScans(pool: pg.Pool, sql: string, params: string, table: string): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query(`PREPARE probe AS ${sql}`);
    const scans: string[] = [];
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await client.query(`SET plan_cache_mode = ${mode}`);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE probe(${params})`);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      if (new RegExp(`Seq Scan on ${table}\\b`).test(plan)) scans.push(`${mode}:\n${plan}`);
    }
    await client.query('DEALLOCATE probe');
    return scans;
  } finally {
    client.release(true);
  }
}

describe('migrations', () => {
  it('apply each version exactly once when several instances start at once', async () => {
    const fresh = await createTestDatabase();
    const racing = [1, 2, 3].map(() => new pg.Pool({ connectionString: fresh.url, max: 2 }));
    try {
      const applied = await Promise.all(racing.map((p) => migrate(p)));
      expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => m.version));
      const [one] = racing as [pg.Pool, ...pg.Pool[]];
      const { rows } = await one.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(one)).toEqual([]);
    } finally {
      await Promise.all(racing.map((p) => p.end()));
      await fresh.drop();
    }
  });
});

describe('documents', () => {
  it('reads back what was committed, by id, by index and whole collections, tombstones included', async () => {
    const store = await instance();
    const hostile = 'nul \u0000 and \u{1F3A8} and "quotes"';
    const seq = await store.commit([gig('g-read-1', hostile, 'reader'), gig('g-read-2', 'two', 'reader')]);
    expect(seq).toBeGreaterThan(0);
    expect(await store.get('gigs', 'g-read-1')).toMatchObject({
      id: 'g-read-1',
      title: hostile,
      _deleted: false,
      _seq: seq - 1,
    });
    expect((await store.byIndex('gigs', 'createdBy', 'reader')).map((d) => d.id).sort()).toEqual([
      'g-read-1',
      'g-read-2',
    ]);

    await store.commit([
      { collection: 'gigs', doc: { ...gig('g-read-2', 'two', 'someone-else').doc, _deleted: true } },
    ]);
    const moved = await store.get('gigs', 'g-read-2');
    expect(moved).toMatchObject({ _deleted: true, createdBy: 'someone-else' });
    expect(moved?._seq).toBeGreaterThan(seq);
    // The index follows the document: filed under its new key only.
    expect((await store.byIndex('gigs', 'createdBy', 'reader')).map((d) => d.id)).toEqual(['g-read-1']);
    expect((await store.byIndex('gigs', 'createdBy', 'someone-else')).map((d) => d.id)).toEqual(['g-read-2']);
    // Rewritten under the same key, it stays filed there.
    await store.commit([gig('g-read-1', 'renamed', 'reader')]);
    expect((await store.byIndex('gigs', 'createdBy', 'reader')).map((d) => d.title)).toEqual(['renamed']);
    expect((await store.all('gigs')).map((d) => d.id)).toEqual(expect.arrayContaining(['g-read-1', 'g-read-2']));
  });

  it('writes nothing of a commit that fails', async () => {
    const store = await instance();
    const broken = { collection: 'gigs' as const, doc: { id: 'g-broken', _deleted: false, bad: 1n as unknown } };
    await expect(store.commit([gig('g-half', 'half'), broken])).rejects.toThrow();
    expect(await store.get('gigs', 'g-half')).toBeUndefined();
  });
});

describe('transactions', () => {
  it('keep an invariant that concurrent read-decide-write transactions on several instances would break', async () => {
    const instances = [await instance(), await instance(), await instance()];
    // Ten buyers' devices race to hire for a gig with one opening, spread over three instances.
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        instances[i % 3]!.transaction(async (tx) => {
          const hired = (await tx.byIndex('applications', 'gigId', 'g-one-opening')).filter(
            (a) => a.status === 'ACCEPTED',
          );
          if (hired.length > 0) return 'full';
          tx.write([
            {
              collection: 'applications',
              doc: { id: `a-${i}`, _deleted: false, gigId: 'g-one-opening', applicantId: `u-${i}`, status: 'ACCEPTED' },
            },
          ]);
          return 'hired';
        }),
      ),
    );
    expect(outcomes.filter((o) => o.value === 'hired')).toHaveLength(1);
    expect(await instances[0]!.byIndex('applications', 'gigId', 'g-one-opening')).toHaveLength(1);
  });

  it('count a document written twice in one transaction once, with its last content', async () => {
    const store = await instance();
    await store.transaction(async (tx) => {
      tx.write([gig('g-twice', 'first')]);
      tx.write([gig('g-twice', 'second')]);
    });
    expect(await store.get('gigs', 'g-twice')).toMatchObject({ title: 'second' });
  });
});

describe("a decision's commit", () => {
  // What a decision read, as the replica showed it: checked at commit, in the statement that writes.
  async function readNow(store: PgDocuments, ids: string[], keys: string[], exists: string[]): Promise<Expected> {
    const seqOf = async (id: string) => (await store.get('gigs', id))?._seq ?? 0;
    return {
      docs: await Promise.all(ids.map(async (id) => ({ collection: 'gigs' as const, id, seq: await seqOf(id) }))),
      keys: await Promise.all(
        keys.map(async (key) => ({
          collection: 'gigs' as const,
          index: 'createdBy',
          key,
          docs: new Map((await store.byIndex('gigs', 'createdBy', key)).map((d) => [d.id, d._seq])),
        })),
      ),
      exists: await Promise.all(
        exists.map(async (key) => ({
          collection: 'gigs' as const,
          index: 'createdBy',
          key,
          any: (await store.byIndex('gigs', 'createdBy', key)).length > 0,
        })),
      ),
    };
  }

  it('writes when every read is as it was, and writes nothing when any read changed since', async () => {
    const store = await instance();
    // Each case on documents of its own: `${p}-a` and `${p}-b` filed under `${p}-owner`, `${p}-c`
    // under `${p}-other`; the decision read `${p}-a` and `${p}-new` (absent) by id, the documents
    // under `${p}-owner`, and whether any is filed under `${p}-nobody` and `${p}-other`.
    const cases: [string, (p: string) => DocWrite[]][] = [
      ['a document read by id was rewritten', (p) => [gig(`${p}-a`, 'a again', `${p}-owner`)]],
      ['a document read as absent was written', (p) => [gig(`${p}-new`, 'new')]],
      ['a document was filed under a key read', (p) => [gig(`${p}-d`, 'd', `${p}-owner`)]],
      ['a document under a key read was rewritten there', (p) => [gig(`${p}-b`, 'b again', `${p}-owner`)]],
      ['a document left a key read', (p) => [gig(`${p}-b`, 'b moved', `${p}-elsewhere`)]],
      ['a key read as empty has a document', (p) => [gig(`${p}-e`, 'e', `${p}-nobody`)]],
      ['a key read as having documents has none', (p) => [gig(`${p}-c`, 'c moved', `${p}-elsewhere`)]],
    ];
    for (const [n, [what, change]] of cases.entries()) {
      const p = `d${n}`;
      await store.commit([
        gig(`${p}-a`, 'a', `${p}-owner`),
        gig(`${p}-b`, 'b', `${p}-owner`),
        gig(`${p}-c`, 'c', `${p}-other`),
      ]);
      const read = () => readNow(store, [`${p}-a`, `${p}-new`], [`${p}-owner`], [`${p}-nobody`, `${p}-other`]);
      const reads = await read();
      // Unchanged, the check passes (nothing written: a decision that answers on what it read).
      expect(await store.commitIfCurrent(reads, []), what).toMatchObject({ ok: true });
      await store.commit(change(p));
      expect(await store.commitIfCurrent(reads, [gig(`${p}-decided`, 'decided')]), what).toEqual({ ok: false });
      expect(await store.commitIfCurrent(reads, []), what).toEqual({ ok: false });
      expect(await store.get('gigs', `${p}-decided`), what).toBeUndefined();
      // Read again, the same decision commits.
      expect(await store.commitIfCurrent(await read(), [gig(`${p}-decided`, 'decided')]), what).toMatchObject({
        ok: true,
      });
      expect(await store.get('gigs', `${p}-decided`), what).toMatchObject({ title: 'decided' });
    }
  });

  it('lets one of several instances deciding on the same reads at once write, as if they ran one after the other', async () => {
    const instances = [await instance(), await instance(), await instance()];
    for (let round = 0; round < 5; round++) {
      // Each instance read that this buyer has posted nothing, and posts their first gig.
      const buyer = `d-first-${round}`;
      const reads = await readNow(instances[0]!, [], [], [buyer]);
      const outcomes = await Promise.all(
        instances.map((store, i) => store.commitIfCurrent(reads, [gig(`d-first-${round}-${i}`, 'first', buyer)])),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect(await instances[0]!.byIndex('gigs', 'createdBy', buyer)).toHaveLength(1);
    }
  });
});

describe('the change feed', () => {
  it('never skips a transaction that took its order first and committed last', async () => {
    const store = await instance();
    // From where the earlier tests' writes are all below the horizon (a transaction of another
    // test file, in another database of the same cluster, can hold it back a moment).
    const { upTo: start } = await waitFor('the earlier writes below the horizon', async () => {
      const read = await store.changesSince(0, 10_000);
      return read.pending ? undefined : read;
    });
    let checkpoint = start - 1;

    // Transaction "101": starts, writes, and stays open.
    const early = await pools[0]!.connect();
    try {
      await early.query('BEGIN');
      await early.query(
        `INSERT INTO documents (collection, id, seq, deleted, body) VALUES ('gigs', 'g-early', ${seqSql('0')}, false, $1)`,
        [JSON.stringify({ id: 'g-early', title: 'early' })],
      );
      // Transaction "102": begins later, commits first.
      await store.commit([gig('g-late', 'late')]);

      // A puller now must not move its checkpoint past g-early's place.
      const first = await store.changesSince(checkpoint, 100);
      expect(first.changes.map((c) => c.doc.id)).not.toContain('g-late');
      expect(first.pending).toBe(true);
      checkpoint = Math.max(checkpoint, first.upTo - 1, ...first.changes.map((c) => c.doc._seq));

      await early.query('COMMIT');
    } finally {
      early.release();
    }
    // Read once nothing of this database waits above the horizon: a transaction of another test
    // (another database, the same cluster) can hold the horizon back a moment.
    const second = await waitFor('both writes below the horizon', async () => {
      const read = await store.changesSince(checkpoint, 100);
      return read.pending ? undefined : read;
    });
    expect(second.changes.map((c) => c.doc.id)).toEqual(['g-early', 'g-late']);
  });

  it('serves nothing twice and nothing out of order to a puller that pulls while writers race', async () => {
    const store = await instance();
    let checkpoint = (await store.changesSince(0, 1)).upTo - 1;
    const written = Array.from({ length: 60 }, (_, i) => `g-race-${i}`);
    const seen: string[] = [];
    const writers = Promise.all(
      Array.from({ length: 6 }, (_, w) =>
        (async () => {
          for (let i = w; i < written.length; i += 6) await store.commit([gig(`g-race-${i}`, `race ${i}`)]);
        })(),
      ),
    );
    let done = false;
    void writers.then(() => (done = true));
    for (;;) {
      const wasDone = done;
      const { changes, upTo, pending } = await store.changesSince(checkpoint, 7);
      for (const c of changes) {
        expect(c.doc._seq).toBeGreaterThan(checkpoint);
        checkpoint = c.doc._seq;
        seen.push(c.doc.id);
      }
      if (changes.length < 7) checkpoint = Math.max(checkpoint, upTo - 1);
      // Caught up once nothing waits above the horizon either: a transaction of another test
      // (another database, the same cluster) can hold the horizon back while writes wait there.
      if (wasDone && changes.length === 0 && !pending) break;
    }
    expect(seen.filter((id) => id.startsWith('g-race-')).sort()).toEqual([...written].sort());
  });

  it('tells every instance about a write made on any of them', async () => {
    const [a, b, c] = [await instance(), await instance(), await instance()];
    const heard = (store: PgDocuments) => {
      const ids: string[] = [];
      store.onDurable((changes: Change[]) => ids.push(...changes.map((ch) => ch.doc.id)));
      return ids;
    };
    const [onA, onB, onC] = [heard(a), heard(b), heard(c)];
    await a.commit([gig('g-fan-1', 'from a')]);
    await c.commit([gig('g-fan-2', 'from c')]);
    for (const [name, ids] of [
      ['a', onA],
      ['b', onB],
      ['c', onC],
    ] as const) {
      await waitFor(`instance ${name} hears both writes`, () => ids.includes('g-fan-1') && ids.includes('g-fan-2'));
      expect(ids.filter((id) => id === 'g-fan-1')).toHaveLength(1);
    }
  });
});

describe('as the data grows', () => {
  /** A database of its own, empty and never analyzed (a young deployment), and a store on it. */
  async function youngDatabase() {
    const young = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: young.url, max: 3 });
    await migrate(pool);
    const store = new PgDocuments({ pool, connectionString: young.url, indexes: INDEXES, idlePollMs: 200 });
    await store.open();
    return {
      pool,
      store,
      async close() {
        await store.close();
        await pool.end();
        await young.drop();
      },
    };
  }

  it('a read of the change feed never reads every document, even before the table has statistics', async () => {
    const young = await youngDatabase();
    try {
      // Before any ANALYZE: the plan of a table without statistics is what a young database runs.
      await young.store.commit([gig('g-first', 'first')]);
      expect(await wholeTableScans(young.pool, FEED_SQL, '0, 1000', 'documents')).toEqual([]);
      // 2,000 gigs later, with the statistics the store's own ANALYZEs gave the table.
      for (let i = 0; i < 2_000; i += 500)
        await young.store.commit(Array.from({ length: 500 }, (_, j) => gig(`g-grow-${i + j}`, 'T'.repeat(300))));
      expect(await wholeTableScans(young.pool, FEED_SQL, '0, 1000', 'documents')).toEqual([]);
    } finally {
      await young.close();
    }
  });

  it(`the planner's statistics follow what the store writes: analyzed after ${STATISTICS.minRows} rows, then each time the table grows by half`, async () => {
    const young = await youngDatabase();
    const analyses = async () => {
      const { rows } = await young.pool.query<{ relname: string; n: string }>(
        `SELECT pg_stat_clear_snapshot(), relname, analyze_count AS n FROM pg_stat_user_tables
          WHERE relname IN ('documents', 'document_keys') ORDER BY relname`,
      );
      return rows.map((r) => `${r.relname} ${r.n}`).join(', ');
    };
    const analyzed = (n: number) => `document_keys ${n}, documents ${n}`;
    let written = 0;
    const write = (count: number) =>
      young.store.commit(Array.from({ length: count }, () => gig(`g-stat-${written++}`, 'one')));
    try {
      await write(STATISTICS.minRows - 1);
      expect(await analyses()).toBe(analyzed(0));
      await write(1); // 200 rows written
      await waitFor('the first ANALYZE', async () => (await analyses()) === analyzed(1));
      await write(STATISTICS.minRows - 1); // half of 200 is under the minimum
      expect(await analyses()).toBe(analyzed(1));
      await write(1); // 400
      await waitFor('the second ANALYZE', async () => (await analyses()) === analyzed(2));
      await write(1_000); // 1,400 rows
      await waitFor('the third ANALYZE', async () => (await analyses()) === analyzed(3));
      await write(699); // under half of 1,400
      expect(await analyses()).toBe(analyzed(3));
      await write(1);
      await waitFor('the fourth ANALYZE', async () => (await analyses()) === analyzed(4));
    } finally {
      await young.close();
    }
  });
});

describe('chat logs', () => {
  const bytes = (log: { updates: Uint8Array[] }) => log.updates.map((u) => [...u]);
  /** The entry at `pos` holding `values`, as a compaction names what it merges. */
  const entry = (pos: number, ...values: number[]) => ({ pos, update: Uint8Array.from(values) });

  it("finds the rooms whose log went past the position an instance saw by each room's last entry, never reading every room's log", async () => {
    const store = await instance();
    const pool = pools[0]!;
    // 200 rooms of a dozen entries each (~150-byte updates), analyzed, all held by the instance: as
    // in the chat benchmark, where the check joined the rooms against every entry of the table.
    await pool.query(
      `INSERT INTO chat_updates (room, pos, update)
         SELECT 'heads-' || r, p, convert_to(repeat('u', 150), 'UTF8') FROM generate_series(1, 200) r, generate_series(1, 12) p`,
    );
    await pool.query('ANALYZE chat_updates');
    // Having seen all of each but rooms 7 and 9, and an empty room.
    const seen = new Map(
      Array.from({ length: 200 }, (_, i) => [`heads-${i + 1}`, i + 1 === 7 || i + 1 === 9 ? 11 : 12]),
    );
    seen.set('heads-empty', 0);
    expect((await store.chatHeads(seen)).sort()).toEqual(['heads-7', 'heads-9']);
    const literal = (values: (string | number)[]) => `'{${values.map((v) => `"${v}"`).join(',')}}'`;
    const params = `${literal([...seen.keys()])}::text[], ${literal([...seen.values()])}::bigint[]`;
    expect(await wholeTableScans(pool, CHAT_HEADS_SQL, params, 'chat_updates')).toEqual([]);
  });

  it('append to several rooms asked for at once in one statement, each all or none, a refused or failing one alone', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 5 });
    pools.push(pool);
    const appends: number[] = [];
    const query = pool.query.bind(pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
    (pool as unknown as { query: typeof query }).query = (config) => {
      if (config.name === 'chat-append') appends.push((config.values?.[0] as string[]).length);
      return query(config);
    };
    const store = new PgDocuments({ pool, connectionString: db.url, indexes: INDEXES, idlePollMs: 200 });
    await store.open();
    stores.push(store);
    expect(await store.appendChat('many-stale', [Uint8Array.of(1), Uint8Array.of(2)], 0)).toEqual({ ok: true, pos: 2 });
    appends.length = 0;

    const outcomes = await Promise.allSettled([
      store.appendChat('many-first', [Uint8Array.of(9)], 0),
      // Asked for while the first is under way: together in the next statement.
      ...['many-1', 'many-2', 'many-3'].map((room, i) =>
        store.appendChat(room, [Uint8Array.of(i), Uint8Array.of(i, i)], 0),
      ),
      // Has not seen the room's two entries: refused, and nothing of it written.
      store.appendChat('many-stale', [Uint8Array.of(7), Uint8Array.of(8)], 1),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual([
      { ok: true, pos: 1 },
      { ok: true, pos: 2 },
      { ok: true, pos: 2 },
      { ok: true, pos: 2 },
      { ok: false },
    ]);
    expect(appends).toEqual([1, 8]);
    for (const [i, room] of ['many-1', 'many-2', 'many-3'].entries())
      expect((await store.chatLog(room)).updates.map((u) => [...u])).toEqual([[i], [i, i]]);
    expect((await store.chatLog('many-stale')).updates.map((u) => [...u])).toEqual([[1], [2]]);

    // A room name PostgreSQL cannot store fails its own append, not the others' of its statement.
    appends.length = 0;
    const mixed = await Promise.allSettled([
      store.appendChat('many-first', [Uint8Array.of(10)], 1),
      store.appendChat('many-nul-\u0000', [Uint8Array.of(1)], 0),
      store.appendChat('many-4', [Uint8Array.of(4)], 0),
    ]);
    expect(mixed.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(appends.slice(0, 2)).toEqual([1, 2]);
    expect((await store.chatLog('many-4')).updates.map((u) => [...u])).toEqual([[4]]);
  });

  it("reads several rooms' logs asked for at once, each its own entries past its own position", async () => {
    const store = await instance();
    await store.appendChat('reads-a', [Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3)], 0);
    await store.appendChat('reads-b', [Uint8Array.of(4)], 0);
    const logs = await Promise.all([
      store.chatLog('reads-a', 1),
      store.chatLog('reads-b'),
      store.chatLog('reads-none'),
      store.chatLog('reads-a', 2),
      store.chatLog('reads-b', 1),
    ]);
    expect(logs.map((l) => ({ pos: l.pos, updates: l.updates.map((u) => [...u]) }))).toEqual([
      { pos: [2, 3], updates: [[2], [3]] },
      { pos: [1], updates: [[4]] },
      { pos: [], updates: [] },
      { pos: [3], updates: [[3]] },
      { pos: [], updates: [] },
    ]);
  });

  it('let one of two instances appending at the same position win; the other catches up and appends after it', async () => {
    const [a, b] = [await instance(), await instance()];
    const heard: string[] = [];
    b.onChatAppended((digest) => heard.push(digest));
    expect(await a.appendChat('room-race', [Uint8Array.of(1)], 0)).toEqual({ ok: true, pos: 1 });
    // Both have seen position 1 and append at once.
    const [fromA, fromB] = await Promise.all([
      a.appendChat('room-race', [Uint8Array.of(2)], 1),
      b.appendChat('room-race', [Uint8Array.of(3)], 1),
    ]);
    expect([fromA.ok, fromB.ok].sort()).toEqual([false, true]);
    const loser = fromA.ok ? b : a;
    const missed = await loser.chatLog('room-race', 1);
    expect(missed.pos).toEqual([2]);
    expect(await loser.appendChat('room-race', [Uint8Array.of(4)], 2)).toEqual({ ok: true, pos: 3 });
    expect((await a.chatLog('room-race')).pos).toEqual([1, 2, 3]);
    // Appends are announced to every other instance after their commit, by the digest of the
    // room's name (appends made while an announcement is on its way share the next one); an
    // instance is not told of its own.
    const digest = createHash('md5').update('room-race').digest('hex');
    await waitFor('b hears of the appends', () => heard.includes(digest));
    // A's append reaches B; B's, sent after it, reaches A, which by then would have heard its own.
    const heardByA: string[] = [];
    a.onChatAppended((d) => heardByA.push(d));
    heard.length = 0;
    expect(await a.appendChat('room-race', [Uint8Array.of(5)], 3)).toEqual({ ok: true, pos: 4 });
    await waitFor("b hears of a's append", () => heard.includes(digest));
    expect(await b.appendChat('room-race', [Uint8Array.of(6)], 4)).toEqual({ ok: true, pos: 5 });
    await waitFor("a hears of b's append", () => heardByA.length > 0);
    expect(heardByA).toEqual([digest]);
  });

  it('keeps an update appended by another instance while a compaction merged the log, and files the merge at its last position', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.appendChat('room-1', [Uint8Array.of(1)], 0);
    await a.appendChat('room-1', [Uint8Array.of(2)], 1);
    const log = await a.chatLog('room-1');
    // Meanwhile, another instance appends.
    await b.appendChat('room-1', [Uint8Array.of(3)], 2);
    const read = log.pos.map((pos, i) => ({ pos, update: log.updates[i]! }));
    expect(await a.compactChat('room-1', Uint8Array.of(12), read)).toBe(true);
    const after = await b.chatLog('room-1');
    expect(after.pos).toEqual([2, 3]);
    expect(bytes(after)).toEqual([[12], [3]]);
    // A reader that had seen position 2 misses nothing; one that had seen 1 gets the merge again.
    expect(bytes(await b.chatLog('room-1', 2))).toEqual([[3]]);
    expect(bytes(await b.chatLog('room-1', 1))).toEqual([[12], [3]]);
  });

  it('refuse an append after a position a compaction emptied, by an instance that has not seen the merge', async () => {
    const [a, b] = [await instance(), await instance()];
    for (let i = 1; i <= 3; i++) await a.appendChat('room-hole', [Uint8Array.of(i)], i - 1);
    // b has seen position 1 only; a merges 2 and 3 into position 3, emptying position 2.
    expect(await a.compactChat('room-hole', Uint8Array.of(23), [entry(2, 2), entry(3, 3)])).toBe(true);
    expect(await b.appendChat('room-hole', [Uint8Array.of(9)], 1)).toEqual({ ok: false });
    // Caught up, it appends after the merge.
    const missed = await b.chatLog('room-hole', 1);
    expect(missed.pos).toEqual([3]);
    expect(await b.appendChat('room-hole', [Uint8Array.of(9)], 3)).toEqual({ ok: true, pos: 4 });
    expect(bytes(await a.chatLog('room-hole'))).toEqual([[1], [23], [9]]);
  });

  it('refuse a compaction whose entries another compaction already merged, changing nothing', async () => {
    const [a, b] = [await instance(), await instance()];
    for (let i = 1; i <= 3; i++) await a.appendChat('room-2', [Uint8Array.of(i)], i - 1);
    expect(await b.compactChat('room-2', Uint8Array.of(23), [entry(2, 2), entry(3, 3)])).toBe(true);
    expect(await a.compactChat('room-2', Uint8Array.of(123), [entry(1, 1), entry(2, 2), entry(3, 3)])).toBe(false);
    expect(bytes(await a.chatLog('room-2'))).toEqual([[1], [23]]);
  });

  it('refuse a compaction of a position where another compaction filed its merge, changing nothing', async () => {
    const [a, b] = [await instance(), await instance()];
    for (let i = 1; i <= 3; i++) await a.appendChat('room-3', [Uint8Array.of(i)], i - 1);
    // b merges 1 and 2 into position 2; a, not knowing, merges what it holds at 2 and 3.
    expect(await b.compactChat('room-3', Uint8Array.of(12), [entry(1, 1), entry(2, 2)])).toBe(true);
    expect(await a.compactChat('room-3', Uint8Array.of(23), [entry(2, 2), entry(3, 3)])).toBe(false);
    expect(bytes(await a.chatLog('room-3'))).toEqual([[12], [3]]);
  });

  it('refuse a compaction caught in a deadlock on its entries, changing nothing', async () => {
    // PostgreSQL aborts the transaction that looks for a deadlock first: the compaction's looks
    // 3 s into its wait, the other's 30 s into its own, which begins well within those 3 s.
    const pool = new pg.Pool({ connectionString: db.url, max: 2, options: '-c deadlock_timeout=3s' });
    pools.push(pool);
    const a = new PgDocuments({ pool, connectionString: db.url, indexes: INDEXES, idlePollMs: 200 });
    await a.open();
    stores.push(a);
    for (let i = 1; i <= 3; i++) await a.appendChat('room-4', [Uint8Array.of(i)], i - 1);
    // Another transaction takes position 3, then, once the compaction holds 2 and waits for 3,
    // asks for 2.
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query(`SET deadlock_timeout = '30s'`);
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM chat_updates WHERE room = 'room-4' AND pos = 3 FOR UPDATE`);
      const compaction = a.compactChat('room-4', Uint8Array.of(23), [entry(2, 2), entry(3, 3)]);
      await waitFor('the compaction waits for position 3', async () => {
        const { rows } = await pools[0]!.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'`,
        );
        return rows[0]!.n > 0;
      });
      const second = other.query(`SELECT 1 FROM chat_updates WHERE room = 'room-4' AND pos = 2 FOR UPDATE`);
      expect(await compaction).toBe(false);
      await second;
      await other.query('ROLLBACK');
    } finally {
      await other.end();
    }
    expect(bytes(await a.chatLog('room-4'))).toEqual([[1], [2], [3]]);
  });
});
