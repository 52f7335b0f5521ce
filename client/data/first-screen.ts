import { PATHS } from '../../shared/routes';
import { REPLICATED } from '../../shared/sync/protocol';
import type { ReplicatedName } from './collections';

/**
 * The collections the screen a user opened draws from, when the rest can safely wait. On a new
 * device's first sync they are pulled first and the others after their first pass
 * (client/data/replication.ts), and the screen waits for those only, so it is drawn with its data
 * before the rest of the sync finishes: on a phone, storing everything at once kept the
 * notifications waiting for the whole marketplace. Only screens whose actions read nothing else,
 * or wait for what they read: Applications' Converse reads the conversations too and waits for
 * their first pass (features/chat/start-conversation.ts). A screen whose actions read collections
 * it does not show without waiting (the board's Apply) must not act on half of the data, so it
 * waits for everything.
 */
export function collectionsForScreen(path: string): ReplicatedName[] {
  if (path === PATHS.notifications) return ['notifications'];
  // The cards, and each applicant's name link and reputation.
  if (path === PATHS.applications) return ['applications', 'users'];
  // My Gigs reads every collection but the conversations (no chat starts from it): the gigs and
  // applications of its cards, the users of its names and reputation, the reviews and the review
  // notices of its work. Named by what it leaves out, so a collection added later is waited for.
  if (path === PATHS.basket) return REPLICATED.filter((name) => name !== 'conversations');
  return [];
}
