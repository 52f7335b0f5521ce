import { conversationIdFor } from '../../../shared/ids';
import { exchangePath, PATHS } from '../../../shared/routes';
import { CHAT_MESSAGES, checkConversationStart, newConversation } from '../../../shared/validation/chat-access';
import type { DataContextValue } from '../../data/data-provider';
import { applicationsBetween } from '../../data/queries';
import { firstPassesIn } from '../../data/sync-status';

export const START_FAILED = 'Failed to start conversation. Please try again.';

export type StartResult =
  { ok: true; path: string } | { ok: false; error: string } | { ok: false; redirectTo: typeof PATHS.applications };

/**
 * Converse buttons: opens the conversation with `otherId`, creating its record when it does not
 * exist yet (docs/product.md §5 Chat access), from the gig `gigId` (the gig the button is on): the chat
 * writes new messages from it, and a new record is named after it. The link is judged on what
 * this device holds: an application between the two users; the server judges again. On a new
 * device it first waits for the applications and conversations to have come (a screen may be
 * drawn before them: data/first-screen.ts), so it neither sends the user away for want of an
 * application still on its way nor writes a record the server already has.
 */
export async function startConversation(
  data: DataContextValue | null,
  otherId: string,
  gigId?: string,
): Promise<StartResult> {
  if (!data) return { ok: false, error: CHAT_MESSAGES.loggedOut };
  const { local, userId } = data;
  try {
    await firstPassesIn(data.sync, ['applications', 'conversations']);
    const linking = await local.find('applications', applicationsBetween(userId, otherId));
    const check = checkConversationStart({ actorId: userId, otherId, linkedByApplication: linking.length > 0 });
    if (!check.ok)
      return check.error ? { ok: false, error: check.error } : { ok: false, redirectTo: PATHS.applications };
    const id = conversationIdFor(userId, otherId);
    if (!(await local.get('conversations', id))) {
      const link =
        linking.find((a) => a.gigId === gigId && !a.gigDeleted) ??
        linking.sort((a, b) => b.appliedAt - a.appliedAt)[0]!;
      await local.insert('conversations', newConversation({ starterId: userId, otherId, link, now: Date.now() }));
    }
    const from = gigId ? `?gig=${encodeURIComponent(gigId)}` : '';
    return { ok: true, path: exchangePath(otherId) + from };
  } catch {
    return { ok: false, error: START_FAILED };
  }
}
