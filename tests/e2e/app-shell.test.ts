import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';

describe('the served app in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  it('serves a real page at / with the product name', async () => {
    const page = await browser.newPage();
    await page.goto(server.url + '/');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/Creative Gigs/);
    await page.close();
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
