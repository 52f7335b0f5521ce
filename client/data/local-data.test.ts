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
