import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INDEXES } from '../../sync-server/indexes';
import { createSimulatedProvider } from '../../sync-server/payments/simulated-provider';
import { seqSql } from '../../sync-server/store/postgres/order';
import { PgStore } from '../../sync-server/store/postgres/pg-store';
import { StoreUnavailableError, type Change } from '../../sync-server/store/store';
import { createTestDatabase, type TestDatabase } from '../support/postgres/database';
import { waitFor } from '../support/wait';
import { writerElsewhere } from '../support/postgres/write-elsewhere';
import type { StoredDoc } from '../../sync-server/store/store';

// The PostgreSQL store as server instances use it: each holds a replica of the documents, fed by
// the change feed, and commits decisions the database checks against what they read.

let db: TestDatabase;
const open: PgStore[] = [];

async function instance(): Promise<PgStore> {
  const store = await PgStore.open({ connectionString: db.url, indexes: INDEXES, poolSize: 5, idlePollMs: 200 });
  open.push(store);
  return store;
}

/** A replica whose feed reads only on notifications: a write that sends none leaves it behind. */
async function replicaBehind(): Promise<PgStore> {
  const slow = await PgStore.open({ connectionString: db.url, indexes: INDEXES, poolSize: 2, idlePollMs: 60_000 });
  open.push(slow);
  return slow;
}

/**
 * Documents written as another instance writes them, in one transaction, but on a connection of
 * its own that notifies no instance; `more` runs in the same transaction.
 */
async function writtenBehind(
  rows: readonly (readonly [collection: string, id: string, body: object])[],
  more?: (raw: pg.Client) => Promise<unknown>,
): Promise<void> {
  const raw = new pg.Client({ connectionString: db.url });
  await raw.connect();
  try {
    await raw.query('BEGIN');
    for (const [position, [collection, id, body]] of rows.entries())
      await raw.query(
        `INSERT INTO documents (collection, id, seq, deleted, body) VALUES ($1, $2, ${seqSql('$4')}, false, $3)`,
        [collection, id, JSON.stringify(body), position],
      );
    await more?.(raw);
    await raw.query('COMMIT');
  } finally {
    await raw.end();
  }
}

const application = (id: string, gigId: string, status: string) => ({
  collection: 'applications' as const,
  doc: { id, _deleted: false, gigId, applicantId: `u-${id}`, status },
});

beforeAll(async () => {
  db = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  await db.drop();
});

describe('instances on one database', () => {
  it('read their own writes at once and see the others’ through the feed, streams included', async () => {
    const [a, b] = [await instance(), await instance()];
    const seen: Change[] = [];
    b.onDurable((changes) => seen.push(...changes));

    const seq = await a.commit([application('r-1', 'g-feed', 'PENDING')]);
    expect(a.get('applications', 'r-1')).toMatchObject({ status: 'PENDING', _seq: seq });
    await waitFor('b replicates r-1', () => b.get('applications', 'r-1')?._seq === seq);
    expect(b.byIndex('applications', 'gigId', 'g-feed').map((d) => d.id)).toEqual(['r-1']);
    await waitFor('b streams r-1', () => seen.some((c) => c.doc.id === 'r-1'));
    expect(b.changesSince(seq - 1, 10).map((c) => c.doc.id)).toEqual(['r-1']);
    expect(b.durableSeq()).toBeGreaterThanOrEqual(seq);
  });

  it('start with every document already written', async () => {
    const a = await instance();
    const seq = await a.commit([application('r-start', 'g-start', 'PENDING')]);
    const late = await instance();
    expect(late.get('applications', 'r-start')).toMatchObject({ _seq: seq, status: 'PENDING' });
    expect(late.changesSince(0, 10_000).some((c) => c.doc.id === 'r-start')).toBe(true);
  });

  it('hire once for a one-opening gig when buyers race on three instances with replicas behind', async () => {
    const instances = [await instance(), await instance(), await instance()];
    await instances[0]!.commit(Array.from({ length: 9 }, (_, i) => application(`r-race-${i}`, 'g-race', 'PENDING')));
    await waitFor('every replica has the applications', () =>
      instances.every((s) => s.byIndex('applications', 'gigId', 'g-race').length === 9),
    );
    let decisions = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        instances[i % 3]!.transaction((read) => {
          decisions++;
          const apps = read.byIndex('applications', 'gigId', 'g-race');
          if (apps.some((a) => a.status === 'IN_PROGRESS')) return { writes: [], value: 'full' };
          const mine = read.get('applications', `r-race-${i}`);
          return { writes: [{ collection: 'applications', doc: { ...mine!, status: 'IN_PROGRESS' } }], value: 'hired' };
        }),
      ),
    );
    expect(outcomes.filter((o) => o.value === 'hired')).toHaveLength(1);
    // Most decisions ran on a replica that had not yet seen the winner's write: they ran again.
    expect(decisions).toBeGreaterThan(9);
    for (const store of instances) {
      await waitFor(
        'one hire everywhere',
        () => store.byIndex('applications', 'gigId', 'g-race').filter((a) => a.status === 'IN_PROGRESS').length === 1,
      );
    }
  });

  it('decide again when a document read by id changed on another instance, keeping both updates', async () => {
    const [a, b] = [await instance(), await instance()];
    await a.commit([{ collection: 'gigs', doc: { id: 'g-count', _deleted: false, createdBy: 'u', count: 0 } }]);
    await waitFor('b has the gig', () => b.get('gigs', 'g-count') !== undefined);
    const bump = (store: PgStore) =>
      store.transaction((read) => {
        const gig: StoredDoc = read.get('gigs', 'g-count')!;
        return { writes: [{ collection: 'gigs', doc: { ...gig, count: Number(gig.count) + 1 } }], value: null };
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 ? a : b)));
    await waitFor('twenty bumps on both', () =>
      [a, b].every((store) => (store.get('gigs', 'g-count') as StoredDoc | undefined)?.count === 20),
    );
  });
});

