import { describe, expect, it } from 'vitest';
import { Outbox } from './outbox';

describe('outbox: local changes waiting to go out', () => {
  it('counts tracked documents until the server answered a push of them, and survives a reload', () => {
    let saved: string[] = [];
    const persistence = { load: () => saved, save: (keys: string[]) => (saved = keys) };
    const outbox = new Outbox(persistence);
    const counts: number[] = [];
    outbox.subscribe((n) => counts.push(n));
    outbox.track('gigs', 'g1');
    outbox.track('gigs', 'g1');
    outbox.track('users', 'u1');
    expect(outbox.count).toBe(2);
    expect(new Outbox(persistence).count).toBe(2);
    outbox.settle('gigs', ['g1', 'unknown']);
    expect(outbox.has('gigs', 'g1')).toBe(false);
    expect(outbox.count).toBe(1);
    expect(counts).toEqual([1, 1, 2, 1]);
  });
});
