import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, waitForServiceWorker } from '../support/browser';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { useServerAndBrowser } from '../support/e2e';

describe('the served app in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

  it('serves a real page at / with the product name', async () => {
    const page = await browser.newPage();
    await page.goto(server.url + '/');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/Creative Gigs/);
    await page.close();
  });

  it('a screen whose code cannot be loaded says so with a Reload action, and the rest of the app stays', async () => {
    // No service worker here: the page's own requests decide, and the teaser's chunk is cut off.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.route(/\/assets\/teaser-page-[^/]*\.js$/, (route) => route.abort('internetdisconnected'));
    await page.goto(server.url + '/');
    await page.getByRole('banner').getByRole('link', { name: 'Gigs', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('This screen could not be loaded. Check your connection, then reload.').waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Gigs', exact: true }).isVisible()).toBe(true);
    // Reload once the network is back: the screen loads.
    await page.unroute(/\/assets\/teaser-page-[^/]*\.js$/);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await page.waitForURL(server.url + '/teaser');
    await page.getByRole('alert').waitFor({ state: 'detached' });
    await context.close();
  });

  it('never lets sw.js, the manifest or index.html be cached long, and makes hashed assets immutable', async () => {
    for (const path of ['/sw.js', '/manifest.webmanifest', '/', '/landing']) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    const html = await (await fetch(server.url + '/')).text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)![0];
    const res = await fetch(server.url + asset);
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
  });

  it('answers GET /api/health with { ok: true }', async () => {
    const res = await fetch(server.url + '/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('a new version of the app', () => {
  let server: TestServer;
  let browser: Browser;
  let dist: string;

  beforeAll(async () => {
    // A copy of the build that this test can change, as a deployment would.
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'gigs-dist-'));
    await fs.cp(path.resolve('dist'), dist, { recursive: true });
    server = await startTestServer({ DIST_DIR: dist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it("is announced with 'A new version is available' and a Reload button, never by a silent reload that loses a form", async () => {
    const page = await browser.newPage();
    await page.goto(server.url + '/waitlist-signup');
    await waitForServiceWorker(page);
    await page.getByLabel('Name').fill('Typed before the update');

    // Deploy a new version: a changed service worker script.
    await fs.appendFile(path.join(dist, 'sw.js'), '\n// next version\n');
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    const toast = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await toast.waitFor({ timeout: 20_000 });
    // Nothing reloaded behind the user's back.
    expect(await page.getByLabel('Name').inputValue()).toBe('Typed before the update');
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(
      true,
    );

    await Promise.all([
      page.waitForEvent('load', { timeout: 20_000 }),
      toast.getByRole('button', { name: 'Reload' }).click(),
    ]);
    await page.getByLabel('Name').waitFor();
    await expect
      .poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)))
      .toBe(false);
    expect(await page.getByText('A new version is available').count()).toBe(0);
    await page.close();
  });
});
