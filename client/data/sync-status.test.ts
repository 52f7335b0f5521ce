import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { INITIAL_STATUS, firstPassesIn, firstSyncUnderWay, statusLabel, type SyncStatus } from './sync-status';

const status = (change: Partial<SyncStatus>): SyncStatus => ({
  ...INITIAL_STATUS,
  initialSync: { done: true, received: 12 },
  caughtUp: true,
  ...change,
});

describe('the sync status line', () => {
  it.each<[string, Partial<SyncStatus>, string]>([
    ['up to date', {}, 'Online · up to date'],
    ['the first sync', { initialSync: { done: false, received: 1 } }, 'Syncing your data… 1 item received'],
    ['a tab that has not caught up yet since it started', { caughtUp: false }, 'Syncing'],
    ['changes waiting', { pending: 3, syncing: true }, 'Syncing · 3 changes waiting to sync'],
    ['offline', { network: 'offline', pending: 1 }, 'Offline · 1 change waiting to sync'],
    ['offline with nothing waiting', { network: 'offline' }, 'Offline · your data is available'],
    ['working offline on purpose', { workingOffline: true, pending: 2 }, 'Working offline · 2 changes waiting to sync'],
    ['a failed store', { storeFailed: true }, 'Some data could not be saved on this device · retrying'],
  ])('%s', (_label, change, expected) => {
    expect(statusLabel(status(change)).label).toBe(expected);
  });
});

describe('whether a screen waits for the first sync', () => {
  const under = (change: Partial<SyncStatus>) => status({ initialSync: { done: false, received: 3 }, ...change });
  it('waits while the first sync brings the data, online', () => {
    expect(firstSyncUnderWay(under({}))).toBe(true);
    expect(firstSyncUnderWay(under({}), 'gigs')).toBe(true);
  });
  it("waits for one collection only until that collection's first pass is done", () => {
    const passed = under({ firstPassed: ['notifications'] });
    expect(firstSyncUnderWay(passed, 'notifications')).toBe(false);
    expect(firstSyncUnderWay(passed, 'gigs')).toBe(true);
    expect(firstSyncUnderWay(passed)).toBe(true);
  });
  it("waits for several collections until each one's first pass is done", () => {
    expect(firstSyncUnderWay(under({ firstPassed: ['applications'] }), ['applications', 'users'])).toBe(true);
    expect(firstSyncUnderWay(under({ firstPassed: ['users', 'applications'] }), ['applications', 'users'])).toBe(false);
  });
  it('does not wait once the first sync is done, offline, or working offline (nothing is coming)', () => {
    expect(firstSyncUnderWay(status({}))).toBe(false);
    expect(firstSyncUnderWay(under({ network: 'offline' }))).toBe(false);
    expect(firstSyncUnderWay(under({ workingOffline: true }), 'gigs')).toBe(false);
  });
});

describe('an action waiting for the collections it reads', () => {
  /** A controller's status and its announcements, driven by the test. */
  function followed(initial: SyncStatus) {
    const subject = new Subject<SyncStatus>();
    const sync = {
      status: initial,
      status$: subject,
      publish(next: SyncStatus) {
        sync.status = next;
        subject.next(next);
      },
    };
    return sync;
  }
  const under = (change: Partial<SyncStatus>) => status({ initialSync: { done: false, received: 3 }, ...change });

  it('goes on at once on a device past its first sync', async () => {
    await expect(firstPassesIn(followed(status({})), ['conversations'])).resolves.toBeUndefined();
  });

  it("goes on once each collection's first pass is in, not before", async () => {
    const sync = followed(under({ firstPassed: ['applications'] }));
    let done = false;
    const waiting = firstPassesIn(sync, ['applications', 'conversations']).then(() => (done = true));
    sync.publish(under({ firstPassed: ['applications', 'users'] }));
    await Promise.resolve();
    expect(done).toBe(false);
    sync.publish(under({ firstPassed: ['applications', 'users', 'conversations'] }));
    await waiting;
    expect(done).toBe(true);
    expect(sync.status$.observed).toBe(false);
  });

  it('goes on when nothing more can come: offline, or the data closed', async () => {
    const offline = followed(under({}));
    const first = firstPassesIn(offline, ['conversations']);
    offline.publish(under({ network: 'offline' }));
    await first;
    const closing = followed(under({}));
    const second = firstPassesIn(closing, ['conversations']);
    closing.status$.complete();
    await second;
  });
});