describe('decisions made while another one commits', () => {
  /** The decisions of each statement the instance sends, as the batcher hands them over. */
  function statementsOf(store: PgStore): number[] {
    const sizes: number[] = [];
    const together = store.documents.commitTogether.bind(store.documents);
    store.documents.commitTogether = (decisions) => {
      sizes.push(decisions.length);
      return together(decisions);
    };
    return sizes;
  }

  /** A decision that holds the instance's statement while the ones after it are asked for. */
  const first = (store: PgStore, id: string) =>
    store.transaction(() => ({ writes: [application(id, `g-${id}`, 'PENDING')], value: null }));

  it('go several in one statement, each told the order of its own writes', async () => {
    const store = await instance();
    const statements = statementsOf(store);
    const made = [
      first(store, 'b-first'),
      ...Array.from({ length: 20 }, (_, i) =>
        store.transaction((read) => {
          const taken = read.get('applications', `b-${i}`) !== undefined;
          return { writes: taken ? [] : [application(`b-${i}`, 'g-batch', 'PENDING')], value: i };
        }),
      ),
    ];
    const outcomes = await Promise.all(made);
    expect(outcomes.slice(1).map((o) => o.value)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    for (const [i, { seq }] of outcomes.slice(1).entries())
      expect(store.get('applications', `b-${i}`)).toMatchObject({ status: 'PENDING', _seq: seq });
    expect(new Set(outcomes.map((o) => o.seq)).size).toBe(21);
    // The first went alone; the twenty asked for while it committed, together.
    expect(statements).toEqual([1, 20]);
    const other = await instance();
    expect(other.byIndex('applications', 'gigId', 'g-batch')).toHaveLength(20);
  });

  it('never share a statement when one writes a document another one read: no write skew', async () => {
    const store = await instance();
    await store.commit([
      application('b-call-a', 'g-call', 'IN_PROGRESS'),
      application('b-call-b', 'g-call', 'IN_PROGRESS'),
    ]);
    const statements = statementsOf(store);
    // Each steps down only if the other one stays on: one after the other, exactly one steps down.
    const stepDown = (mine: string, theirs: string) =>
      store.transaction((read) => {
        const me = read.get('applications', mine)!;
        const other = read.get('applications', theirs)!;
        if (me.status !== 'IN_PROGRESS' || other.status !== 'IN_PROGRESS') return { writes: [], value: false };
        return { writes: [{ collection: 'applications', doc: { ...me, status: 'CANCELLED' } }], value: true };
      });
    const [, a, b] = await Promise.all([
      first(store, 'b-call-first'),
      stepDown('b-call-a', 'b-call-b'),
      stepDown('b-call-b', 'b-call-a'),
    ]);
    expect([a.value, b.value].filter(Boolean)).toHaveLength(1);
    const statuses = ['b-call-a', 'b-call-b'].map((id) => store.get('applications', id)?.status);
    expect(statuses.sort()).toEqual(['CANCELLED', 'IN_PROGRESS']);
    expect(statements.every((n) => n === 1)).toBe(true);
  });

  it('never share a statement when one files a document under a key another one read', async () => {
    const store = await instance();
    const statements = statementsOf(store);
    // A gig takes one application: each decision applies only if none is filed under the gig yet,
    // asked by reading the key's documents or by asking whether the key has any.
    const apply = (i: number) =>
      store.transaction((read) => {
        const none =
          i % 2 === 0
            ? read.byIndex('applications', 'gigId', 'g-one-seat').length === 0
            : !read.anyByIndex('applications', 'gigId', 'g-one-seat');
        return { writes: none ? [application(`b-seat-${i}`, 'g-one-seat', 'PENDING')] : [], value: none };
      });
    const outcomes = await Promise.all([
      first(store, 'b-seat-first'),
      ...Array.from({ length: 6 }, (_, i) => apply(i)),
    ]);
    expect(outcomes.filter((o) => o.value === true)).toHaveLength(1);
    expect(store.byIndex('applications', 'gigId', 'g-one-seat')).toHaveLength(1);
    expect(statements.every((n) => n === 1)).toBe(true);
  });

  it('never share a statement when one moves a document off a key another one read', async () => {
    const store = await instance();
    await store.commit([
      application('b-move-x', 'g-move-a', 'PENDING'),
      application('b-move-y', 'g-move-b', 'PENDING'),
    ]);
    const statements = statementsOf(store);
    // Each moves its application away only while the other's gig still has one: one after the
    // other, exactly one moves (the second finds the first's gig empty).
    const moveAway = (mine: string, othersGig: string) =>
      store.transaction((read) => {
        const me = read.get('applications', mine)!;
        if (!read.anyByIndex('applications', 'gigId', othersGig)) return { writes: [], value: false };
        return { writes: [{ collection: 'applications', doc: { ...me, gigId: 'g-move-none' } }], value: true };
      });
    const [, x, y] = await Promise.all([
      first(store, 'b-move-first'),
      moveAway('b-move-x', 'g-move-b'),
      moveAway('b-move-y', 'g-move-a'),
    ]);
    expect([x.value, y.value].filter(Boolean)).toHaveLength(1);
    expect(store.byIndex('applications', 'gigId', 'g-move-none')).toHaveLength(1);
    expect(statements.every((n) => n === 1)).toBe(true);
  });

  it('let one whose write fails fail alone: the others of its statement are written', async () => {
    const store = await instance();
    const statements = statementsOf(store);
    const outcomes = await Promise.allSettled([
      first(store, 'b-fail-first'),
      store.transaction(() => ({ writes: [{ collection: 'gigs', doc: { id: '', _deleted: false } }], value: 'bad' })),
      ...Array.from({ length: 3 }, (_, i) =>
        store.transaction(() => ({ writes: [application(`b-fail-${i}`, 'g-fail', 'PENDING')], value: i })),
      ),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(statements.slice(0, 2)).toEqual([1, 4]);
    expect(store.byIndex('applications', 'gigId', 'g-fail')).toHaveLength(3);
  });

  it('let a stale one lose alone: the others of its statement are written, and it decides again', async () => {
    const store = await instance();
    await store.commit([{ collection: 'gigs', doc: { id: 'g-stale', _deleted: false, createdBy: 'u', count: 0 } }]);
    const elsewhere = await writerElsewhere(db.url);
    const statements = statementsOf(store);
    let attempts = 0;
    try {
      const outcomes = await Promise.all([
        first(store, 'b-stale-first'),
        store.transaction((read) => {
          const gig: StoredDoc = read.get('gigs', 'g-stale')!;
          // The first time, another instance changes the gig after this decision read it.
          if (attempts++ === 0)
            elsewhere.run(`UPDATE documents SET seq = ${seqSql('0')} WHERE collection = 'gigs' AND id = 'g-stale'`);
          return { writes: [{ collection: 'gigs', doc: { ...gig, count: Number(gig.count) + 1 } }], value: 'bumped' };
        }),
        ...Array.from({ length: 3 }, (_, i) =>
          store.transaction(() => ({ writes: [application(`b-stale-${i}`, 'g-stale', 'PENDING')], value: i })),
        ),
      ]);
      expect(outcomes.map((o) => o.value)).toEqual([null, 'bumped', 0, 1, 2]);
    } finally {
      await elsewhere.close();
    }
    expect(statements.slice(0, 2)).toEqual([1, 4]);
    expect(attempts).toBe(2);
    expect(store.byIndex('applications', 'gigId', 'g-stale')).toHaveLength(3);
    expect(store.get('gigs', 'g-stale')).toMatchObject({ count: 1 });
  });
});

describe('a decision that writes nothing', () => {
  it('is made again on fresh data when its replica had not yet seen a document written elsewhere', async () => {
    const slow = await replicaBehind();
    await writtenBehind([['applications', 'r-fresh', { gigId: 'g-fresh', applicantId: 'u-fresh', status: 'PENDING' }]]);
    expect(slow.get('applications', 'r-fresh')).toBeUndefined();
    const seen = await slow.transaction((read) => ({
      writes: [],
      value: read.get('applications', 'r-fresh')?.status ?? 'absent',
    }));
    expect(seen.value).toBe('PENDING');
    expect(slow.get('applications', 'r-fresh')).toMatchObject({ status: 'PENDING' });
  });
});

describe('a decision that asks whether any document is filed under a key', () => {
  /** A replica that reads the feed only on notifications, and a gig written behind its back. */
  async function behind(gigId: string, createdBy: string): Promise<PgStore> {
    const slow = await replicaBehind();
    await writtenBehind([['gigs', gigId, { createdBy, title: 'Written elsewhere' }]], (raw) =>
      raw.query(`INSERT INTO document_keys (collection, index_name, key, id) VALUES ('gigs', 'createdBy', $1, $2)`, [
        createdBy,
        gigId,
      ]),
    );
    expect(slow.anyByIndex('gigs', 'createdBy', createdBy)).toBe(false);
    return slow;
  }

  // "Is this the creator's first gig?" (a first gig writes the creator's profile again): answered
  // by one lookup at commit, whatever the number of gigs, and never from a replica behind.
  it('writes nothing on a stale "none": it decides again once the database says there is one', async () => {
    const slow = await behind('g-elsewhere', 'u-first');
    const outcome = await slow.transaction((read) =>
      read.anyByIndex('gigs', 'createdBy', 'u-first')
        ? { writes: [], value: 'not the first' }
        : { writes: [{ collection: 'meta', doc: { id: 'first-gig:u-first', _deleted: false } }], value: 'first' },
    );
    expect(outcome.value).toBe('not the first');
    expect(slow.get('meta', 'first-gig:u-first')).toBeUndefined();
    expect(slow.anyByIndex('gigs', 'createdBy', 'u-first')).toBe(true);
  });

  it('answers a refusal only once the database agrees, when it writes nothing', async () => {
    const slow = await behind('g-elsewhere-2', 'u-second');
    const { value } = await slow.transaction((read) => ({
      writes: [],
      value: read.anyByIndex('gigs', 'createdBy', 'u-second'),
    }));
    expect(value).toBe(true);
  });
});

describe('the simulated payment provider on an instance whose replica is behind', () => {
  // Six checkouts at once over three instances: the one whose key another instance used first
  // reads the key's record at commit, before the feed brings the session it names.
  it('finds a session another instance made, and answers its idempotency key with that session', async () => {
    const slow = await replicaBehind();
    const key = 'application:a-behind:checkout:0';
    const session = {
      kind: 'sim_session',
      sessionId: 'cs_sim_elsewhere',
      applicationId: 'a-behind',
      lineItems: [{ name: 'Gig', amount: 20_000 }],
      amountTotal: 20_000,
      currency: 'USD',
      metadata: { applicationId: 'a-behind' },
      successUrl: 'http://127.0.0.1/payment/success',
      cancelUrl: 'http://127.0.0.1/basket',
      paid: false,
      paymentIntentId: null,
      chargeId: null,
      expiresAt: Date.now() + 60_000,
    };
    await writtenBehind([
      ['ledger', 'sim-session:cs_sim_elsewhere', session],
      ['ledger', `sim-idempotency:${key}`, { kind: 'sim_idempotency', resultId: 'cs_sim_elsewhere' }],
    ]);
    const provider = createSimulatedProvider(slow, Date.now);
    // Looked up before anything brought it here: found all the same (not "no such session").
    expect(await provider.retrieveCheckoutSession('cs_sim_elsewhere')).toMatchObject({ status: 'open' });
    const made = await provider.createCheckoutSession(
      {
        currency: 'USD',
        lineItems: [{ name: 'Gig', amount: 20_000 }],
        metadata: { applicationId: 'a-behind' },
        transferGroup: 'a-behind',
        successUrl: 'http://127.0.0.1/payment/success',
        cancelUrl: 'http://127.0.0.1/basket',
      },
      key,
    );
    expect(made).toMatchObject({ id: 'cs_sim_elsewhere', status: 'open', amountTotal: 20_000 });
    expect(slow.byIndex('ledger', 'applicationId', 'a-behind').map((d) => d.id)).toEqual([
      'sim-session:cs_sim_elsewhere',
    ]);
  });
});

describe('chat entries whose notification was lost', () => {
  // An append is announced after its commit: an instance killed in between leaves entries no
  // notification tells of. Rooms held elsewhere find them by their periodic check of the log's head.
  it('reach an instance holding the room all the same, within a few seconds', async () => {
    const holder = await instance();
    const heard: Uint8Array[] = [];
    holder.onRemoteChat((room, updates) => {
      if (room === 'room-lost-notice') heard.push(...updates);
    });
    await holder.openChat('room-lost-notice');
    const raw = new pg.Client({ connectionString: db.url });
    await raw.connect();
    try {
      // Appended as an instance would, but with nobody told.
      await raw.query('INSERT INTO chat_updates (room, pos, update) VALUES ($1, 1, $2)', [
        'room-lost-notice',
        Buffer.from([7, 7, 7]),
      ]);
    } finally {
      await raw.end();
    }
    await waitFor('the holder reads the entry nobody announced', () => heard.length === 1, 5_000);
    expect([...heard[0]!]).toEqual([7, 7, 7]);
    expect(holder.chatUpdates('room-lost-notice').map((u) => [...u])).toEqual([[7, 7, 7]]);
    holder.closeChat('room-lost-notice');
  });
});

describe('a decision whose reads change under it at every attempt', () => {
  it('runs out of attempts with StoreUnavailableError (try again), and writes nothing', async () => {
    const store = await instance();
    await store.transaction(() => ({
      writes: [{ collection: 'gigs', doc: { id: 'g-churn', _deleted: false, createdBy: 'u-buyer', openings: 1 } }],
      value: null,
    }));
    const elsewhere = await writerElsewhere(db.url);
    let attempts = 0;
    try {
      const decided = store.transaction((read) => {
        attempts++;
        const gig = read.get('gigs', 'g-churn');
        // Another instance changes the gig after this attempt read it, every time.
        elsewhere.run(`UPDATE documents SET seq = ${seqSql('0')} WHERE collection = 'gigs' AND id = 'g-churn'`);
        return { writes: gig ? [application('a-churn', 'g-churn', 'ACCEPTED')] : [], value: null };
      });
      await expect(decided).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await elsewhere.close();
    }
    expect(attempts).toBe(20);
    expect(store.get('applications', 'a-churn')).toBeUndefined();
    const raw = new pg.Client({ connectionString: db.url });
    await raw.connect();
    try {
      const { rowCount } = await raw.query(
        `SELECT 1 FROM documents WHERE collection = 'applications' AND id = 'a-churn'`,
      );
      expect(rowCount).toBe(0);
    } finally {
      await raw.end();
    }
    // The same decision, once the gig stops changing, is made.
    await store.transaction((read) => ({
      writes: read.get('gigs', 'g-churn') ? [application('a-churn', 'g-churn', 'ACCEPTED')] : [],
      value: null,
    }));
    expect(store.get('applications', 'a-churn')).toMatchObject({ status: 'ACCEPTED' });
  });
});
