import { afterEach, describe, expect, it } from 'vitest';
import { rememberPushed } from './conflict-handler';
import { KEPT_MAX_CHARS, KEPT_PER_DOCUMENT, KeptPushedStates, localStoragePushed, type PushedPersistence } from './pushed-states';

/** A localStorage entry: what was saved, as JSON, read back. */
function entry(initial?: unknown): PushedPersistence & { raw(): unknown; saves: number } {
  let json = initial === undefined ? undefined : JSON.stringify(initial);
  const e = {
    saves: 0,
    load: () => (json === undefined ? undefined : (JSON.parse(json) as unknown)),
    save: (states: unknown) => {
      e.saves++;
      json = JSON.stringify(states);
    },
    raw: () => (json === undefined ? undefined : (JSON.parse(json) as unknown)),
  };
  return e;
}

/** The save a push's rows schedule (one, after the rows are recorded). */
const saved = () => Promise.resolve();

const profile = (bio: string) => ({ id: 'u1', name: 'Ada', bio, email: 'ada@example.com', updatedAt: 7, _deleted: false });

describe('the pushed states kept across a reload', () => {
  it('a reload finds what was pushed: the mergeable fields only, nothing of applications', async () => {
    const storage = entry();
    const before = new KeptPushedStates(storage);
    rememberPushed(before, 'users:u1', profile('First'));
    rememberPushed(before, 'applications:g1.u1', { id: 'g1.u1', status: 'WITHDRAWN', budget: 100 });
    await saved();
    expect(storage.raw()).toEqual({ 'users:u1': [{ name: 'Ada', bio: 'First' }] });

    const after = new KeptPushedStates(storage);
    expect(after.get('users:u1')).toEqual([{ name: 'Ada', bio: 'First' }]);
    expect(after.get('applications:g1.u1')).toBeUndefined();
  });

  it('a retry of the same state is kept once; a push assuming a server version that holds the last state recorded forgets the ones before', async () => {
    const storage = entry();
    const kept = new KeptPushedStates(storage);
    rememberPushed(kept, 'users:u1', profile('First'), profile('Before'));
    rememberPushed(kept, 'users:u1', profile('First'), profile('Before'));
    // Its answer lost: the next push still assumes the version before it.
    rememberPushed(kept, 'users:u1', profile('Second '), profile('Before'));
    expect(kept.get('users:u1')!.map((s) => s.bio)).toEqual(['First', 'Second ']);
    // The device's record of the server caught up (text trimmed, as the server stores it).
    rememberPushed(kept, 'users:u1', profile('Third'), { ...profile('Second'), updatedAt: 10 });
    await saved();
    expect(kept.get('users:u1')!.map((s) => s.bio)).toEqual(['Third']);
    expect(storage.raw()).toEqual({ 'users:u1': [{ name: 'Ada', bio: 'Third' }] });
  });

  it("another tab's pushes are read when this tab has none, and kept when this one saves", async () => {
    const storage = entry({ 'users:u1': [{ bio: 'From the other tab' }] });
    const kept = new KeptPushedStates(storage);
    expect(kept.get('users:u1')).toEqual([{ bio: 'From the other tab' }]);
    rememberPushed(kept, 'gigs:g1', { id: 'g1', title: 'Poster' });
    await saved();
    expect(storage.raw()).toEqual({ 'users:u1': [{ bio: 'From the other tab' }], 'gigs:g1': [{ title: 'Poster' }] });
  });

  it("one save for a push's rows; the entry stays small: the last few states each, within its budget, the latest pushed first", async () => {
    const storage = entry();
    const kept = new KeptPushedStates(storage);
    const keys = Array.from({ length: 300 }, (_, i) => `gigs:g${String(i).padStart(3, '0')}`);
    const description = 'A long description of the work. '.repeat(40);
    for (let round = 0; round < KEPT_PER_DOCUMENT + 2; round++) {
      for (const key of keys) rememberPushed(kept, key, { id: key.slice(5), title: `Title ${round}`, description });
      await saved();
    }
    expect(storage.saves).toBe(KEPT_PER_DOCUMENT + 2);
    const raw = storage.raw() as Record<string, { title: string }[]>;
    expect(JSON.stringify(raw).length).toBeLessThanOrEqual(KEPT_MAX_CHARS);
    // Over the budget: one state per document (the last), for the documents pushed last.
    const held = Object.keys(raw);
    expect(held.length).toBeGreaterThan(100);
    expect(held).toEqual(keys.slice(keys.length - held.length));
    expect(Object.values(raw).every((list) => list.length === 1 && list[0]!.title === `Title ${KEPT_PER_DOCUMENT + 1}`)).toBe(true);
    // Within the budget: the last KEPT_PER_DOCUMENT states of each.
    const few = entry();
    const small = new KeptPushedStates(few);
    for (let i = 0; i < KEPT_PER_DOCUMENT + 3; i++) rememberPushed(small, 'users:u1', profile(`Bio ${i}`));
    await saved();
    expect((few.raw() as Record<string, { bio: string }[]>)['users:u1']!.map((s) => s.bio)).toEqual(
      Array.from({ length: KEPT_PER_DOCUMENT }, (_, i) => `Bio ${i + 3}`),
    );
  });

  it('an entry that is not what the app writes is read as nothing, whatever its keys', () => {
    for (const raw of [42, 'text', [1, 2], { toString: 5, 'users:u1': [1, null, ['x'], { bio: 'kept' }] }]) {
      const kept = new KeptPushedStates(entry(raw));
      expect(kept.get('toString')).toBeUndefined();
      expect(kept.get('users:u1') ?? []).toEqual(typeof raw === 'object' && !Array.isArray(raw) ? [{ bio: 'kept' }] : []);
    }
  });

  describe('in localStorage', () => {
    const stored = new Map<string, string>();
    afterEach(() => {
      stored.clear();
      delete (globalThis as { localStorage?: Storage }).localStorage;
    });

    it("reads another tab's write, and an emptied entry goes", async () => {
      globalThis.localStorage = {
        getItem: (k: string) => stored.get(k) ?? null,
        setItem: (k: string, v: string) => void stored.set(k, v),
        removeItem: (k: string) => void stored.delete(k),
      } as Storage;
      const kept = new KeptPushedStates(localStoragePushed('gigs-pushed-u1'));
      rememberPushed(kept, 'users:u1', profile('Mine'));
      await saved();
      expect(JSON.parse(stored.get('gigs-pushed-u1')!)).toEqual({ 'users:u1': [{ name: 'Ada', bio: 'Mine' }] });
      // Another tab writes the entry: read as it is now.
      stored.set('gigs-pushed-u1', JSON.stringify({ 'gigs:g1': [{ title: 'Theirs' }] }));
      expect(kept.get('gigs:g1')).toEqual([{ title: 'Theirs' }]);
      const empty = new KeptPushedStates({ load: () => undefined, save: localStoragePushed('gigs-pushed-u1').save });
      empty.set('applications:a.b', [{ status: 'WITHDRAWN' }]);
      await saved();
      expect(stored.has('gigs-pushed-u1')).toBe(false);
    });
  });
});
