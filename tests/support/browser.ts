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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
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
 * From now on, every document the page loads reports `navigator.onLine === false`, as in a
 * browser with no network. Playwright's offline emulation (`context.setOffline(true)`) does so
 * only for the document open when it was set: in Chromium 150 a reload or a navigation made
 * while offline gets `navigator.onLine === true` although all its requests fail (measured).
 * For a test that opens a page while offline and checks what the app makes of being offline;
 * it lasts for the page's life, so the test does not bring that page back online.
 */
export async function offlineOnNextLoads(page: Page): Promise<void> {
  // A string, not a function: tsx's name helpers (__name) do not exist in the page.
  await page.addInitScript(
    `Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false })`,
  );
}
