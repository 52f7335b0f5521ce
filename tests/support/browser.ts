import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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

/** A browser context already signed in with the session of a TestClient (users made through the API). */
export async function signedInContext(browser: Browser, serverUrl: string, http: { cookieHeader(): string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'sid', value: http.cookieHeader().replace('sid=', ''), url: serverUrl }]);
  const page = await context.newPage();
  return { context, page };
}

/** Waits until the page's sync status says everything is up to date. */
export async function waitUpToDate(page: Page, timeout = 20_000): Promise<void> {
  await page.getByTestId('sync-status').getByText('Online · up to date').waitFor({ timeout });
}
