import { isAppPath, OPEN_URL_MESSAGE, type OpenUrlMessage } from '../../shared/push-links';
import { parsePushPayload, type PushPayload } from '../../shared/push-payload';

/**
 * What the service worker does with a push and with a click on the notification it showed
 * (docs/decisions/030-installed-app.md). The browser's objects come in as the few members used, so
 * the handlers run the same in the service worker and in unit tests.
 */

/** Why a push was not shown, as `PushDeps.dropped` is told. */
export const PUSH_DROPPED = {
  notOurs: 'not a notification of this app',
  nobody: 'nobody is signed in on this device',
  otherUser: 'it is for another user than the one signed in here',
  previousUser: 'it was sent to this device’s previous user, before the one signed in here turned notifications on',
  unknownUser: (err: unknown) => `this device could not tell who is signed in (${String(err)})`,
} as const;

/** The service worker's console lines about a push (client/sw/sw.ts writes them; the browser tests read them). */
export const PUSH_LOG = {
  shown: (tag: string) => `A notification was shown (${tag}).`,
  dropped: (reason: string) => `A push was not shown: ${reason}.`,
} as const;

/** What a shown notification carries for its click. */
export type NotificationData = { url: string; notificationId: string; userId: string };

export type PushDeps = {
  showNotification(
    title: string,
    options: NotificationOptions & { data: NotificationData; timestamp: number; renotify: boolean },
  ): Promise<void>;
  /** The user signed in on this device (client/lib/device-session.ts), null when nobody is. */
  signedInUser(): Promise<string | null>;
  /** The user this device's push subscription was last turned on for (client/lib/push-user.ts), null when none. */
  pushUser(): Promise<string | null>;
  /** Ends this device's push subscription (`pushManager.getSubscription()` → `unsubscribe()`). */
  unsubscribe(): Promise<void>;
  /** Told why a push was not shown (the service worker's console says it). */
  dropped?(reason: string): void;
};

/**
 * Shows the push as a notification, unless it is not for the user signed in on this device (they
 * signed out, or someone else signed in): then nothing is shown, and the device's push subscription
 * ends, so the pushes stop (a logout made offline could not end it; the server forgets it at the
 * push service's next 404/410). When the device cannot tell who is signed in, it shows nothing and
 * keeps the subscription.
 *
 * One exception keeps the subscription: the user signed in has turned notifications on here since
 * (a browser keeps its subscription, so it moved to them on the server; the previous user had not
 * logged out, or their logout could not end it). The server no longer sends the previous user's
 * pushes here, so one arriving now was on its way before: it is dropped, and the signed-in user's
 * notifications stay on.
 */
export async function handlePush(text: string | null, deps: PushDeps): Promise<PushPayload | null> {
  const payload = parsePushPayload(text);
  if (!payload) {
    deps.dropped?.(PUSH_DROPPED.notOurs);
    return null;
  }
  let user: string | null;
  try {
    user = await deps.signedInUser();
  } catch (err) {
    deps.dropped?.(PUSH_DROPPED.unknownUser(err));
    return null;
  }
  if (user !== payload.userId) {
    if (user !== null && (await deps.pushUser().catch(() => null)) === user) {
      deps.dropped?.(PUSH_DROPPED.previousUser);
      return null;
    }
    deps.dropped?.(user === null ? PUSH_DROPPED.nobody : PUSH_DROPPED.otherUser);
    await deps.unsubscribe().catch(() => undefined);
    return null;
  }
  await deps.showNotification(payload.title, {
    body: payload.body,
    tag: payload.tag,
    // A newer message of a conversation replaces the older one, and still alerts.
    renotify: true,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    timestamp: payload.createdAt,
    data: { url: payload.url, notificationId: payload.notificationId, userId: payload.userId },
  });
  return payload;
}

/** A window of the app, as `clients.matchAll({ type: 'window' })` gives it. */
export type AppWindow = {
  url: string;
  focused: boolean;
  focus(): Promise<unknown>;
  postMessage(message: unknown): void;
};

export type ClickDeps = {
  /** The app's windows (same origin), focused first when the browser says so. */
  windows(): Promise<readonly AppWindow[]>;
  openWindow(url: string): Promise<unknown>;
};

/**
 * A click on a notification: an open window of the app is focused and told to open its URL;
 * without one, a new window opens at the URL. Only paths of this app are ever opened.
 */
export async function handleNotificationClick(data: unknown, deps: ClickDeps): Promise<'focused' | 'opened'> {
  const target = (data as Partial<NotificationData> | null)?.url;
  const url = isAppPath(target) ? target : '/notifications';
  const windows = await deps.windows();
  const chosen = windows.find((w) => w.focused) ?? windows[0];
  if (chosen) {
    // Focusing may be refused (no user gesture, a browser's own rules): the window still navigates.
    await chosen.focus().catch(() => undefined);
    // It routes to `url` itself, keeping its state (client/app/pwa.tsx).
    chosen.postMessage({ type: OPEN_URL_MESSAGE, url } satisfies OpenUrlMessage);
    return 'focused';
  }
  await deps.openWindow(url);
  return 'opened';
}
