import type { NotificationType } from '../../shared/constants';
import { api } from './api';
import { pushUser, setPushUser } from './push-user';
import { withTimeout } from './with-timeout';

/**
 * Notifications on this device (docs/decisions/030-installed-app.md): the browser's push
 * subscription, made with the server's VAPID key, and the server's record of it with the
 * notification types this device wants. One device is one browser profile.
 */

export type PushState = { subscribed: boolean; types: NotificationType[] };

export const PUSH_MESSAGES = {
  unsupported: 'This browser cannot show notifications from the app.',
  denied:
    "Notifications are blocked for this site. Allow them in your browser's site settings, then come back to this page.",
  dismissed: 'Notifications were not allowed. Choose Allow when your browser asks.',
  notReady: 'The app is still being installed on this device. Reload the page and try again.',
  failed: 'Notifications could not be changed. Please try again.',
  offline: 'You are offline. Notifications can be changed when you are back online.',
} as const;

export class PushSetupError extends Error {}

/** Whether this browser can receive pushes at all (a service worker, the Push API, notifications). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The service worker's registration, once active; it registers at start (client/app/pwa.tsx). */
function registration(): Promise<ServiceWorkerRegistration> {
  return withTimeout(navigator.serviceWorker.ready, 10_000, () => new PushSetupError(PUSH_MESSAGES.notReady));
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

/** This device's browser subscription, if it has one. */
async function browserSubscription(): Promise<PushSubscription | null> {
  return (await registration()).pushManager.getSubscription();
}

/**
 * Whether notifications are on for this device and user, and which types. A browser subscription
 * made with another key than the server's (its keys were changed) can never get a push: the device
 * is not subscribed, and turning notifications on replaces it.
 */
export async function devicePushState(): Promise<PushState> {
  const subscription = await browserSubscription();
  if (!subscription) return { subscribed: false, types: [] };
  const { publicKey } = await api<{ publicKey: string }>('GET', '/api/push/key');
  if (!sameKey(subscription.options.applicationServerKey, keyBytes(publicKey))) return { subscribed: false, types: [] };
  return api<PushState>('GET', `/api/push/subscription?endpoint=${encodeURIComponent(subscription.endpoint)}`);
}

/**
 * A read or write of the device's record of whose notifications it carries, held up at most a few
 * seconds: a device storage that does not answer must not hold up turning notifications on or off,
 * or a logout.
 */
const bounded = <T>(storage: Promise<T>): Promise<T> =>
  withTimeout(storage, 3_000, () => new Error('the device storage did not answer'));

/**
 * Turns notifications on for this device (asking the browser's permission first), or changes
 * which types it gets. A subscription made with another key (the server's keys changed) is
 * replaced. The device records that it carries `userId`'s notifications (the service worker then
 * keeps it when a push sent to a previous user of the device arrives) before the server is asked,
 * so a push already on its way to the previous user cannot end the subscription in the moment
 * between the server's answer and the record; when the server does not take it, the record is
 * put back as it was.
 */
export async function enableDevicePush(userId: string, types: readonly NotificationType[]): Promise<PushState> {
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') throw new PushSetupError(PUSH_MESSAGES.denied);
  if (permission !== 'granted') throw new PushSetupError(PUSH_MESSAGES.dismissed);
  const { publicKey } = await api<{ publicKey: string }>('GET', '/api/push/key');
  const key = keyBytes(publicKey);
  const reg = await registration();
  let subscription = await reg.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = subscription.toJSON();
  const before = await bounded(pushUser()).catch(() => null);
  await recordPushUser(userId);
  try {
    return await api<PushState>('POST', '/api/push/subscribe', {
      endpoint: json.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: json.keys,
      types,
    });
  } catch (err) {
    await recordPushUser(before);
    throw err;
  }
}

/** Records whose notifications the subscription carries; a failure only costs the exception above. */
const recordPushUser = (userId: string | null) =>
  bounded(setPushUser(userId)).catch((err: unknown) =>
    console.warn('This device could not record whose notifications it gets:', err),
  );

/** Turns notifications off for this device: on the server, then the browser's subscription. */
export async function disableDevicePush(): Promise<PushState> {
  await recordPushUser(null);
  const subscription = await browserSubscription();
  if (subscription) {
    await api('POST', '/api/push/unsubscribe', { endpoint: subscription.endpoint });
    await subscription.unsubscribe().catch(() => false);
  }
  return { subscribed: false, types: [] };
}

/**
 * Signing out of this device: its browser subscription ends and the notifications it shows are
 * closed (the server removes its record with the session). Never throws: logging out goes on.
 */
export async function forgetDevicePush(): Promise<void> {
  if (!pushSupported()) return;
  await recordPushUser(null);
  try {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg) return;
    const subscription = await reg.pushManager.getSubscription();
    await subscription?.unsubscribe().catch(() => false);
    const shown = await reg.getNotifications();
    for (const n of shown) n.close();
    // Said where a test's failure message can show it (a notification gone unexpectedly).
    if (shown.length > 0) console.info(`Signing out of this device closed ${shown.length} notification(s).`);
  } catch {
    // Nothing to forget, or the browser refused: the service worker still checks who is signed in.
  }
}
