import type { ReplicatedName } from './collections';

/**
 * The collections the screen a user opened draws from, when the rest can safely wait. On a new
 * device's first sync they are pulled first and the others after their first pass
 * (client/data/replication.ts), so the screen is drawn with its data before the rest of the sync
 * finishes: on a phone, storing everything at once kept the notifications waiting for the whole
 * marketplace. Only screens whose actions read nothing else: a screen that acts on what it does
 * not show (Converse reads the applications and conversations) must not act on half of the data,
 * so it waits for everything, as every other screen does.
 */
export function collectionsForScreen(path: string): ReplicatedName[] {
  if (path === '/notifications') return ['notifications'];
  return [];
}
