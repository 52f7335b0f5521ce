import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Response } from 'express';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangesEvent } from '../../shared/sync/protocol';
import { readConfig } from '../config';
import { createContext, type AppContext } from '../context';
import { INDEXES } from '../indexes';
import { openJournalStore } from '../store/journal-store';
import type { Store } from '../store/store';
import { ChangeStreamHub } from './stream';

/** A response that keeps what is written to it; `backlog` is what its reader has not taken yet. */
class FakeResponse {
  chunks: (string | Buffer)[] = [];
  backlog = 0;
  ended = false;
  destroyed = false;
  private onClose: (() => void)[] = [];
  get writableLength() {
    return this.backlog;
  }
  writeHead() {}
  flushHeaders() {}
  write(chunk: string | Buffer) {
    this.chunks.push(chunk);
    return true;
  }
  on(event: string, fn: () => void) {
    if (event === 'close') this.onClose.push(fn);
  }
  end() {
    this.ended = true;
    this.onClose.forEach((fn) => fn());
  }
  destroy() {
    this.destroyed = true;
    this.onClose.forEach((fn) => fn());
  }
  /** The `changes` events received, parsed. */
  changes() {
    return this.chunks
      .map(String)
      .filter((c) => c.startsWith('event: changes'))
      .map((c) => JSON.parse(c.slice('event: changes\ndata: '.length)) as ChangesEvent);
  }
}

let dir: string;
let store: Store;
let ctx: AppContext;
let hub: ChangeStreamHub;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-stream-'));
  store = await openJournalStore({
    dataDir: dir,
    indexes: INDEXES,
    snapshotIntervalMs: 3_600_000,
    snapshotEveryCommits: 1_000_000,
  });
  ctx = createContext(readConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), store);
});
afterEach(async () => {
  hub.close();
  vi.restoreAllMocks();
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const user = (id: string) => ({
  id,
  name: `User ${id}`,
  email: `${id}@example.com`,
  stripeAccountId: `acct_${id}`,
  updatedAt: 1,
  _deleted: false,
});
const gig = (id: string) => ({
  id,
  title: `Gig ${id}`,
  createdBy: 'ada-01',
  creatorEmail: 'ada-01@example.com',
  updatedAt: 1,
  _deleted: false,
});
const open = (userId: string, sessionId = `s-${userId}`) => {
  const res = new FakeResponse();
  hub.open(res as unknown as Response, userId, sessionId);
  return res;
};

describe('the change stream hub', () => {
  it('serializes each document once per batch and kind, and readers who see the same share one payload', async () => {
    await store.commit([
      { collection: 'users', doc: user('ada-01') },
      { collection: 'users', doc: user('ben-01') },
      {
        collection: 'applications',
        doc: {
          id: 'gigid-0.ben-01',
          gigId: 'gigid-0',
          creatorId: 'ada-01',
          applicantId: 'ben-01',
          updatedAt: 1,
          _deleted: false,
        },
      },
    ]);
    hub = new ChangeStreamHub(ctx);
    const ada = open('ada-01');
    const ben = open('ben-01');
    const strangers = Array.from({ length: 100 }, (_, i) => open(`stranger-${i}`));

    const stringify = vi.spyOn(JSON, 'stringify');
    await store.commit([
      ...Array.from({ length: 10 }, (_, i) => ({ collection: 'gigs' as const, doc: gig(`gigid-${i}`) })),
      { collection: 'users', doc: { ...user('ada-01'), bio: 'Painter', updatedAt: 2 } },
    ]);
    const calls = stringify.mock.calls.map(([value]) => value as { id?: unknown; email?: unknown } | undefined);
    stringify.mockRestore();
    // Each document once per kind of reader (Ada's record as her own and as a public profile),
    // not once per reader; in all, a few calls besides (the checkpoint, collection names, the
    // store's journal), where once per reader would be over a hundred.
    expect(calls.filter((v) => v?.id === 'gigid-3')).toHaveLength(1);
    expect(calls.filter((v) => v?.id === 'ada-01' && v.email !== undefined)).toHaveLength(1);
    expect(calls.filter((v) => v?.id === 'ada-01' && v.email === undefined)).toHaveLength(1);
    expect(calls.length).toBeLessThan(30);

    const gigPayloads = new Set(
      [ada, ben, ...strangers].map((r) => r.chunks.find((c) => String(c).includes('"collection":"gigs"'))),
    );
    expect(gigPayloads.size).toBe(1);
    const [gigEvent] = strangers[0]!.changes();
    expect(gigEvent!.documents.map((d) => d.id)).toEqual(Array.from({ length: 10 }, (_, i) => `gigid-${i}`));
    expect(gigEvent!.documents[0]).not.toHaveProperty('creatorEmail');
    expect(gigEvent!.documents[0]).not.toHaveProperty('_seq');
    expect(gigEvent!.checkpoint.seq).toBe(store.durableSeq());

    // Each reader still gets only their own view.
    const usersFor = (r: FakeResponse) => r.changes().find((e) => e.collection === 'users')?.documents;
    expect(usersFor(ada)).toEqual([
      expect.objectContaining({
        id: 'ada-01',
        email: 'ada-01@example.com',
        stripeAccountId: 'acct_ada-01',
        bio: 'Painter',
      }),
    ]);
    expect(usersFor(ben)).toEqual([expect.objectContaining({ id: 'ada-01', bio: 'Painter' })]);
    expect(usersFor(ben)![0]).not.toHaveProperty('email');
    expect(usersFor(ben)![0]).not.toHaveProperty('stripeAccountId');
    // Ada has gigs on the board: her public profile is everyone's (decision 032), Ben's is not.
    expect(usersFor(strangers[0]!)).toEqual([expect.objectContaining({ id: 'ada-01', bio: 'Painter' })]);
    expect(usersFor(strangers[0]!)![0]).not.toHaveProperty('email');
    expect(usersFor(strangers[0]!)![0]).not.toHaveProperty('stripeAccountId');
  });

  it('drops a stream whose reader left more than the bound unsent, and only that one', async () => {
    hub = new ChangeStreamHub(ctx, { perSession: 4, perUser: 16, maxBufferedBytes: 1000 });
    const slow = open('slow-01');
    const fine = open('fine-01');
    slow.backlog = 1001;
    await store.commit([{ collection: 'gigs', doc: gig('gigid-1') }]);
    expect(slow.destroyed).toBe(true);
    expect(slow.changes()).toEqual([]);
    expect(hub.dropped).toBe(1);
    expect(hub.openFor('slow-01')).toBe(0);
    await store.commit([{ collection: 'gigs', doc: gig('gigid-2') }]);
    expect(fine.changes().map((e) => e.documents[0]!.id)).toEqual(['gigid-1', 'gigid-2']);
    expect(fine.destroyed).toBe(false);
  });

  it('closes the oldest streams of a session, and of a user, past their caps', () => {
    hub = new ChangeStreamHub(ctx, { perSession: 2, perUser: 3, maxBufferedBytes: 1000 });
    const [a, b, c] = [open('ada-01', 's1'), open('ada-01', 's1'), open('ada-01', 's1')];
    expect([a.ended, b.ended, c.ended]).toEqual([true, false, false]);
    const [d, e] = [open('ada-01', 's2'), open('ada-01', 's2')];
    expect([b.ended, c.ended, d.ended, e.ended]).toEqual([true, false, false, false]);
    expect(hub.openFor('ada-01')).toBe(3);
    open('ben-01', 's3');
    expect(hub.openFor('ben-01')).toBe(1);
  });
});
