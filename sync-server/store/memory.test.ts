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
});
