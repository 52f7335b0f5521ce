import { describe, expect, it } from 'vitest';
import { INITIAL_STATUS, statusLabel, type SyncStatus } from './sync-status';

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
