import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { DEVICE_SESSION } from '../../client/lib/device-session';
import { PUSH_LOG } from '../../client/sw/push-handlers';
import type { Device } from './push-service';
import { waitFor } from './wait';

/**
 * Web push in the test browser. Chromium here has no push service to subscribe with
 * (`pushManager.subscribe` answers "Registration failed"), so the browser's subscription is stood
 * in for at its edge: `subscribe` and `getSubscription` hand out a subscription of the local push
 * service (tests/support/push-service.ts) with a device's real keys, the rest of the app and the
 * service worker being the real ones. Pushes reach the service worker through the DevTools
 * protocol (`ServiceWorker.deliverPushMessage`), as the push service would deliver them.
 */
export async function standInPushSubscription(context: BrowserContext, device: Device): Promise<void> {
  await context.addInitScript((sub: Device['subscription']) => {
    const KEY = 'test-push-subscription';
    const decode = (b64: string) =>
      Uint8Array.from(atob(b64.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const make = (applicationServerKey: ArrayBuffer | null) => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey },
      getKey: (name: 'p256dh' | 'auth') => decode(sub.keys[name]).buffer,
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(KEY);
        return true;
      },
    });
    const stored = () => {
      const raw = localStorage.getItem(KEY);
      return raw === null ? null : make(raw ? decode(raw).buffer : null);
    };
    PushManager.prototype.getSubscription = async function () {
      return stored() as unknown as PushSubscription;
    };
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey;
      const bytes =
        key instanceof Uint8Array ? key : key instanceof ArrayBuffer ? new Uint8Array(key) : new Uint8Array();
      localStorage.setItem(
        KEY,
        btoa(String.fromCharCode(...bytes))
          .replace(/\+/g, '-')
          .replace(/\//g, '_'),
      );
      return stored() as unknown as PushSubscription;
    };
  }, device.subscription);
}

type Registration = { registrationId: string; scopeURL: string; isDeleted: boolean };
type Version = { versionId: string; registrationId: string; runningStatus: string; status: string };
type Session = { cdp: CDPSession; registrations: Registration[]; versions: string[] };
const sessions = new WeakMap<Page, Promise<Session>>();

/**
 * One DevTools session per page, kept open with the ServiceWorker domain enabled: a session
 * detached right after `deliverPushMessage` (which answers before the event is dispatched) now
 * and then lost the push.
 */
function serviceWorkerSession(page: Page) {
  let session = sessions.get(page);
  if (!session) {
    session = (async () => {
      const cdp = await page.context().newCDPSession(page);
      const registrations: Registration[] = [];
      // Each version's states as the browser reported them, in order (for a failing test's message).
      const versions: string[] = [];
      cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: Version[] }) => {
        for (const v of e.versions)
          versions.push(`version ${v.versionId} of ${v.registrationId}: ${v.status}, ${v.runningStatus}`);
      });
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
        for (const r of e.registrations) {
          const i = registrations.findIndex((x) => x.registrationId === r.registrationId);
          if (i >= 0) registrations[i] = r;
          else registrations.push(r);
        }
      });
      await cdp.send('ServiceWorker.enable');
      return { cdp, registrations, versions };
    })();
    sessions.set(page, session);
  }
  return session;
}

/** Delivers a push message to the page's service worker registration, as a push service would. */
export async function deliverPush(page: Page, data: string): Promise<void> {
  const { cdp, registrations } = await serviceWorkerSession(page);
  const origin = new URL(page.url()).origin;
  const deadline = Date.now() + 10_000;
  const live = () => registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(origin));
  while (!live()) {
    if (Date.now() > deadline) throw new Error('no service worker registration for ' + origin);
    await new Promise((r) => setTimeout(r, 20));
  }
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: live()!.registrationId, data });
}

/**
 * What the context's service workers write to their console from now on (the push handler says
 * there why it showed nothing), and, marked `page`, its pages' info, warnings and errors (the app
 * says there when signing out closes the notifications shown), for a failing test's message.
 */
export function serviceWorkerConsole(context: BrowserContext): string[] {
  const lines: string[] = [];
  const listen = (worker: Worker) => worker.on('console', (m) => lines.push(`${m.type()}: ${m.text()}`));
  for (const worker of context.serviceWorkers()) listen(worker);
  context.on('serviceworker', listen);
  const listenPage = (page: Page) =>
    page.on('console', (m) => {
      if (['info', 'warning', 'error'].includes(m.type())) lines.push(`page ${m.type()}: ${m.text()}`);
    });
  for (const page of context.pages()) listenPage(page);
  context.on('page', listenPage);
  return lines;
}

