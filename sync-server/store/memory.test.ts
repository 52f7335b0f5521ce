import { describe, expect, it } from 'vitest';
import { MemoryState } from './memory';
import type { StoredDoc } from './store';

const doc = (id: string, seq: number, fields: Record<string, unknown> = {}): StoredDoc => ({ id, _seq: seq, _deleted: false, ...fields });

describe('memory state', () => {
  it('drops stale change-log entries in bulk and still answers changesSince in order', () => {
    const memory = new MemoryState({ gigs: { tag: (d) => d.tags as string[] } });
    let seq = 0;
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 500; i++) memory.applyWrites([{ collection: 'gigs', doc: doc(`g${i}`, ++seq, { round, tags: ['t', 't', `r${round}`] }) }]);
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
});
