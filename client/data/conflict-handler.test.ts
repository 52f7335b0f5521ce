import { describe, expect, it } from 'vitest';
import { APPLICATION_KEPT_FROM_OTHER_DEVICE, CHANGED_ELSEWHERE_FIRST, createConflictHandler, DELETED_ELSEWHERE_FIRST, reportingResolutions, type LostWrite } from './conflict-handler';

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

  it('[M14] tells whether each resolution goes out again (a merge) or takes the server version (nothing left to send)', async () => {
    const told: [string, boolean, string | undefined][] = [];
    let answered = false;
    const h = reportingResolutions(createConflictHandler<typeof base>('users', new Set()), async (id, goesOutAgain, sent) => {
      // RxDB writes the resolution only once this is done (the outbox reads the device's version first).
      await Promise.resolve();
      told.push([id, goesOutAgain, sent.bio]);
      answered = true;
    });
    await h.resolve({ assumedMasterState: base, realMasterState: { ...base, name: 'Ada L.', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Painter and muralist' } }, 'test');
    expect(answered).toBe(true);
    await h.resolve({ assumedMasterState: base, realMasterState: { ...base, bio: 'Server bio', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Local bio' } }, 'test');
    expect(told).toEqual([
      ['u1', true, 'Painter and muralist'],
      ['u1', false, 'Local bio'],
    ]);
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

  it('[M13] a deletion going out again carries the text the user last wrote: a refusal then keeps their edit', async () => {
    const gig = { id: 'g1', title: 'Poster', description: 'Old words', filledAt: null as number | null, updatedAt: 2, _deleted: false };
    const h = createConflictHandler<typeof gig>('gigs', new Set());
    // Edited, then deleted offline; meanwhile the server filled the gig.
    const local = { ...gig, title: 'Poster, edited', _deleted: true, updatedAt: 5 };
    const master = { ...gig, filledAt: 4, updatedAt: 4 };
    expect(await h.resolve({ assumedMasterState: gig, realMasterState: master, newDocumentState: local }, 'test')).toEqual({
      ...master,
      title: 'Poster, edited',
      _deleted: true,
    });
  });

  it('[M7] a newer local edit wins over the server holding this device\'s own earlier push of the field', async () => {
    const pushed = new Map([['users:u1', [{ ...base, bio: 'First' }, { ...base, bio: 'Second' }]]]);
    const h = createConflictHandler<typeof base>('users', new Set(), pushed);
    // 'First' and then 'Second' were pushed; 'First' landed; the conflict answers the push of 'Second'.
    const resolved = await h.resolve({ assumedMasterState: base, realMasterState: { ...base, bio: 'First', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Second' } }, 'test');
    expect(resolved).toMatchObject({ bio: 'Second', updatedAt: 2 });
  });

  it('[M11] a new document the server has: taken whole when it differs only by the server\'s normalising; a change made since goes out again on it', async () => {
    const gig = { id: 'g1', title: 'Poster', skills: 'Illustration, Painting', createdBy: 'u1', status: 'active', updatedAt: 5, _deleted: false };
    const h = createConflictHandler<typeof gig>('gigs', new Set());
    // The answer to the creation: the server trimmed the title and normalised the skills.
    const written = { ...gig, title: '  Poster ', skills: 'Illustration,Painting', status: undefined as unknown as string, updatedAt: 1 };
    expect(await h.resolve({ assumedMasterState: undefined, realMasterState: gig, newDocumentState: written }, 'test')).toEqual(gig);
    // The answer was lost, the app closed, and its user renamed the gig and dropped a skill.
    const renamed = { ...written, title: 'Poster, corrected', skills: 'Illustration' };
    expect(await h.resolve({ assumedMasterState: undefined, realMasterState: gig, newDocumentState: renamed }, 'test')).toEqual({
      ...gig,
      title: 'Poster, corrected',
      skills: 'Illustration',
    });
    // A review as written here (no reply yet) and as the server stores it (reply null, text trimmed).
    const review = { id: 'r1', rating: 5, text: 'Great work', reply: null as string | null, updatedAt: 3, _deleted: false };
    const reviews = createConflictHandler<typeof review>('reviews', new Set());
    const mine = { ...review, text: 'Great work ', reply: undefined as unknown as null, updatedAt: 1 };
    expect(await reviews.resolve({ assumedMasterState: undefined, realMasterState: review, newDocumentState: mine }, 'test')).toEqual(review);
    // Applications keep their own rule (the same application made on another device is kept).
    const app = { id: 'a1', status: 'PENDING', budget: 100, updatedAt: 2, _deleted: false };
    const apps = createConflictHandler<typeof app>('applications', new Set());
    expect(await apps.resolve({ assumedMasterState: undefined, realMasterState: app, newDocumentState: { ...app, budget: 300 } }, 'test')).toEqual(app);
  });

  it('[M12] an application whose answer was lost, withdrawn here since: the withdrawal goes out on the server\'s copy; another device\'s application is kept', async () => {
    const app = { id: 'g1.u2', applicantId: 'u2', status: 'PENDING', budget: 300, finalBudget: null as number | null, updatedAt: 4, _deleted: false };
    const lost: LostWrite[] = [];
    const h = createConflictHandler<typeof app>('applications', new Set(), new Map(), (l) => lost.push(l));
    const withdrawn = { ...app, status: 'WITHDRAWN', updatedAt: 9 };
    expect(await h.resolve({ assumedMasterState: undefined, realMasterState: app, newDocumentState: withdrawn }, 'test')).toEqual({ ...app, status: 'WITHDRAWN' });
    expect(lost).toEqual([]);
    // The server holds the same application made on another device, at another rate: it is kept,
    // and this device's version with it, as before.
    const other = { ...app, budget: 500 };
    expect(await h.resolve({ assumedMasterState: undefined, realMasterState: other, newDocumentState: withdrawn }, 'test')).toEqual(other);
    expect(lost.map((l) => l.reason)).toEqual([APPLICATION_KEPT_FROM_OTHER_DEVICE]);
  });

  it('[M8] an application move goes out again when the server changed only other fields; not when it moved the status', async () => {
    const app = { id: 'a1', status: 'PENDING_ACCEPTANCE', finalBudget: 100 as number | null, startedAt: null, gigDeleted: false, updatedAt: 1, _deleted: false };
    const h = createConflictHandler<typeof app>('applications', new Set());
    const declined = { ...app, status: 'REJECTED', finalBudget: null };
    const resolved = await h.resolve({ assumedMasterState: app, realMasterState: { ...app, gigDeleted: true, updatedAt: 2 }, newDocumentState: declined }, 'test');
    expect(resolved).toEqual({ ...app, status: 'REJECTED', finalBudget: null, gigDeleted: true, updatedAt: 2 });
  });

  it('[M9] [issue 15] a change request made offline, arriving after the automatic release, is kept with its note and the reason', async () => {
    const delivered = { id: 'a1', status: 'DELIVERED', submissions: [{ note: 'Draft', submittedAt: 1 }], autoReleaseAt: 5, updatedAt: 1, _deleted: false };
    const lost: LostWrite[] = [];
    const h = createConflictHandler<typeof delivered>('applications', new Set(), new Map(), (l) => lost.push(l));
    const asked = { ...delivered, status: 'IN_PROGRESS', autoReleaseAt: null as unknown as number, submissions: [{ note: 'Draft', submittedAt: 1, changesRequested: { note: 'Bigger title', at: 2 } }] };
    const released = { ...delivered, status: 'COMPLETED', autoReleaseAt: null as unknown as number, updatedAt: 9 };
    expect(await h.resolve({ assumedMasterState: delivered, realMasterState: released, newDocumentState: asked }, 'test')).toMatchObject({ status: 'COMPLETED' });
    expect(lost).toEqual([
      expect.objectContaining({ docId: 'a1', reason: 'This work is completed and can no longer change.', content: expect.objectContaining({ submissions: asked.submissions }) }),
    ]);
  });

  it('[M10] [issue 15] a submission that landed, stamped with the server’s times, is not reported lost', async () => {
    const paid = { id: 'a1', status: 'IN_PROGRESS', submissions: [] as Record<string, unknown>[], autoReleaseAt: null as number | null, updatedAt: 1, _deleted: false };
    const lost: LostWrite[] = [];
    const h = createConflictHandler<typeof paid>('applications', new Set(), new Map(), (l) => lost.push(l));
    const local = { ...paid, status: 'DELIVERED', submissions: [{ note: 'Cut 1', link: 'https://x.example', submittedAt: 100 }], autoReleaseAt: 200 };
    const landed = { ...local, submissions: [{ note: 'Cut 1', link: 'https://x.example', submittedAt: 150 }], autoReleaseAt: 250, updatedAt: 2 };
    expect(await h.resolve({ assumedMasterState: paid, realMasterState: landed, newDocumentState: local }, 'test')).toEqual(landed);
    expect(lost).toEqual([]);
  });

  it('[M5] isEqual ignores RxDB bookkeeping fields', () => {
    const h = createConflictHandler<typeof base>('users', new Set());
    expect(h.isEqual({ ...base, _meta: { lwt: 1 } } as never, { ...base, _meta: { lwt: 2 } } as never, 'test')).toBe(true);
    expect(h.isEqual(base, { ...base, bio: 'x' }, 'test')).toBe(false);
  });
});

describe('conflict handler: a local write that loses to another write is kept with its content (issue 21)', () => {
  const application = { id: 'gig123.user456', gigId: 'gig123', applicantId: 'user456', gigTitle: 'Mural', budget: 500_00, currency: 'CAD', status: 'PENDING', finalBudget: null as number | null, appliedAt: 1, updatedAt: 1, _deleted: false };
  const withoutDeleted = <D extends { _deleted: boolean }>({ _deleted, ...rest }: D) => rest;
  const recorder = () => {
    const lost: LostWrite[] = [];
    return { lost, onLost: (l: LostWrite) => lost.push(l) };
  };

  it('[L1] the same application made on another device first: the server’s is kept, this one’s rate is kept as a problem', async () => {
    const { lost, onLost } = recorder();
    const h = createConflictHandler<typeof application>('applications', new Set(), new Map(), onLost);
    const mine = { ...application, budget: 600_00, appliedAt: 5, updatedAt: 5, _meta: { lwt: 5 } };
    const resolved = await h.resolve({ assumedMasterState: undefined, realMasterState: { ...application, updatedAt: 3 }, newDocumentState: mine }, 'test');
    expect(resolved).toEqual({ ...application, updatedAt: 3 });
    expect(lost).toEqual([
      { collection: 'applications', docId: application.id, reason: APPLICATION_KEPT_FROM_OTHER_DEVICE, content: { ...withoutDeleted(application), budget: 600_00, appliedAt: 5, updatedAt: 5 } },
    ]);
    expect(APPLICATION_KEPT_FROM_OTHER_DEVICE).toBe('Your application from another device was kept; this one was not sent');
  });

  it('[L2] nothing is reported when nothing the user wrote is lost: its own landed write, an equal rate, a kept merge', async () => {
    const { lost, onLost } = recorder();
    const apps = createConflictHandler<typeof application>('applications', new Set(), new Map(), onLost);
    // The answer to its own creation (server-stamped fields only differ).
    await apps.resolve({ assumedMasterState: undefined, realMasterState: { ...application, gigTitle: 'Mural (server)', updatedAt: 9 }, newDocumentState: application }, 'test');
    const users = createConflictHandler<typeof base>('users', new Set(), new Map(), onLost);
    await users.resolve({ assumedMasterState: base, realMasterState: { ...base, name: 'Ada L.', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Painter and muralist' } }, 'test');
    // A new profile value the server stored as absent ('' is "not filled in").
    await users.resolve({ assumedMasterState: base, realMasterState: { ...base, bio: undefined, updatedAt: 2 } as never, newDocumentState: { ...base, bio: '' } }, 'test');
    expect(lost).toEqual([]);
  });

  it('[L3] a profile edit that loses to another edit of the same field is kept', async () => {
    const { lost, onLost } = recorder();
    const h = createConflictHandler<typeof base>('users', new Set(), new Map(), onLost);
    await h.resolve({ assumedMasterState: base, realMasterState: { ...base, bio: 'Server bio', updatedAt: 2 }, newDocumentState: { ...base, bio: 'Local bio', updatedAt: 1 } }, 'test');
    expect(lost).toEqual([{ collection: 'users', docId: 'u1', reason: CHANGED_ELSEWHERE_FIRST, content: { ...withoutDeleted(base), bio: 'Local bio' } }]);
  });

  it('[L4] a gig edited here while it was deleted elsewhere keeps the edit; a move that lost to the other party’s move is kept', async () => {
    const { lost, onLost } = recorder();
    const gig = { id: 'gig123', title: 'Poster', description: 'A poster', updatedAt: 1, _deleted: false };
    const gigs = createConflictHandler<typeof gig>('gigs', new Set(), new Map(), onLost);
    await gigs.resolve({ assumedMasterState: gig, realMasterState: { ...gig, _deleted: true, updatedAt: 2 }, newDocumentState: { ...gig, title: 'Big poster' } }, 'test');
    const offered = { ...application, status: 'PENDING_ACCEPTANCE', finalBudget: 450_00, updatedAt: 2 };
    const apps = createConflictHandler<typeof application>('applications', new Set(), new Map(), onLost);
    // The buyer withdrew the offer... the seller accepted offline meanwhile: the server's move wins.
    await apps.resolve({ assumedMasterState: offered, realMasterState: { ...offered, status: 'REJECTED', finalBudget: null, updatedAt: 3 }, newDocumentState: { ...offered, status: 'PENDING_PAYMENT' } }, 'test');
    expect(lost.map((l) => [l.collection, l.reason, l.content.title ?? l.content.status])).toEqual([
      ['gigs', DELETED_ELSEWHERE_FIRST, 'Big poster'],
      ['applications', CHANGED_ELSEWHERE_FIRST, 'PENDING_PAYMENT'],
    ]);
  });

  it('[L5] a write the server refused is not reported twice (the refusal is already kept)', async () => {
    const { lost, onLost } = recorder();
    const h = createConflictHandler<typeof application>('applications', new Set([`applications:${application.id}`]), new Map(), onLost);
    await h.resolve({ assumedMasterState: undefined, realMasterState: { ...application, _deleted: true }, newDocumentState: { ...application, budget: 1 } }, 'test');
    expect(lost).toEqual([]);
  });
});
