import { profilePageSchema, type ProfilePage } from '../../shared/profiles';
import { profilePagesCacheName as cacheName } from './device-storage';

/**
 * Public profile pages as this device last read them (`GET /api/profiles/:username`), so a page
 * seen once opens offline (decision 032). They live in the browser's Cache Storage, one cache per
 * signed-in user, keyed by the username's key in a URL: not in the RxDB database, whose
 * open-source build allows 13 open collections per page (error COL23), which the replicated
 * collections already come close to when a test opens two devices in one process. At most
 * `KEPT` pages are kept, the oldest dropped first. Logout and "Reset this device" delete them
 * (device-storage.ts).
 */

const KEPT = 100;
const keyUrl = (key: string) => `/__profile-pages__/${encodeURIComponent(key)}`;

type Saved = { savedAt: number; page: ProfilePage };

const available = () => typeof caches !== 'undefined';

export async function saveProfilePage(userId: string, key: string, page: ProfilePage): Promise<void> {
  if (!available()) return;
  const cache = await caches.open(cacheName(userId));
  const body: Saved = { savedAt: Date.now(), page };
  await cache.delete(keyUrl(key));
  await cache.put(keyUrl(key), new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - KEPT))) await cache.delete(old);
}

/** The page last read under this key, if this device kept one (and it still reads as a profile page). */
export async function loadProfilePage(userId: string, key: string): Promise<Saved | undefined> {
  if (!available()) return undefined;
  const cache = await caches.open(cacheName(userId));
  const found = await cache.match(keyUrl(key));
  if (!found) return undefined;
  try {
    const body = (await found.json()) as { savedAt?: unknown; page?: unknown };
    const page = profilePageSchema.safeParse(body.page);
    return page.success && typeof body.savedAt === 'number' ? { savedAt: body.savedAt, page: page.data } : undefined;
  } catch {
    return undefined;
  }
}
