import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { describe, expect, it } from 'vitest';
import type { Gig } from '../../shared/schemas/gig';
import { gigDoc } from '../../tests/support/fixtures';
import { createAppDatabase } from './database';
import { LocalData } from './local-data';
import { Outbox } from './outbox';

/** A gig (the tests' shared factory) with a fixed time, so only what the test changes differs. */
const gig = (id: string, title: string) => gigDoc({ id, title, createdAt: 1, updatedAt: 1 }) as Gig;

describe('the documents a live query gives', () => {
  it('are made once per stored version: a changed document comes new, an unchanged one as it was', async () => {
    const db = await createAppDatabase('user-local-1', getRxStorageMemory(), { multiInstance: false });
    try {
      const local = new LocalData(db, new Outbox());
      await local.insert('gigs', gig('gig-abcdef1', 'Poster'));
      await local.insert('gigs', gig('gig-abcdef2', 'Mural'));
      const all = local.observeAll('gigs', { sort: [{ id: 'asc' }] });
      const before = await firstValueFrom(all.pipe(filter((g) => g.length === 2)));
      await local.patch('gigs', 'gig-abcdef1', { title: 'Poster, in colour' });
      const after = await firstValueFrom(all.pipe(filter((g) => g[0]?.title === 'Poster, in colour')));
      expect(after.map((g) => g.title)).toEqual(['Poster, in colour', 'Mural']);
      expect(after[1]).toBe(before[1]);
      expect(after[0]).not.toBe(before[0]);
      expect(before[0]!.title).toBe('Poster');
      // A one-off read agrees with the live one.
      expect((await local.find('gigs', { selector: { id: 'gig-abcdef1' } }))[0]!.title).toBe('Poster, in colour');
    } finally {
      await db.close();
    }
  });
});

describe('a whole collection, kept from its changes', () => {
  /**
   * `run` with a fresh database's data, `before` stored first, then the gigs observed whole
   * (`everyMs`): every list handed on is kept in `lists`.
   */
  async function watching(
    name: string,
    everyMs: number,
    before: Gig[],
    run: (local: LocalData, lists: Gig[][]) => Promise<void>,
  ): Promise<void> {
    const db = await createAppDatabase(name, getRxStorageMemory(), { multiInstance: false });
    const local = new LocalData(db, new Outbox());
    const lists: Gig[][] = [];
    try {
      for (const g of before) await local.insert('gigs', g);
      const sub = local.observeWhole('gigs', everyMs).subscribe((gigs) => lists.push(gigs));
      try {
        await run(local, lists);
      } finally {
        sub.unsubscribe();
      }
    } finally {
      await db.close();
    }
  }
  const byId = (gigs: Gig[]) => [...gigs].sort((a, b) => (a.id < b.id ? -1 : 1));

  it('holds every document as a one-off read gives it, through inserts, changes and deletions', async () => {
    const before = [gig('gig-abcdef1', 'Poster'), gig('gig-abcdef2', 'Mural')];
    await watching('user-local-2', 0, before, async (local, lists) => {
      const seen = async (check: (gigs: Gig[]) => boolean) => {
        await expect.poll(() => lists.some(check)).toBe(true);
        return byId(lists.at(-1)!);
      };
      expect((await seen((g) => g.length === 2)).map((g) => g.title)).toEqual(['Poster', 'Mural']);
      await local.patch('gigs', 'gig-abcdef1', { title: 'Poster, in colour' });
      await local.insert('gigs', gig('gig-abcdef3', 'Zine'));
      await local.remove('gigs', 'gig-abcdef2');
      const now = await seen((g) => g.length === 2 && g.some((x) => x.id === 'gig-abcdef3'));
      expect(now.map((g) => g.title)).toEqual(['Poster, in colour', 'Zine']);
      // The same values a one-off read gives: no revision, meta or deletion flag of RxDB's own.
      expect(now).toEqual(byId(await local.find('gigs')));
    });
  });

  it('loses no change stored while the collection is first read', async () => {
    await watching('user-local-3', 0, [gig('gig-before1', 'Before')], async (local, lists) => {
      // Stored before the first read answers: the read may or may not see them.
      const writes = Array.from({ length: 30 }, (_, i) => local.insert('gigs', gig(`gig-during${i}`, `During ${i}`)));
      await local.patch('gigs', 'gig-before1', { title: 'Before, changed' });
      await Promise.all(writes);
      // The last list handed on holds all 31, the changed one as changed.
      await expect.poll(() => lists.at(-1)?.find((g) => g.id === 'gig-before1')?.title).toBe('Before, changed');
      expect(lists.at(-1)).toHaveLength(31);
    });
  });

  it('hands the list on at most once a window while changes stream in, the latest at its end', async () => {
    await watching('user-local-4', 1_000, [], async (local, lists) => {
      await expect.poll(() => lists.length).toBe(1);
      for (let i = 0; i < 20; i += 1) await local.insert('gigs', gig(`gig-stream${i}`, `Stream ${i}`));
      // The list was handed on just now: the 20 changes wait for the window's end, together.
      expect(lists.map((l) => l.length)).toEqual([0]);
      await expect.poll(() => lists.at(-1)?.length, { timeout: 3_000 }).toBe(20);
      expect(lists.map((l) => l.length)).toEqual([0, 20]);
      // A change after a quiet window is handed on at once.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await local.insert('gigs', gig('gig-quiet1', 'After a quiet second'));
      await expect.poll(() => lists.map((l) => l.length), { timeout: 500 }).toEqual([0, 20, 21]);
    });
  });
});

describe('what a write leaves waiting to go out', () => {
  it('a write that fails leaves nothing counted that was not waiting before it', async () => {
    const db = await createAppDatabase('user-local-outbox', getRxStorageMemory(), { multiInstance: false });
    try {
      const outbox = new Outbox();
      const local = new LocalData(db, outbox);
      await local.insert('gigs', gig('gig-abcdef1', 'Poster'));
      expect(outbox.count).toBe(1);
      outbox.settle('gigs', ['gig-abcdef1']); // sent
      // The same id again (a second tap of a button that creates it): RxDB refuses the insert.
      await expect(local.insert('gigs', gig('gig-abcdef1', 'Poster'))).rejects.toThrow();
      expect(outbox.count).toBe(0);
    } finally {
      await db.close();
    }
  });
});
