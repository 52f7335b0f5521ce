import { describe, expect, it } from 'vitest';
import { createConflictHandler } from './conflict-handler';

const base = { id: 'u1', name: 'Ada', bio: 'Painter', username: 'ada', updatedAt: 1, _deleted: false };

describe('conflict handler: the server wins, except offline edits of free-text fields it did not touch', () => {
  it('[M1] keeps a local edit of a field the server did not change, and takes the server’s other changes', async () => {
    const h = createConflictHandler<typeof base>('users', new Set());
    const resolved = await h.resolve({ assumedMasterState: base, realMasterState: { ...base, name: 'Ada L.', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Painter and muralist' } }, 'test');
    expect(resolved).toMatchObject({ name: 'Ada L.', bio: 'Painter and muralist', updatedAt: 2 });
  });

  it('[M2] the server wins when both sides changed the same field', async () => {
    const h = createConflictHandler<typeof base>('users', new Set());
    const resolved = await h.resolve({ assumedMasterState: base, realMasterState: { ...base, bio: 'Server bio', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Local bio' } }, 'test');
    expect(resolved.bio).toBe('Server bio');
  });

  it('[M3] a document the server just refused takes the server state whole, once', async () => {
    const refused = new Set(['users:u1']);
    const h = createConflictHandler<typeof base>('users', refused);
    const input = { assumedMasterState: base, realMasterState: base, newDocumentState: { ...base, bio: 'Refused bio' } };
    expect((await h.resolve(input, 'test')).bio).toBe('Painter');
    expect(refused.size).toBe(0);
  });

  it('[M4] status and other fields of non-mergeable collections always take the server state', async () => {
    const app = { id: 'a1', status: 'PENDING', finalBudget: null as number | null, updatedAt: 1, _deleted: false };
    const h = createConflictHandler<typeof app>('applications', new Set());
    const resolved = await h.resolve({ assumedMasterState: app, realMasterState: { ...app, status: 'REJECTED', updatedAt: 2 }, newDocumentState: { ...app, finalBudget: 100 } }, 'test');
    expect(resolved).toEqual({ ...app, status: 'REJECTED', updatedAt: 2 });
  });

  it('[M6] a local deletion is kept against a live master state (and goes out again), unless the server just refused it', async () => {
    const gig = { id: 'g1', title: 'Poster', updatedAt: 2, _deleted: false };
    const h = createConflictHandler<typeof gig>('gigs', new Set());
    // The creation landed but its answer was lost: the deletion was pushed assuming no master.
    const resolved = await h.resolve({ assumedMasterState: undefined, realMasterState: gig, newDocumentState: { ...gig, updatedAt: 1, _deleted: true } }, 'test');
    expect(resolved).toEqual({ ...gig, _deleted: true });
    const refusing = createConflictHandler<typeof gig>('gigs', new Set(['gigs:g1']));
    expect(await refusing.resolve({ assumedMasterState: gig, realMasterState: gig, newDocumentState: { ...gig, _deleted: true } }, 'test')).toEqual(gig);
  });

  it('[M7] a newer local edit wins over the server holding this device\'s own earlier push of the field', async () => {
    const pushed = new Map([['users:u1', [{ ...base, bio: 'First' }, { ...base, bio: 'Second' }]]]);
    const h = createConflictHandler<typeof base>('users', new Set(), pushed);
    // 'First' and then 'Second' were pushed; 'First' landed; the conflict answers the push of 'Second'.
    const resolved = await h.resolve({ assumedMasterState: base, realMasterState: { ...base, bio: 'First', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Second' } }, 'test');
    expect(resolved).toMatchObject({ bio: 'Second', updatedAt: 2 });
  });

  it('[M8] an application move goes out again when the server changed only other fields; not when it moved the status', async () => {
    const app = { id: 'a1', status: 'PENDING_ACCEPTANCE', finalBudget: 100 as number | null, startedAt: null, gigDeleted: false, updatedAt: 1, _deleted: false };
    const h = createConflictHandler<typeof app>('applications', new Set());
    const declined = { ...app, status: 'REJECTED', finalBudget: null };
    const resolved = await h.resolve({ assumedMasterState: app, realMasterState: { ...app, gigDeleted: true, updatedAt: 2 }, newDocumentState: declined }, 'test');
    expect(resolved).toEqual({ ...app, status: 'REJECTED', finalBudget: null, gigDeleted: true, updatedAt: 2 });
  });

  it('[M5] isEqual ignores RxDB bookkeeping fields', () => {
    const h = createConflictHandler<typeof base>('users', new Set());
    expect(h.isEqual({ ...base, _meta: { lwt: 1 } } as never, { ...base, _meta: { lwt: 2 } } as never, 'test')).toBe(true);
    expect(h.isEqual(base, { ...base, bio: 'x' }, 'test')).toBe(false);
  });
});
