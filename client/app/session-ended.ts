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
 * The users whose ended session is being settled here (a 401 is reported by several requests), and
 * those logging out in this tab (the 401s their own logout causes are not the server's doing).
 */
const settling = new Set<string>();
const loggingOut = new Set<string>();

/** Runs a deliberate logout of this tab: meanwhile a 401 is not taken for the server ending the session. */
export async function whileLoggingOut<T>(userId: string, logout: () => Promise<T>): Promise<T> {
  loggingOut.add(userId);
  try {
    return await logout();
  } finally {
    loggingOut.delete(userId);
  }
}

/**
 * The server ended the user's session by itself. With nothing waiting to go out, the data closes in
 * this tab (`close`), then `signOut` signs out (every tab follows, closing theirs) and shows the
 * login page with the notice, and the device forgets the user as a logout does (push subscription,
 * database, chat rooms, drafts, profile pages): the deletion waits for every tab to have closed the
 * data, and is finished at the next start if the app closes first. What waits is kept, for the
 * user's next login, and the notice says so.
 */
export async function settleEndedSession(
  userId: string,
  device: { close(): Promise<void>; signOut(notice: string): void },
): Promise<void> {
  if (settling.has(userId) || loggingOut.has(userId)) return;
  settling.add(userId);
  console.info('The server ended the session of the user signed in here: signing out.');
  try {
    const unsent = await unsentOnDevice(userId);
    if (unsent === 0) await device.close();
    device.signOut(sessionEndedNotice(unsent));
    if (unsent > 0) return;
    await forgetDevicePush();
    await deleteUserData(userId).catch(() => undefined);
  } finally {
    settling.delete(userId);
  }
}
