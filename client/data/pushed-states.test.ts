import { describe, expect, it } from 'vitest';
import { rememberPushed } from './conflict-handler';
import { KEPT_MAX_CHARS, KEPT_PER_DOCUMENT, KeptPushedStates, type PushedPersistence } from './pushed-states';

/** A localStorage entry: what was saved, as JSON, read back. */
function entry(initial?: unknown): PushedPersistence & { raw(): unknown } {
  let json = initial === undefined ? undefined : JSON.stringify(initial);
  return {
    load: () => (json === undefined ? undefined : (JSON.parse(json) as unknown)),
    save: (states) => (json = JSON.stringify(states)),
    raw: () => (json === undefined ? undefined : (JSON.parse(json) as unknown)),
  };
}

/** The save a push's rows schedule (one, after the rows are recorded). */
const saved = () => Promise.resolve();

const profile = (bio: string) => ({ id: 'u1', name: 'Ada', bio, email: 'ada@example.com', updatedAt: 7, _deleted: false });

describe('the pushed states kept across a reload', () => {
  it("a reload finds what was pushed of the changes still waiting: the mergeable fields only, nothing of applications", async () => {
    const storage = entry();
    const waiting = ['users:u1', 'applications:g1.u1'];
    const before = new KeptPushedStates(storage, () => waiting);
    rememberPushed(before, 'users:u1', profile('First'));
    rememberPushed(before, 'applications:g1.u1', { id: 'g1.u1', status: 'WITHDRAWN', budget: 100 });
    await saved();
    expect(storage.raw()).toEqual({ 'users:u1': [{ name: 'Ada', bio: 'First' }] });

    const after = new KeptPushedStates(storage, () => waiting);
    expect(after.get('users:u1')).toEqual([{ name: 'Ada', bio: 'First' }]);
    expect(after.get('applications:g1.u1')).toBeUndefined();
  });

  it('a retry of the same state is kept once; an answered change is dropped at the next save', async () => {
    const storage = entry();
    const waiting = new Set(['users:u1', 'gigs:g1']);
    const kept = new KeptPushedStates(storage, () => [...waiting]);
    rememberPushed(kept, 'users:u1', profile('First'));
    rememberPushed(kept, 'users:u1', profile('First'));
    rememberPushed(kept, 'users:u1', profile('Second'));
    expect(kept.get('users:u1')!.map((s) => s.bio)).toEqual(['First', 'Second']);
    waiting.delete('users:u1');
    rememberPushed(kept, 'gigs:g1', { id: 'g1', title: 'Poster', createdBy: 'u1' });
    await saved();
    expect(storage.raw()).toEqual({ 'gigs:g1': [{ title: 'Poster' }] });
  });

  it("another tab's pushes are read when this tab has none, and kept when this one saves", async () => {
    const storage = entry({ 'users:u1': [{ bio: 'From the other tab' }] });
    const kept = new KeptPushedStates(storage, () => ['users:u1', 'gigs:g1']);
    expect(kept.get('users:u1')).toEqual([{ bio: 'From the other tab' }]);
    rememberPushed(kept, 'gigs:g1', { id: 'g1', title: 'Poster' });
    await saved();
    expect(storage.raw()).toEqual({ 'users:u1': [{ bio: 'From the other tab' }], 'gigs:g1': [{ title: 'Poster' }] });
  });

  it("one save for a push's rows; the entry stays small: the last few states each, within its budget, oldest changes first", async () => {
    let saves = 0;
    const storage = entry();
    const counted: PushedPersistence = { load: storage.load, save: (s) => (saves++, storage.save(s)) };
    const waiting = Array.from({ length: 300 }, (_, i) => `gigs:g${String(i).padStart(3, '0')}`);
    const kept = new KeptPushedStates(counted, () => waiting);
    const description = 'A long description of the work. '.repeat(40);
    for (let round = 0; round < KEPT_PER_DOCUMENT + 2; round++) {
      for (const key of waiting) rememberPushed(kept, key, { id: key.slice(5), title: `Title ${round}`, description });
      await saved();
    }
    expect(saves).toBe(KEPT_PER_DOCUMENT + 2);
    const raw = storage.raw() as Record<string, { title: string }[]>;
    expect(JSON.stringify(raw).length).toBeLessThanOrEqual(KEPT_MAX_CHARS);
    // Over the budget: one state per document (the last), for the changes waiting longest.
    expect(Object.keys(raw)).toEqual(waiting.slice(0, Object.keys(raw).length));
    expect(Object.keys(raw).length).toBeGreaterThan(100);
    expect(Object.values(raw).every((list) => list.length === 1 && list[0]!.title === `Title ${KEPT_PER_DOCUMENT + 1}`)).toBe(true);
    // Within the budget: the last KEPT_PER_DOCUMENT states of each.
    const few = entry();
    const small = new KeptPushedStates(few, () => ['users:u1']);
    for (let i = 0; i < KEPT_PER_DOCUMENT + 3; i++) rememberPushed(small, 'users:u1', profile(`Bio ${i}`));
    await saved();
    expect((few.raw() as Record<string, { bio: string }[]>)['users:u1']!.map((s) => s.bio)).toEqual(
      Array.from({ length: KEPT_PER_DOCUMENT }, (_, i) => `Bio ${i + 3}`),
    );
  });

  it('an entry that is not what the app writes is read as nothing, whatever its keys', () => {
    for (const raw of [42, 'text', [1, 2], { toString: 5, 'users:u1': [1, null, ['x'], { bio: 'kept' }], __proto__: [{}] }]) {
      const kept = new KeptPushedStates(entry(raw), () => ['users:u1', 'toString']);
      expect(kept.get('toString')).toBeUndefined();
      expect(kept.get('users:u1') ?? []).toEqual(typeof raw === 'object' && !Array.isArray(raw) ? [{ bio: 'kept' }] : []);
    }
  });
});
