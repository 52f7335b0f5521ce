import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listJournalFiles } from './journal';
import { openJournalStore, type JournalStore, type JournalStoreOptions } from './journal-store';
import type { Change, DocWrite, IndexDefinitions, StoredDoc } from './store';

const INDEXES: IndexDefinitions = {
  gigs: { createdBy: (d) => (typeof d.createdBy === 'string' ? d.createdBy : undefined) },
  conversations: { participant: (d) => (Array.isArray(d.participants) ? (d.participants as string[]) : undefined) },
};

const dirs: string[] = [];
const open: JournalStore[] = [];

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'store-test-'));
  dirs.push(dir);
  return dir;
}

async function openStore(dataDir: string, extra: Partial<JournalStoreOptions> = {}): Promise<JournalStore> {
  const store = await openJournalStore({
    dataDir,
    indexes: INDEXES,
    snapshotIntervalMs: 60_000,
    snapshotEveryCommits: 1_000_000,
    ...extra,
  });
  open.push(store);
  return store;
}

/** Writes `text` where a journal file's lines end (the zeros after them begin), as a torn write would. */
async function writeAtLinesEnd(file: string, text: string): Promise<void> {
  const bytes = await fs.readFile(file);
  const end = bytes.indexOf(0);
  const handle = await fs.open(file, 'r+');
  try {
    await handle.write(text, end === -1 ? bytes.length : end);
  } finally {
    await handle.close();
  }
}

async function closeStore(store: JournalStore): Promise<void> {
  await store.close();
  open.splice(open.indexOf(store), 1);
}

