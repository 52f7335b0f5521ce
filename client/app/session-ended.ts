import { deleteUserData, waitingChangesOnDevice } from '../data/device-storage';
import { waitingChatMessages } from '../features/chat';
import { forgetDevicePush } from '../lib/web-push';

/**
 * What waits to go out for a user on this device, and what becomes of their data when the server
 * ends their session by itself (a 401 during use, or the check at start answering "nobody" for the
 * user the device had signed in): docs/decisions/030-installed-app.md, "Revised".
 */

/** Changes in the outbox and chat messages not stamped yet: what a logout or an ended session would lose. */
export async function unsentOnDevice(userId: string): Promise<number> {
  const chat = await waitingChatMessages(userId).catch(() => []);
  return waitingChangesOnDevice(userId) + chat.reduce((n, room) => n + room.count, 0);
}

/** What the login page says after the server ended the session, with what the device still holds. */
export function sessionEndedNotice(unsent: number): string {
  if (unsent === 0) return 'Your session has ended. Please log in again.';
  return unsent === 1
    ? 'Your session has ended. 1 change on this device has not been sent: log in again to send it.'
    : `Your session has ended. ${unsent} changes on this device have not been sent: log in again to send them.`;
}

/**
 * The session ended with nothing waiting to go out: the device forgets the user as a logout does
 * (push subscription, database, chat rooms, drafts, profile pages). The deletion waits for the data
 * to be closed in every tab, and is finished at the next start if the app closes first.
 */
export async function forgetEndedSession(userId: string): Promise<void> {
  await forgetDevicePush();
  await deleteUserData(userId).catch(() => undefined);
}
