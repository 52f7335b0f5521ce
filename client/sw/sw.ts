import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { signedInUser } from '../lib/device-session';
import { pushUser } from '../lib/push-user';
import { handleNotificationClick, handlePush, PUSH_LOG, type AppWindow } from './push-handlers';

/**
 * The service worker (vite-plugin-pwa's injectManifest): the app shell and assets precached, the
 * offline navigation fallback, runtime caches for images and the demo video, the `prompt` update
 * flow (a new version waits for the user's Reload), and web push (push-handlers.ts).
 *
 * The DOM library has no service worker scope types; these are the members used.
 */
type ExtendableEvent = Event & { waitUntil(work: Promise<unknown>): void };
type PushEvent = ExtendableEvent & { readonly data: { text(): string } | null };
type NotificationEvent = ExtendableEvent & { readonly notification: Notification };
type WindowClient = AppWindow & { type: string };
type Precache = (string | { url: string; revision: string | null })[];
type Scope = {
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
  addEventListener(type: 'push', listener: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (e: NotificationEvent) => void): void;
};
// The worker's own global, typed as the members above (Workbox's pattern for a worker built with
// the DOM library): `self` in this module is the service worker scope.
declare const self: Scope & { __WB_MANIFEST: Precache };
const sw = self;

// A new version waits until the page asks for it (workbox-window's messageSkipWaiting); the first
// install takes control at once, so the very first visit already works offline.
sw.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void sw.skipWaiting();
});
clientsClaim();

// Written out as `self.__WB_MANIFEST`: the build replaces exactly that with the list of files.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api\//, /^\/chat\//] }));
registerRoute(
  ({ request }) => request.destination === 'image',
  new CacheFirst({ cacheName: 'images', plugins: [new ExpirationPlugin({ maxEntries: 100 })] }),
);
registerRoute(
  ({ request }) => request.destination === 'video',
  new CacheFirst({
    cacheName: 'video',
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new RangeRequestsPlugin()],
  }),
);

sw.addEventListener('push', (event) => {
  // Debug level (hidden unless asked for): whether a push reached the worker at all.
  console.debug('A push arrived.');
  event.waitUntil(
    handlePush(event.data?.text() ?? null, {
      showNotification: async (title, options) => {
        await sw.registration.showNotification(title, options);
        console.debug(PUSH_LOG.shown(options.tag ?? 'untagged'));
      },
      signedInUser: async () => {
        const user = await signedInUser();
        console.debug(`The device's signed-in user was read (${user === null ? 'nobody' : 'someone'}).`);
        return user;
      },
      pushUser,
      unsubscribe: async () => {
        const subscription = await sw.registration.pushManager.getSubscription();
        await subscription?.unsubscribe();
      },
      dropped: (reason) => console.warn(PUSH_LOG.dropped(reason)),
    }).catch((err: unknown) => {
      console.error('A push could not be shown:', err);
      throw err;
    }),
  );
});

sw.addEventListener('notificationclick', (event) => {
  const data: unknown = event.notification.data;
  event.notification.close();
  event.waitUntil(
    handleNotificationClick(data, {
      windows: async () => {
        const origin = new URL(sw.registration.scope).origin;
        const all = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
        return all.filter((c) => new URL(c.url).origin === origin);
      },
      openWindow: (url) => sw.clients.openWindow(url),
    }),
  );
});
