import { describe, expect, it } from 'vitest';
import { Outbox } from './outbox';

/** A write of the app's, as LocalData makes one: tracked before, stored after. */
function change(outbox: Outbox, collection: string, id: string): void {
  outbox.track(collection, id);
  outbox.written(collection, id);
}

describe('outbox: local changes waiting to go out', () => {
  it('counts tracked documents until the server answered a push of them, and survives a reload', () => {
    let saved: string[] = [];
    const persistence = { load: () => saved, save: (keys: string[]) => (saved = keys) };
    const outbox = new Outbox(persistence);
    const counts: number[] = [];
    outbox.subscribe((n) => counts.push(n));
    change(outbox, 'gigs', 'g1');
    change(outbox, 'gigs', 'g1');
    change(outbox, 'users', 'u1');
    expect(outbox.count).toBe(2);
    expect(new Outbox(persistence).count).toBe(2);
    outbox.settle('gigs', ['g1', 'unknown']);
    expect(outbox.has('gigs', 'g1')).toBe(false);
    expect(outbox.count).toBe(1);
    // Told at each tracking, each write stored (what the listeners read is there now) and the settling.
    expect(counts).toEqual([1, 1, 1, 1, 2, 2, 1]);
  });

  it('tells its listeners again once a waiting change is written, so they read what was written', () => {
    const outbox = new Outbox();
    const heard: number[] = [];
    outbox.subscribe((n) => heard.push(n));
    outbox.track('applications', 'a1');
    outbox.written('applications', 'a1');
    outbox.written('applications', 'not-waiting');
    outbox.settle('applications', ['a1']);
    outbox.written('applications', 'a1');
    expect(heard).toEqual([1, 1, 0]);
  });
});

describe('outbox: a push answered while a newer write of the same document is being stored', () => {
  it('keeps the document counted once the newer write is stored, for its own push to settle', () => {
    const outbox = new Outbox();
    outbox.track('gigs', 'g1');
    outbox.written('gigs', 'g1');
    outbox.track('gigs', 'g1'); // the user changes it again; the write is not stored yet…
    outbox.settle('gigs', ['g1']); // …when the answer to the push of the first version comes
    expect(outbox.count).toBe(1);
    outbox.written('gigs', 'g1');
    expect(outbox.count).toBe(1);
    outbox.settle('gigs', ['g1']); // the newer version's push is answered
    expect(outbox.count).toBe(0);
  });

  it('settles it after all when the newer write fails (nothing newer was stored)', () => {
    const outbox = new Outbox();
    outbox.track('gigs', 'g1');
    outbox.written('gigs', 'g1');
    outbox.track('gigs', 'g1');
    outbox.settle('gigs', ['g1']);
    outbox.written('gigs', 'g1', false);
    expect(outbox.count).toBe(0);
  });
});

describe('outbox: a write that failed', () => {
  it('leaves nothing counted when nothing was waiting before it, and keeps what was', () => {
    let saved: string[] = [];
    const outbox = new Outbox({ load: () => saved, save: (keys: string[]) => (saved = keys) });
    outbox.track('applications', 'a1'); // applying twice: the second insert of the id fails
    outbox.written('applications', 'a1', false);
    expect(outbox.count).toBe(0);
    expect(saved).toEqual([]);
    change(outbox, 'gigs', 'g1'); // an edit waiting to go out…
    outbox.track('gigs', 'g1');
    outbox.written('gigs', 'g1', false); // …and a later one that failed: the first still waits
    expect(outbox.entries()).toEqual(['gigs:g1']);
  });
});

describe('outbox: ids named after built-in object members', () => {
  it('counts, holds back and settles them like any other', () => {
    const outbox = new Outbox();
    for (const id of ['__proto__', 'toString', 'constructor', 'hasOwnProperty']) {
      change(outbox, 'gigs', id);
      outbox.track('gigs', id);
      outbox.settle('gigs', [id]); // held back: a write of it is not stored yet
      expect(outbox.has('gigs', id)).toBe(true);
      outbox.written('gigs', id, false);
      expect(outbox.has('gigs', id)).toBe(false);
    }
    outbox.track('gigs', '__proto__');
    outbox.written('gigs', '__proto__', false); // nothing was waiting
    expect(outbox.count).toBe(0);
  });
});

