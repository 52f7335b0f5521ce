import { createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkedWrites } from './chunked-storage';
import { overrideInstances } from './storage-overrides';
import { noteSchema as schema, notes, type Note } from '../../tests/support/notes';

let db: RxDatabase<{ notes: RxCollection<Note> }> | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

/** A database over memory storage whose writes go in chunks of 10; `between` runs between two chunks. */
async function open(between: () => Promise<void>) {
  const memory = getRxStorageMemory() as RxStorage<unknown, unknown>;
  const chunks: number[] = [];
  // Counts the rows of every write the memory storage itself receives.
  const counting = overrideInstances(memory, (inner) => ({
    bulkWrite: (rows, context) => {
      if (inner.collectionName === 'notes') chunks.push(rows.length);
      return inner.bulkWrite(rows, context);
    },
  }));
  db = await createRxDatabase<{ notes: RxCollection<Note> }>({
    name: `chunked${Math.random().toString(36).slice(2, 10)}`,
    storage: chunkedWrites(counting, { rows: 10, between }),
    multiInstance: false,
  });
  await db.addCollections({ notes: { schema } });
  return { collection: db.notes, chunks };
}

describe('a storage that writes in chunks', () => {
  it('stores a large write in chunks, with a turn between them, and live queries end with all of it, once each', async () => {
    let turns = 0;
    const { collection, chunks } = await open(async () => {
      turns++;
      await new Promise((r) => setTimeout(r, 0));
    });
    const seen: string[][] = [];
    const sub = collection.find().$.subscribe((docs) => seen.push(docs.map((d) => d.id)));
    await collection.bulkInsert(notes(35));
    await expect.poll(() => seen.at(-1)?.length).toBe(35);
    sub.unsubscribe();
    expect(chunks).toEqual([10, 10, 10, 5]);
    expect(turns).toBe(3);
    // Whatever a query saw on the way, it never held a document twice.
    for (const ids of seen) expect(new Set(ids).size).toBe(ids.length);
    expect(seen.at(-1)).toEqual(notes(35).map((n) => n.id));
    expect(await collection.count().exec()).toBe(35);
  });

  it('writes a small write as it is', async () => {
    let turns = 0;
    const { collection, chunks } = await open(async () => void turns++);
    await collection.bulkInsert(notes(10));
    expect(chunks).toEqual([10]);
    expect(turns).toBe(0);
  });

  it('answers with the errors of every chunk', async () => {
    const { collection } = await open(() => Promise.resolve());
    await collection.bulkInsert([notes(1, 3)[0]!, notes(1, 27)[0]!]);
    const answer = await collection.bulkInsert(notes(30));
    expect(answer.error.map((e) => e.documentId).sort()).toEqual(['note-0003', 'note-0027']);
    expect(answer.success).toHaveLength(28);
    expect(await collection.count().exec()).toBe(30);
  });

  it('lets other writes in between its chunks', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let waiting!: () => void;
    const reached = new Promise<void>((r) => (waiting = r));
    const { collection } = await open(async () => {
      waiting();
      await gate;
    });
    const big = collection.bulkInsert(notes(20));
    await reached; // the first chunk is stored; the write waits between chunks
    await collection.insert({ id: 'other', text: 'elsewhere' });
    const first = await collection.findOne('note-0002').exec();
    await first!.incrementalPatch({ text: 'changed' });
    expect(await collection.count().exec()).toBe(11);
    release();
    await big;
    expect(await collection.count().exec()).toBe(21);
    expect((await collection.findOne('note-0002').exec())!.text).toBe('changed');
  });

  it('hands a chunk over without waiting for the one before it to be stored, and stops at a chunk that fails', async () => {
    const memory = getRxStorageMemory() as RxStorage<unknown, unknown>;
    const handed: number[] = [];
    let holdFirst!: () => void;
    const firstHeld = new Promise<void>((r) => (holdFirst = r));
    let failSecond = false;
    const gated = overrideInstances(memory, (inner) => ({
      bulkWrite: async (rows, context) => {
        if (inner.collectionName !== 'notes') return inner.bulkWrite(rows, context);
        const chunk = handed.push(rows.length);
        if (chunk === 1) await firstHeld;
        if (chunk === 2 && failSecond) throw new Error('the disk is full');
        return inner.bulkWrite(rows, context);
      },
    }));
    db = await createRxDatabase<{ notes: RxCollection<Note> }>({
      name: `chunked${Math.random().toString(36).slice(2, 10)}`,
      storage: chunkedWrites(gated, { rows: 10, between: () => new Promise((r) => setTimeout(r, 0)) }),
      multiInstance: false,
    });
    await db.addCollections({ notes: { schema } });
    const write = db.notes.bulkInsert(notes(30));
    // All three chunks are handed over while the first is still being stored.
    await expect.poll(() => handed.length).toBe(3);
    holdFirst();
    await write;
    expect(await db.notes.count().exec()).toBe(30);

    handed.length = 0;
    failSecond = true;
    await expect(db.notes.bulkInsert(notes(30, 100))).rejects.toThrow('the disk is full');
    // The first chunk waits to be stored; the second fails; the third is never handed over.
    expect(handed).toEqual([10, 10]);
  });
});