const gig = (id: string, fields: Record<string, unknown> = {}): DocWrite => ({
  collection: 'gigs',
  doc: { id, _deleted: false, title: `Gig ${id}`, createdBy: 'u1', ...fields },
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close().catch(() => undefined)));
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('journal store: reads and commits', () => {
  it('stamps one global sequence, and reads see commits at once', async () => {
    const store = await openStore(await tempDir());
    const pending = store.commit([gig('g1'), { collection: 'users', doc: { id: 'u1', _deleted: false } }]);
    expect(store.get('gigs', 'g1')).toMatchObject({ id: 'g1', _seq: 1, title: 'Gig g1' });
    expect(store.get('users', 'u1')?._seq).toBe(2);
    expect(store.durableSeq()).toBe(0);
    expect(store.changesSince(0, 10)).toEqual([]);
    await expect(pending).resolves.toBe(2);
    expect(store.durableSeq()).toBe(2);
    await expect(store.commit([gig('g2')])).resolves.toBe(3);
    expect([...store.all('gigs')].map((d) => d.id)).toEqual(['g1', 'g2']);
  });

  it('runs a transaction as read, decide, commit: concurrent decisions each see the one before, and one writing nothing commits nothing', async () => {
    const store = await openStore(await tempDir());
    await store.commit([gig('g1', { openings: 1 })]);
    // Two decisions racing for the gig's one opening: the second sees the first's write.
    const take = (who: string) =>
      store.transaction((read) => {
        const current = read.get('gigs', 'g1')!;
        if (current.openings === 0) return { writes: [], value: `${who}: full` };
        return { writes: [gig('g1', { openings: 0, takenBy: who })], value: `${who}: hired` };
      });
    const [first, second] = await Promise.all([take('ada'), take('ben')]);
    expect(first).toEqual({ value: 'ada: hired', seq: 2 });
    expect(second).toEqual({ value: 'ben: full', seq: 2 });
    expect(store.get('gigs', 'g1')).toMatchObject({ openings: 0, takenBy: 'ada', _seq: 2 });
    expect(store.durableSeq()).toBe(2);
    expect(store.changesSince(0, 10).map((c) => c.doc._seq)).toEqual([2]);
  });

  it('ignores a caller-supplied _seq and keeps no reference to the caller object', async () => {
    const store = await openStore(await tempDir());
    const write = gig('g1', { _seq: 99, tags: ['a'] });
    await store.commit([write]);
    (write.doc.tags as string[]).push('b');
    expect(store.get('gigs', 'g1')).toMatchObject({ _seq: 1, tags: ['a'] });
  });

  it('keeps indexes up to date, including multi-valued keys, and keeps tombstones', async () => {
    const store = await openStore(await tempDir());
    await store.commit([gig('g1', { createdBy: 'alice' }), gig('g2', { createdBy: 'alice' })]);
    await store.commit([
      { collection: 'conversations', doc: { id: 'c1', _deleted: false, participants: ['alice', 'bob'] } },
    ]);
    expect(store.byIndex('gigs', 'createdBy', 'alice').map((d) => d.id)).toEqual(['g1', 'g2']);
    expect(store.byIndex('conversations', 'participant', 'bob').map((d) => d.id)).toEqual(['c1']);

    await store.commit([gig('g1', { createdBy: 'bob' })]);
    await store.commit([
      { collection: 'conversations', doc: { id: 'c1', _deleted: false, participants: ['alice', 'carol'] } },
    ]);
    expect(store.byIndex('gigs', 'createdBy', 'alice').map((d) => d.id)).toEqual(['g2']);
    expect(store.byIndex('gigs', 'createdBy', 'bob').map((d) => d.id)).toEqual(['g1']);
    expect(store.byIndex('conversations', 'participant', 'bob')).toEqual([]);
    expect(store.byIndex('conversations', 'participant', 'carol').map((d) => d.id)).toEqual(['c1']);

    await store.commit([gig('g2', { createdBy: 'alice', _deleted: true })]);
    expect(store.byIndex('gigs', 'createdBy', 'alice')).toMatchObject([{ id: 'g2', _deleted: true }]);
    expect(store.get('gigs', 'g2')?._deleted).toBe(true);
    expect(() => store.byIndex('gigs', 'nope', 'x')).toThrow(/no index "nope" on gigs/);
  });

  it('applies a multi-document commit all or none', async () => {
    const store = await openStore(await tempDir());
    await store.commit([gig('g1')]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(store.commit([gig('g2'), gig('g1', { cyclic })])).rejects.toThrow();
    expect(store.get('gigs', 'g2')).toBeUndefined();
    expect(store.get('gigs', 'g1')?._seq).toBe(1);
    const throwing: IndexDefinitions = {
      gigs: {
        bad: (d) => {
          if (d.explode) throw new Error('boom');
          return undefined;
        },
      },
    };
    const other = await openStore(await tempDir(), { indexes: throwing });
    await expect(other.commit([gig('a'), gig('b', { explode: true })])).rejects.toThrow('boom');
    expect(other.get('gigs', 'a')).toBeUndefined();
    await expect(other.commit([gig('c')])).resolves.toBe(1);
  });

  it('returns only the latest durable version of each document from changesSince', async () => {
    const store = await openStore(await tempDir());
    await store.commit([gig('g1'), gig('g2'), gig('g3')]);
    await store.commit([gig('g1', { title: 'renamed' })]);
    const changes = store.changesSince(0, 10);
    expect(changes.map((c) => [c.doc.id, c.doc._seq])).toEqual([
      ['g2', 2],
      ['g3', 3],
      ['g1', 4],
    ]);
    expect(changes[2]!.doc.title).toBe('renamed');
    expect(store.changesSince(2, 1).map((c) => c.doc.id)).toEqual(['g3']);
    expect(store.changesSince(4, 10)).toEqual([]);
  });

  it('stays fast and correct at thousands of documents rewritten many times', async () => {
    const store = await openStore(await tempDir());
    const commits: Promise<number>[] = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 3000; i++) commits.push(store.commit([gig(`g${i}`, { round })]));
    }
    await Promise.all(commits);
    const latest = store.changesSince(0, Infinity);
    expect(latest).toHaveLength(3000);
    expect(latest.every((c) => c.doc.round === 4)).toBe(true);
    expect(store.changesSince(15_000 - 100, 1000)).toHaveLength(100);
  });

  it('tells onDurable listeners about each synced group, and stops after unsubscribe', async () => {
    const store = await openStore(await tempDir());
    const seen: Change[][] = [];
    const stop = store.onDurable((changes) => {
      expect(store.durableSeq()).toBeGreaterThanOrEqual(changes[changes.length - 1]!.doc._seq);
      seen.push(changes);
    });
    await Promise.all([store.commit([gig('g1')]), store.commit([gig('g2'), gig('g3')])]);
    await store.appendChatUpdate('room', new Uint8Array([1]));
    expect(seen.flat().map((c) => c.doc.id)).toEqual(['g1', 'g2', 'g3']);
    stop();
    await store.commit([gig('g4')]);
    expect(seen.flat()).toHaveLength(3);
  });

  it('shares one sync among commits that arrive together (group commit)', async () => {
    const store = await openStore(await tempDir());
    const before = store.stats().journalSyncs;
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.commit([gig(`g${i}`)])));
    const syncs = store.stats().journalSyncs - before;
    expect(syncs).toBeGreaterThanOrEqual(1);
    expect(syncs).toBeLessThan(20);
    await expect(store.commit([])).resolves.toBe(200);
  });

  it('refuses commits after close', async () => {
    const store = await openStore(await tempDir());
    await closeStore(store);
    await expect(store.commit([gig('g1')])).rejects.toThrow('The store is closed.');
  });
});

