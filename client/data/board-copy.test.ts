import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Gig } from '../../shared/schemas/gig';
import { readBoardCopy, watchBoardCopy, writeBoardCopy, type BoardCopy } from './board-copy';

/** localStorage as the browser has it, counting removals. */
class MemoryStorage {
  readonly items = new Map<string, string>();
  removals = 0;
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
  removeItem(k: string) {
    this.removals++;
    this.items.delete(k);
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const gig = (id: string, title = `Gig ${id}`) => ({ id, title, createdBy: 'buyer1', createdAt: 1 }) as unknown as Gig;
const copyOf = (...ids: string[]): BoardCopy => ({
  gigs: ids.map((id) => gig(id)),
  applied: ids.slice(0, 1),
  ratings: [['buyer1', { count: 2, sum: 9 }]],
});
const now = () => performance.now();
/** Query results that came now, for every collection of the copy. */
const receivedNow = () => {
  const t = now();
  return { gigs: t, applications: t, users: t };
};
const settled = () => new Promise<void>((r) => queueMicrotask(r));

/** Runs `test` with the copy of 'u1' watched over fresh change streams, and stops watching after. */
async function watching(test: (s: ReturnType<typeof sources>) => Promise<void> | void): Promise<void> {
  const s = sources();
  const stop = watchBoardCopy('u1', s.watched);
  try {
    await test(s);
  } finally {
    stop();
  }
}

function sources() {
  const gigs = new Subject<{ id: string }>();
  const applications = new Subject<{ applicantId: string }>();
  const users = new Subject<{ id: string }>();
  return {
    gigs,
    applications,
    users,
    watched: {
      gigs: { changes: gigs },
      applications: { changes: applications, counts: (e: { applicantId: string }) => e.applicantId === 'me' },
      users: { changes: users },
    },
  };
}

describe('the board copy', () => {
  it('reads back what the board wrote, per user', () => {
    const stop = watchBoardCopy('u1', sources().watched);
    expect(writeBoardCopy('u1', copyOf('a', 'b'), receivedNow())).toBe(true);
    expect(readBoardCopy('u1')).toEqual(copyOf('a', 'b'));
    expect(readBoardCopy('u2')).toBeNull();
    stop();
  });

  it('is not drawn when it is unreadable or another version wrote it', () => {
    storage.setItem('gigs-board-copy-u1', '{not json');
    expect(readBoardCopy('u1')).toBeNull();
    storage.setItem('gigs-board-copy-u1', JSON.stringify({ v: 0, ...copyOf('a') }));
    expect(readBoardCopy('u1')).toBeNull();
    storage.setItem('gigs-board-copy-u1', JSON.stringify({ v: 1, gigs: [null], applied: [], ratings: [] }));
    expect(readBoardCopy('u1')).toBeNull();
  });

  it('goes at the first change to what it is made of, once per burst of changes', () =>
    watching(async (s) => {
      for (const source of ['gigs', 'users'] as const) {
        writeBoardCopy('u1', copyOf('a'), receivedNow());
        storage.removals = 0;
        for (let i = 0; i < 50; i++) s[source].next({ id: `x${i}` });
        await settled();
        expect(readBoardCopy('u1'), source).toBeNull();
        expect(storage.removals, source).toBe(1);
      }
    }));

  it("stays when an application that is not the user's own changes (one to the user's gig)", () =>
    watching(async (s) => {
      writeBoardCopy('u1', copyOf('a'), receivedNow());
      s.applications.next({ applicantId: 'someone' });
      await settled();
      expect(readBoardCopy('u1')).not.toBeNull();
      s.applications.next({ applicantId: 'me' });
      await settled();
      expect(readBoardCopy('u1')).toBeNull();
    }));

  it('is not written from results older than the latest change, and is from newer ones', () =>
    watching(async (s) => {
      const before = now();
      s.gigs.next({ id: 'a' });
      await settled();
      const after = now();
      expect(writeBoardCopy('u1', copyOf('old'), { gigs: before, applications: after, users: after })).toBe(false);
      expect(readBoardCopy('u1')).toBeNull();
      expect(writeBoardCopy('u1', copyOf('new'), { gigs: after, applications: before, users: before })).toBe(true);
      expect(readBoardCopy('u1')?.gigs.map((g) => g.id)).toEqual(['new']);
    }));

  it('is written only while the data is open: not once it has closed (a sign-out deletes it)', () => {
    const s = sources();
    const stop = watchBoardCopy('u1', s.watched);
    expect(writeBoardCopy('u1', copyOf('a'), receivedNow())).toBe(true);
    stop();
    storage.items.clear();
    expect(writeBoardCopy('u1', copyOf('b'), receivedNow())).toBe(false);
    expect(readBoardCopy('u1')).toBeNull();
    expect(writeBoardCopy('u2', copyOf('b'), receivedNow())).toBe(false);
  });

  it('stops watching when the data closes', async () => {
    const s = sources();
    const other = watchBoardCopy('u1', sources().watched); // another opening in this tab keeps writing allowed
    watchBoardCopy('u1', s.watched)();
    expect(writeBoardCopy('u1', copyOf('a'), receivedNow())).toBe(true);
    s.gigs.next({ id: 'b' });
    await settled();
    expect(readBoardCopy('u1')).not.toBeNull();
    other();
  });
});
