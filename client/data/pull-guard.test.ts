import { describe, expect, it } from 'vitest';
import { isStoreFailure, PullRewinds, storable, type RewindPersistence } from './pull-guard';

describe('pull guard', () => {
  it('keeps pulled documents with valid ids and counts the others', () => {
    const docs = [{ id: 'gig-abc123' }, { id: 'toString' }, { id: '__proto__' }, { id: 'constructor' }, {}];
    expect(storable('gigs', docs)).toEqual({ keep: [{ id: 'gig-abc123' }], refused: 4 });
    expect(storable('applications', [{ id: 'gig123.user456' }, { id: 'valueOf.user456' }])).toEqual({ keep: [{ id: 'gig123.user456' }], refused: 1 });
  });

  it('tells a failed store from a failed request', () => {
    expect(isStoreFailure({ code: 'RC_PULL', parameters: { direction: 'pull', errors: [] } })).toBe(false);
    expect(isStoreFailure({ code: 'RC_PUSH', parameters: { direction: 'push', errors: [] } })).toBe(false);
    expect(isStoreFailure({ code: 'RC_PULL', parameters: { writeError: { status: 422 } } })).toBe(true);
    expect(isStoreFailure(new TypeError("Cannot read properties of undefined (reading 'isResolvedConflict')"))).toBe(true);
  });

  it('a failure makes the next pull start over, once, and holds (persisted) until a clean pass', () => {
    let saved: string[] = [];
    const persistence: RewindPersistence = { load: () => saved, save: (c) => (saved = c) };
    const rewinds = new PullRewinds(persistence);
    expect(rewinds.takeDue('gigs')).toBe(false);
    rewinds.failed('gigs');
    expect(saved).toEqual(['gigs']);
    expect(rewinds.any).toBe(true);
    const mark = rewinds.mark('gigs');
    expect(rewinds.takeDue('gigs')).toBe(true);
    expect(rewinds.takeDue('gigs')).toBe(false);
    // Another failure during the pass: the pass does not settle it.
    rewinds.failed('gigs');
    rewinds.settled('gigs', mark);
    expect(rewinds.any).toBe(true);
    // A reload before a clean pass starts over again.
    const reloaded = new PullRewinds(persistence);
    expect(reloaded.takeDue('gigs')).toBe(true);
    const clean = reloaded.mark('gigs');
    reloaded.settled('gigs', clean);
    expect(reloaded.any).toBe(false);
    expect(saved).toEqual([]);
  });
});