describe('journal store: restart', () => {
  it('keeps all data across close and reopen', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    await store.commit([gig('g1'), gig('g2', { createdBy: 'bob' })]);
    await store.commit([gig('g1', { _deleted: true })]);
    await closeStore(store);
    const again = await openStore(dir);
    expect(again.get('gigs', 'g1')).toMatchObject({ _deleted: true, _seq: 3 });
    expect(again.byIndex('gigs', 'createdBy', 'bob').map((d) => d.id)).toEqual(['g2']);
    expect(again.durableSeq()).toBe(3);
    await expect(again.commit([gig('g3')])).resolves.toBe(4);
  });

  it('recovers every acknowledged commit without a close (folder copied while open)', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    for (let i = 0; i < 50; i++) await store.commit([gig(`g${i}`, { n: i })]);
    await store.snapshot();
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.commit([gig(`h${i}`)])));
    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true });
    // The copied LOCK names this (live) process but is not held by it here: taken over as stale.
    const recovered = await openStore(copy);
    expect([...recovered.all('gigs')]).toHaveLength(100);
    const g49: StoredDoc | undefined = recovered.get('gigs', 'g49');
    expect(g49?.n).toBe(49);
    expect(recovered.durableSeq()).toBe(100);
  });

  it('ignores a torn last journal line and appends cleanly after it', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    await store.commit([gig('g1')]);
    await store.commit([gig('g2')]);
    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true });
    const [journal] = await listJournalFiles(copy);
    // A crash in the middle of line 3: its start written where the lines end, before the zeros.
    await writeAtLinesEnd(journal!.file, '{"lsn":3,"writes":[{"collection":"gigs","doc":{"id":"g3"');
    const recovered = await openStore(copy);
    expect(recovered.get('gigs', 'g3')).toBeUndefined();
    expect(recovered.durableSeq()).toBe(2);
    await recovered.commit([gig('g4')]);
    // The lines, up to the zeros written ahead of them.
    const lines = (await fs.readFile(journal!.file, 'utf8')).split('\0')[0]!.split('\n');
    expect(lines.filter(Boolean).map((l) => (JSON.parse(l) as { lsn: number }).lsn)).toEqual([1, 2, 3]);
    await closeStore(recovered);
    const again = await openStore(copy);
    expect(again.get('gigs', 'g4')?._seq).toBe(3);
  });

  it('refuses to start on a damaged line before the end of the journal', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    await store.commit([gig('g1')]);
    await closeStore(store);
    const [journal] = await listJournalFiles(dir);
    await fs.writeFile(path.join(dir, 'journal-999.jsonl'), '');
    await fs.writeFile(journal!.file, 'garbage\n');
    await expect(openStore(dir)).rejects.toThrow(/journal-\d+\.jsonl is damaged at line 1/);
    // The failed start released the lock.
    await expect(fs.access(path.join(dir, 'LOCK'))).rejects.toThrow();
  });

  it('snapshots, cuts the journal, and restarts from snapshot plus the newer journal', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    for (let i = 0; i < 20; i++) await store.commit([gig(`g${i}`)]);
    await store.snapshot();
    expect(store.stats()).toMatchObject({ snapshotLsn: 20, snapshots: 1 });
    const files = await listJournalFiles(dir);
    expect(files.map((f) => f.firstLsn)).toEqual([21]);
    const db = JSON.parse(await fs.readFile(path.join(dir, 'db.json'), 'utf8')) as {
      lsn: number;
      collections: { gigs: unknown[] };
    };
    expect(db.lsn).toBe(20);
    expect(db.collections.gigs).toHaveLength(20);

    await store.commit([gig('g0', { title: 'after snapshot' })]);
    await store.snapshot(); // nothing skipped: one more line
    await store.snapshot(); // nothing changed: no new snapshot
    expect(store.stats().snapshots).toBe(2);
    await store.commit([gig('late')]);
    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true });
    const recovered = await openStore(copy);
    expect(recovered.get('gigs', 'g0')).toMatchObject({ title: 'after snapshot', _seq: 21 });
    expect(recovered.get('gigs', 'late')?._seq).toBe(22);
    expect(
      recovered
        .changesSince(0, 100)
        .map((c) => c.doc.id)
        .slice(-2),
    ).toEqual(['g0', 'late']);
  });

  it('keeps commits made while a snapshot is being written', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    await Promise.all(Array.from({ length: 500 }, (_, i) => store.commit([gig(`g${i}`)])));
    const snapshot = store.snapshot();
    await new Promise((resolve) => setImmediate(resolve)); // the state is captured; the file is being written
    const during = Array.from({ length: 200 }, (_, i) => store.commit([gig(`d${i}`), gig(`g${i}`, { title: 'new' })]));
    await Promise.all([snapshot, ...during]);
    expect(store.stats().snapshotLsn).toBe(500);
    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true });
    const recovered = await openStore(copy);
    expect([...recovered.all('gigs')]).toHaveLength(700);
    expect(recovered.get('gigs', 'g199')).toMatchObject({ title: 'new', _seq: 900 });
    expect(recovered.durableSeq()).toBe(900);
  });

  it('keeps each chat log as it was at the snapshot while appends and compactions land during its writing', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    const entry = (room: number, i: number) => new Uint8Array([room, i, ...new Uint8Array(2000).fill(i)]);
    for (let room = 0; room < 40; room++)
      for (let i = 0; i < 5; i++) await store.appendChatUpdate(`room-${room}`, entry(room, i));
    const snapshot = store.snapshot();
    await new Promise((resolve) => setImmediate(resolve)); // the state is captured; the file is being written
    // Every room changes under the snapshot: its first entries merged, one more appended.
    const during = Array.from({ length: 40 }, (_, room) =>
      store
        .compactChat(`room-${room}`, new Uint8Array([room, 99]), { from: 0, to: 3 })
        .then(() => store.appendChatUpdate(`room-${room}`, entry(room, 7))),
    );
    await Promise.all([snapshot, ...during]);
    const expected = (room: number) => [new Uint8Array([room, 99]), entry(room, 3), entry(room, 4), entry(room, 7)];
    expect(store.chatUpdates('room-39')).toEqual(expected(39));
    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true });
    const recovered = await openStore(copy);
    for (let room = 0; room < 40; room++) expect(recovered.chatUpdates(`room-${room}`)).toEqual(expected(room));
  });

  it('keeps chat logs whose room names are those of object members through a snapshot and a restart', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    const rooms = ['__proto__', 'toString', 'constructor', 'hasOwnProperty'];
    for (const [i, room] of rooms.entries()) await store.appendChatUpdate(room, new Uint8Array([i, 1, 2]));
    await store.snapshot();
    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true });
    const recovered = await openStore(copy);
    for (const [i, room] of rooms.entries()) expect(recovered.chatUpdates(room)).toEqual([new Uint8Array([i, 1, 2])]);
  });

  it('takes snapshots in the background after snapshotEveryCommits lines', async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { snapshotEveryCommits: 10 });
    // Nothing asks for them: each is taken once 10 more lines are in. (Waiting for each before the
    // next lines: one still running when the next 10 are in is not started twice.)
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < 10; i++) await store.commit([gig(`g${round}-${i}`)]);
      await vi.waitFor(() => expect(store.stats().snapshots).toBeGreaterThanOrEqual(round), { timeout: 10_000 });
    }
    expect((await listJournalFiles(dir)).length).toBe(1);
  });

  it('waits for the journal to reach half the last snapshot before rewriting a large store', async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { snapshotEveryCommits: 10 });
    // A store of about 400 KB, snapshotted once.
    await store.commit(Array.from({ length: 200 }, (_, i) => gig(`big${i}`, { description: 'x'.repeat(2000) })));
    await store.snapshot();
    const taken = store.stats().snapshots;
    const snapshotSize = (await fs.stat(path.join(dir, 'db.json'))).size;
    // Far more than 10 small lines, yet far less than half the snapshot: no rewrite of the store.
    for (let i = 0; i < 60; i++) await store.appendChatUpdate('room', new Uint8Array(100));
    expect(store.stats().snapshots).toBe(taken);
    // Once the journal holds half the snapshot's bytes, the next lines trigger one.
    let written = 60 * 200;
    while (written < snapshotSize / 2 + 2000) {
      await store.appendChatUpdate('room', new Uint8Array(1500));
      written += 2000;
    }
    for (let i = 0; i < 10; i++) await store.appendChatUpdate('room', new Uint8Array(10));
    await vi.waitFor(() => expect(store.stats().snapshots).toBeGreaterThan(taken));
  });

  it('counts the lines of the journal, not the zeros after them, towards the next snapshot at start', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    // A store of about 400 KB, snapshotted, then a few small lines: the file holds ~1 MiB of zeros after them.
    await store.commit(Array.from({ length: 200 }, (_, i) => gig(`big${i}`, { description: 'x'.repeat(2000) })));
    await store.snapshot();
    for (let i = 0; i < 20; i++) await store.appendChatUpdate('room', new Uint8Array(10));
    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true });
    const [journal] = await listJournalFiles(copy);
    expect((await fs.stat(journal!.file)).size).toBeGreaterThan((await fs.stat(path.join(copy, 'db.json'))).size);
    // 20 lines are past snapshotEveryCommits, but their bytes are far from half the snapshot.
    const recovered = await openStore(copy, { snapshotEveryCommits: 10 });
    expect(recovered.chatUpdates('room')).toHaveLength(20);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recovered.stats().snapshots).toBe(0);
  });

  it('keeps the chat log: append, compact, restart', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    await store.appendChatUpdate('r1', new Uint8Array([1, 2]));
    await store.appendChatUpdate('r1', new Uint8Array([3]));
    await store.appendChatUpdate('r2', new Uint8Array([9]));
    expect(store.chatUpdates('r1')).toEqual([new Uint8Array([1, 2]), new Uint8Array([3])]);
    expect(store.chatUpdates('none')).toEqual([]);
    await store.compactChat('r1', new Uint8Array([1, 2, 3]));
    await store.appendChatUpdate('r1', new Uint8Array([4]));
    expect(store.chatUpdates('r1')).toEqual([new Uint8Array([1, 2, 3]), new Uint8Array([4])]);

    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true }); // journal only
    expect((await openStore(copy)).chatUpdates('r1')).toEqual([new Uint8Array([1, 2, 3]), new Uint8Array([4])]);

    await closeStore(store); // snapshot only
    const again = await openStore(dir);
    expect(again.chatUpdates('r1')).toEqual([new Uint8Array([1, 2, 3]), new Uint8Array([4])]);
    expect(again.chatUpdates('r2')).toEqual([new Uint8Array([9])]);
  });

  it('a ranged compaction replaces only the entries it names, in memory, in the journal and in the snapshot', async () => {
    const dir = await tempDir();
    const store = await openStore(dir);
    for (const b of [1, 2, 3, 4]) await store.appendChatUpdate('r', new Uint8Array([b]));
    await store.compactChat('r', new Uint8Array([2, 3]), { from: 1, to: 3 });
    // An append made after the compaction read the log is never replaced by it.
    await store.appendChatUpdate('r', new Uint8Array([5]));
    const expected = [new Uint8Array([1]), new Uint8Array([2, 3]), new Uint8Array([4]), new Uint8Array([5])];
    expect(store.chatUpdates('r')).toEqual(expected);
    await expect(store.compactChat('r', new Uint8Array([9]), { from: 2, to: 9 })).rejects.toThrow(/4 entries/);
    expect(store.chatUpdates('r')).toEqual(expected);

    const copy = await tempDir();
    await fs.cp(dir, copy, { recursive: true }); // journal only
    expect((await openStore(copy)).chatUpdates('r')).toEqual(expected);
    await closeStore(store); // snapshot only
    expect((await openStore(dir)).chatUpdates('r')).toEqual(expected);
  });
});
