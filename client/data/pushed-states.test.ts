import { describe, expect, it } from 'vitest';
import { rememberPushed } from './conflict-handler';
import { KeptPushedStates, type PushedPersistence } from './pushed-states';

/** A localStorage entry: what was saved, as JSON, read back. */
function entry(initial?: unknown): PushedPersistence & { raw(): unknown } {
  let json = initial === undefined ? undefined : JSON.stringify(initial);
  return {
    load: () => (json === undefined ? undefined : (JSON.parse(json) as unknown)),
    save: (states) => (json = JSON.stringify(states)),
    raw: () => (json === undefined ? undefined : (JSON.parse(json) as unknown)),
  };
}

const profile = (bio: string) => ({ id: 'u1', name: 'Ada', bio, email: 'ada@example.com', updatedAt: 7, _deleted: false });

describe('the pushed states kept across a reload', () => {
  it("a reload finds what was pushed of the changes still waiting: the mergeable fields only, nothing of applications", () => {
    const storage = entry();
    const waiting = ['users:u1', 'applications:g1.u1'];
    const before = new KeptPushedStates(storage, () => waiting);
    rememberPushed(before, 'users:u1', profile('First'));
    rememberPushed(before, 'applications:g1.u1', { id: 'g1.u1', status: 'WITHDRAWN', budget: 100 });
    expect(storage.raw()).toEqual({ 'users:u1': [{ name: 'Ada', bio: 'First' }] });

    const after = new KeptPushedStates(storage, () => waiting);
    expect(after.get('users:u1')).toEqual([{ name: 'Ada', bio: 'First' }]);
    expect(after.get('applications:g1.u1')).toBeUndefined();
  });

  it('a retry of the same state is kept once; an answered change is dropped at the next save', () => {
    const storage = entry();
    const waiting = new Set(['users:u1', 'gigs:g1']);
    const kept = new KeptPushedStates(storage, () => [...waiting]);
    rememberPushed(kept, 'users:u1', profile('First'));
    rememberPushed(kept, 'users:u1', profile('First'));
    rememberPushed(kept, 'users:u1', profile('Second'));
    expect(kept.get('users:u1')!.map((s) => s.bio)).toEqual(['First', 'Second']);
    waiting.delete('users:u1');
    rememberPushed(kept, 'gigs:g1', { id: 'g1', title: 'Poster', createdBy: 'u1' });
    expect(storage.raw()).toEqual({ 'gigs:g1': [{ title: 'Poster' }] });
  });

  it("another tab's pushes are read when this tab has none, and kept when this one saves", () => {
    const storage = entry({ 'users:u1': [{ bio: 'From the other tab' }] });
    const kept = new KeptPushedStates(storage, () => ['users:u1', 'gigs:g1']);
    expect(kept.get('users:u1')).toEqual([{ bio: 'From the other tab' }]);
    rememberPushed(kept, 'gigs:g1', { id: 'g1', title: 'Poster' });
    expect(storage.raw()).toEqual({ 'users:u1': [{ bio: 'From the other tab' }], 'gigs:g1': [{ title: 'Poster' }] });
  });

  it('an entry that is not what the app writes is read as nothing, whatever its keys', () => {
    for (const raw of [42, 'text', [1, 2], { toString: 5, 'users:u1': [1, null, ['x'], { bio: 'kept' }], __proto__: [{}] }]) {
      const kept = new KeptPushedStates(entry(raw), () => ['users:u1', 'toString']);
      expect(kept.get('toString')).toBeUndefined();
      expect(kept.get('users:u1') ?? []).toEqual(typeof raw === 'object' && !Array.isArray(raw) ? [{ bio: 'kept' }] : []);
    }
  });
});
