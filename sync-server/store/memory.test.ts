import { describe, expect, it } from 'vitest';
import { MemoryState } from './memory';
import type { StoredDoc } from './store';

const doc = (id: string, seq: number, fields: Record<string, unknown> = {}): StoredDoc => ({
  id,
  _seq: seq,
  _deleted: false,
  ...fields,
});

describe('memory state', () => {
  it('drops stale change-log entries in bulk and still answers changesSince in order', () => {
    const memory = new MemoryState({ gigs: { tag: (d) => d.tags as string[] } });
    let seq = 0;
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 500; i++)
        memory.applyWrites([
          { collection: 'gigs', doc: doc(`g${i}`, ++seq, { round, tags: ['t', 't', `r${round}`] }) },
        ]);
    }
    const changes = memory.changesSince(0, Infinity, seq);
    expect(changes).toHaveLength(500);
    expect(changes.map((c) => c.doc._seq)).toEqual(Array.from({ length: 500 }, (_, i) => 4501 + i));
    expect(memory.changesSince(4999, 10, seq).map((c) => c.doc.id)).toEqual(['g499']);
    expect(memory.changesSince(0, Infinity, 4600)).toHaveLength(100);
    expect(memory.byIndex('gigs', 'tag', 't')).toHaveLength(500);
    expect(memory.byIndex('gigs', 'tag', 'r8')).toEqual([]);
  });

  it('loads a snapshot in sequence order whatever the order of collections', () => {
    const memory = new MemoryState({});
    memory.load({ users: [doc('u1', 3), doc('u2', 1)], gigs: [doc('g1', 2)] });
    expect(memory.lastSeq).toBe(3);
    expect(memory.changesSince(0, 10, 3).map((c) => c.doc.id)).toEqual(['u2', 'g1', 'u1']);
  });

  it('keeps the newest version of each document when committed writes arrive out of order', () => {
    const memory = new MemoryState({ gigs: { owner: (d) => d.owner as string } });
    memory.applyWrites([{ collection: 'gigs', doc: doc('a', 10, { owner: 'x' }) }]);
    // This instance's own commit at 40, then the feed brings 20 and 30 (another instance's), then 40 again.
    expect(memory.applyNewer([{ collection: 'gigs', doc: doc('b', 40, { owner: 'y' }) }])).toHaveLength(1);
    const late = memory.applyNewer([
      { collection: 'gigs', doc: doc('c', 30, { owner: 'x' }) },
      { collection: 'gigs', doc: doc('b', 20, { owner: 'x' }) },
      { collection: 'gigs', doc: doc('a', 25, { owner: 'z' }) },
    ]);
    expect(late.map((w) => `${w.doc.id}@${w.doc._seq}`)).toEqual(['a@25', 'c@30']);
    expect(memory.applyNewer([{ collection: 'gigs', doc: doc('b', 40, { owner: 'y' }) }])).toEqual([]);
    expect(memory.get('gigs', 'b')).toMatchObject({ _seq: 40, owner: 'y' });
    expect(memory.byIndex('gigs', 'owner', 'x').map((d) => d.id)).toEqual(['c']);
    expect(memory.byIndex('gigs', 'owner', 'z').map((d) => d.id)).toEqual(['a']);
    expect(memory.lastSeq).toBe(40);
    expect(memory.changesSince(0, 10, 100).map((c) => `${c.doc.id}@${c.doc._seq}`)).toEqual(['a@25', 'c@30', 'b@40']);
    expect(memory.changesSince(0, 10, 35).map((c) => c.doc.id)).toEqual(['a', 'c']);
    expect(memory.changesSince(25, 10, 100).map((c) => c.doc.id)).toEqual(['c', 'b']);
  });

  it("answers one collection's changes without the others', in sequence order", () => {
    const memory = new MemoryState({});
    let seq = 0;
    for (let i = 0; i < 3000; i++)
      memory.applyWrites([
        i % 10 === 0
          ? { collection: 'gigs', doc: doc(`g${i}`, ++seq) }
          : { collection: 'notifications', doc: doc(`n${i % 1500}`, ++seq) },
      ]);
    const gigs = memory.changesSince(0, Infinity, seq, 'gigs');
    expect(gigs.every((c) => c.collection === 'gigs')).toBe(true);
    expect(gigs.map((c) => c.doc._seq)).toEqual(Array.from({ length: 300 }, (_, i) => i * 10 + 1));
    expect(memory.changesSince(1500, 3, seq, 'gigs').map((c) => c.doc._seq)).toEqual([1501, 1511, 1521]);
    // All collections together: the same order as one log.
    const all = memory.changesSince(0, Infinity, seq).map((c) => c.doc._seq);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(all).toHaveLength(300 + 1350);
  });

  it('keeps the log in order when late writes arrive in the call that drops stale entries', () => {
    const memory = new MemoryState({});
    const ids = Array.from({ length: 1100 }, (_, i) => `g${i}`);
    ids.forEach((id, i) => memory.applyWrites([{ collection: 'gigs', doc: doc(id, i + 1) }]));
    ids.forEach((id, i) => memory.applyWrites([{ collection: 'gigs', doc: doc(id, 2001 + i) }]));
    // One more stale entry than live ones: this call drops them, with a write from before the tail.
    memory.applyNewer([
      { collection: 'gigs', doc: doc('late', 1500) },
      { collection: 'gigs', doc: doc('g0', 3101) },
      { collection: 'gigs', doc: doc('g1', 3102) },
    ]);
    const seqs = memory.changesSince(0, Infinity, 4000, 'gigs').map((c) => c.doc._seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs).toHaveLength(1101);
    expect(memory.changesSince(1400, 1, 4000, 'gigs').map((c) => c.doc.id)).toEqual(['late']);
  });
});
