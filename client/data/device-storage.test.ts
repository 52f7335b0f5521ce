import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteUserCaches, profilePagesCacheName } from './device-storage';

// What the device keeps for a user in Cache Storage is named in device-storage.ts and deleted with
// the rest (logout, "Reset this device"); nobody else's caches are touched.

afterEach(() => vi.unstubAllGlobals());

describe("a user's caches on this device", () => {
  it('are the profile pages read, under this version’s name or an earlier one, and only theirs', async () => {
    const names = new Set([
      profilePagesCacheName('user-abc'),
      'profile-pages-v0-user-abc',
      profilePagesCacheName('user-abcdef'),
      profilePagesCacheName('other-1'),
      'workbox-precache-v2-http://localhost/',
      'images',
    ]);
    vi.stubGlobal('caches', {
      keys: async () => [...names],
      delete: async (name: string) => names.delete(name),
    });
    await deleteUserCaches('user-abc');
    expect([...names].sort()).toEqual(
      [profilePagesCacheName('other-1'), profilePagesCacheName('user-abcdef'), 'images', 'workbox-precache-v2-http://localhost/'].sort(),
    );
  });
});