describe('outbox: a change the server answered with a conflict', () => {
  it('stays counted when its resolution goes out again, and is settled when the resolution takes the server version', () => {
    let saved: string[] = [];
    const outbox = new Outbox({ load: () => saved, save: (keys: string[]) => (saved = keys) });
    change(outbox, 'gigs', 'merged');
    change(outbox, 'gigs', 'lost');
    outbox.resolved('gigs', 'merged', true);
    outbox.resolved('gigs', 'lost', false);
    expect(outbox.entries()).toEqual(['gigs:merged']);
    expect(saved).toEqual(['gigs:merged']);
    outbox.settle('gigs', ['merged']); // the merge's push was taken
    expect(outbox.count).toBe(0);
  });
});

describe('outbox shared by the tabs of a browser', () => {
  it("re-reads the stored list before each change, and follows another tab's changes", () => {
    let stored: string[] = [];
    let announce = () => {};
    const persistence = {
      load: () => stored,
      save: (keys: string[]) => (stored = keys),
      watch: (onChange: () => void) => {
        announce = onChange;
        return () => {};
      },
    };
    const leader = new Outbox(persistence);
    const counts: number[] = [];
    leader.subscribe((n) => counts.push(n));
    // Another tab tracks a write: the list in storage changes, and this tab is told.
    stored = ['gigs:g1'];
    announce();
    expect(leader.entries()).toEqual(['gigs:g1']);
    // Another tab tracked one more that this tab has not heard of yet: settling keeps it.
    stored = ['gigs:g1', 'applications:a1'];
    leader.settle('gigs', ['g1']);
    expect(stored).toEqual(['applications:a1']);
    expect(counts).toEqual([1, 1]);
  });

  it('a write stored in one tab stays counted when the replicating tab settled its document while it was in flight', () => {
    // Two tabs over one stored list; each hears the other's saves (the storage event).
    let stored: string[] = [];
    const tabs: { announce: () => void }[] = [];
    const persistence = (self: { announce: () => void }) => ({
      load: () => stored,
      save: (keys: string[]) => {
        stored = keys;
        for (const tab of tabs) if (tab !== self) tab.announce();
      },
      watch: (onChange: () => void) => {
        self.announce = onChange;
        return () => {};
      },
    });
    const a = { announce: () => {} };
    const b = { announce: () => {} };
    tabs.push(a, b);
    const leader = new Outbox(persistence(a));
    const other = new Outbox(persistence(b));
    // The gig's first version is stored and counted; the leader pushes it.
    change(other, 'gigs', 'g1');
    // The user edits it again in the other tab: tracked, not stored yet, when the push's answer
    // arrives and the leader, which still reads the first version in IndexedDB, settles it.
    other.track('gigs', 'g1');
    leader.settle('gigs', ['g1']);
    expect(stored).toEqual([]);
    // The second version is stored: it waits for its own push, in both tabs.
    other.written('gigs', 'g1');
    expect(stored).toEqual(['gigs:g1']);
    expect(other.count).toBe(1);
    expect(leader.count).toBe(1);
    // Its push's answer settles it.
    leader.settle('gigs', ['g1']);
    expect(other.count).toBe(0);
  });

  it('a write that ends after the data was deleted or closed counts nothing again', () => {
    let stored: string[] = [];
    const persistence = { load: () => stored, save: (keys: string[]) => (stored = keys), watch: () => () => {} };
    const deleted = new Outbox(persistence);
    deleted.track('gigs', 'g1');
    deleted.clear(); // "Reset this device", or a logout deleting the data
    deleted.written('gigs', 'g1');
    expect(stored).toEqual([]);
    const closed = new Outbox(persistence);
    closed.track('gigs', 'g2');
    closed.settle('gigs', ['g2']); // held back: the write is in flight
    stored = []; // another tab deleted the data meanwhile
    closed.destroy();
    closed.written('gigs', 'g2');
    expect(stored).toEqual([]);
  });
});