/**
 * Waits until the service worker says it showed the notification tagged `tag` (its push handler's
 * `showNotification` resolved), from `serviceWorkerConsole`'s log, and gives the tags it showed so
 * far in order. What the browser lists as showing (`getNotifications()`) is not the test of that:
 * headless Chromium sometimes stops listing a notification it has just shown, with nothing having
 * closed it (the worker's and the app's logs said so in a failed run).
 */
export async function shownByWorker(log: string[], tag: string, what: string): Promise<string[]> {
  await waitFor(what, () => tagsShown(log).includes(tag), 10_000);
  return tagsShown(log);
}

/** The tags of the notifications the service worker showed, oldest first, from its log. */
export function tagsShown(log: string[]): string[] {
  return filled(log, 'debug', PUSH_LOG.shown);
}

/** The reasons the service worker gave for the pushes it did not show, oldest first, from its log. */
export function pushesNotShown(log: string[]): string[] {
  return filled(log, 'warning', PUSH_LOG.dropped);
}

/** What `line` put in each of the log's lines of `type` that it wrote. */
function filled(log: string[], type: string, line: (value: string) => string): string[] {
  const [before, after] = line('\u0000').split('\u0000') as [string, string];
  const prefix = `${type}: ${before}`;
  return log.flatMap((l) =>
    l.startsWith(prefix) && l.endsWith(after) ? [l.slice(prefix.length, l.length - after.length)] : [],
  );
}

/**
 * `wait`, or its error with what the service worker said, the states the browser reported for its
 * versions and the notifications showing: a push that did not show says whether it was dropped,
 * and why, or never handled, and a count that was not reached says what there was.
 */
export async function explainedByServiceWorker<T>(page: Page, log: string[], wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (err) {
    const session = await sessions.get(page);
    const showing = await shownNotifications(page).then(
      (all) => JSON.stringify(all.map((n) => ({ tag: n.tag, body: n.body }))),
      (e: unknown) => `(could not be read: ${String(e)})`,
    );
    const [worker] = page.context().serviceWorkers();
    const record = worker ? await deviceRecord(worker) : '(no service worker)';
    throw new Error(
      [
        (err as Error).message,
        `The console (the service worker's; its pages' lines marked "page"): ${log.length > 0 ? log.join(' | ') : '(nothing)'}`,
        `Its versions: ${session ? session.versions.join(' | ') : '(no DevTools session)'}`,
        `Notifications showing now: ${showing}`,
        `The signed-in user the worker reads now: ${record}`,
      ].join('\n'),
      { cause: err },
    );
  }
}

/**
 * The device's signed-in user as the service worker reads it (client/lib/device-session.ts's
 * database), or whether that read failed or hung (2 s): a push handler waiting on it shows nothing.
 */
async function deviceRecord(worker: Worker): Promise<string> {
  const read = worker.evaluate(
    ({ database, store, key }) =>
      new Promise<string>((resolve) => {
        const request = indexedDB.open(database);
        request.onerror = () => resolve(`open failed: ${String(request.error)}`);
        request.onsuccess = () => {
          const db = request.result;
          try {
            const get = db.transaction(store, 'readonly').objectStore(store).get(key);
            get.onsuccess = () => resolve(JSON.stringify(get.result ?? null));
            get.onerror = () => resolve(`read failed: ${String(get.error)}`);
          } catch (e) {
            resolve(`read failed: ${String(e)}`);
          } finally {
            db.close();
          }
        };
      }),
    DEVICE_SESSION,
  );
  const hung = new Promise<string>((resolve) => setTimeout(() => resolve('(hung for 2 s)'), 2_000).unref());
  return Promise.race([read.catch((e: unknown) => `(could not be asked: ${String(e)})`), hung]);
}

export type ShownNotification = { title: string; body: string; tag: string; data: Record<string, unknown> };

/** The notifications the service worker is showing. */
export function shownNotifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as Record<string, unknown>,
    }));
  });
}

/**
 * A click on a shown notification, dispatched in the service worker. (A synthetic click carries no
 * user gesture, so the browser refuses to focus a window or open one; the app's own window still
 * gets the message to open the URL. Opening a new window is covered by the handler's unit tests.)
 */
export async function clickNotification(context: BrowserContext, tag: string): Promise<void> {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('no service worker');
  await worker.evaluate(async (t) => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
    const [n] = await scope.registration.getNotifications({ tag: t });
    if (!n) throw new Error(`no notification tagged ${t}`);
    const Ctor = (
      globalThis as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }
    ).NotificationEvent;
    scope.dispatchEvent(new Ctor('notificationclick', { notification: n }));
  }, tag);
}
