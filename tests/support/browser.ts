import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { person, type Person } from './fixtures';
import type { TestClient } from './http-client';

/** Debian's Chromium (Playwright cannot download its own here); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How the tests and the browser benchmarks launch Chromium: its path and flags, headless. */
export const LAUNCH_OPTIONS = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(LAUNCH_OPTIONS);
}

/**
 * A browser context already signed in with the session of a TestClient (users made through the
 * API), made with `options` (a viewport, say).
 */
export async function signedInContext(
  browser: Browser,
  serverUrl: string,
  http: Pick<TestClient, 'sessionToken'>,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  await context.addCookies([{ name: 'sid', value: http.sessionToken() ?? '', url: serverUrl }]);
  const page = await context.newPage();
  return { context, page };
}

/** A user made through the API, with a completed profile, and a browser context signed in as them. */
export type Actor = Person & { context: BrowserContext; page: Page };

export async function signedInActor(
  browser: Browser,
  serverUrl: string,
  overrides: Parameters<typeof person>[1] = {},
): Promise<Actor> {
  const p = await person(serverUrl, overrides);
  return { ...p, ...(await signedInContext(browser, serverUrl, p.http)) };
}

/** Waits until the service worker controls the page (its app shell and assets are cached). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Waits until the page's sync status says everything is up to date. */
export async function waitUpToDate(page: Page, timeout = 20_000): Promise<void> {
  await page.getByTestId('sync-status').getByText('Online · up to date').waitFor({ timeout });
}

/**
 * Takes the context's network away, as a user whose connection drops: every request fails, the
 * pages open now hear `offline`, and every document loaded from now on (a reload, a navigation, a
 * new tab) reports `navigator.onLine === false`, as in a browser with no network. Playwright's
 * offline emulation alone does not do the last: in Chromium 150 a document loaded while
 * `context.setOffline(true)` holds reports `navigator.onLine === true` although all its requests
 * fail (measured after a reload, a navigation and a `pushState`), so a test would exercise "online
 * but the server is unreachable" where it means "offline". Every end-to-end test goes offline
 * through here, and back through `goOnline`.
 */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  if (!offlineScripts.has(context)) offlineScripts.set(context, await context.addInitScript(OFFLINE_DOCUMENT));
}

/**
 * Gives the network back: requests go through again, documents loaded from now on see the
 * browser's own `navigator.onLine`, and each open page that was loaded offline hears `online`
 * (Chromium fires it only in the documents it told `offline`).
 */
export async function goOnline(context: BrowserContext): Promise<void> {
  await context.setOffline(false);
  await offlineScripts.get(context)?.dispose();
  offlineScripts.delete(context);
  for (const page of context.pages()) await page.evaluate(BACK_ONLINE);
}

/** The init script of each context that is offline (disposed when it goes online). */
const offlineScripts = new WeakMap<BrowserContext, { dispose(): Promise<void> }>();

// Strings, not functions: tsx's name helpers (__name) do not exist in the page.
const OFFLINE_DOCUMENT = `(() => {
  const real = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine');
  globalThis.__e2eOffline = true;
  Object.defineProperty(Navigator.prototype, 'onLine', {
    configurable: true,
    enumerable: true,
    get() { return globalThis.__e2eOffline === true ? false : real.get.call(this); },
  });
})()`;

const BACK_ONLINE = `(() => {
  if (globalThis.__e2eOffline !== true) return;
  globalThis.__e2eOffline = false;
  window.dispatchEvent(new Event('online'));
})()`;
