import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { startTestServer, type TestServer } from './in-process-server';

/**
 * The set-up most end-to-end files share: their own server (a free port, its own data folder)
 * and one browser, made before the file's tests and closed after them. `ready` hands both over.
 */
export function useServerAndBrowser(ready: (server: TestServer, browser: Browser) => void): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    ready(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });
}
