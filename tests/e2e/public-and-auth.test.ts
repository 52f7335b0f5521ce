import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHUNK_GROUPS } from '../../scripts/chunk-groups';
import { goOffline, waitForServiceWorker } from '../support/browser';
import { PASSWORD, uniqueEmail } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { useServerAndBrowser } from '../support/e2e';

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

/** A built script's chunk name: its file name without the directory and the content hash. */
const chunkName = (pathname: string) => pathname.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '');

async function fresh(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

describe('PWA', () => {
  it('registers a service worker that controls the page, and a public page reloads offline', async () => {
    const { context, page } = await fresh();
    await page.goto(server.url + '/manifesto');
    await waitForServiceWorker(page);
    await goOffline(context);
    await page.reload();
    await page.getByRole('heading', { name: 'Manifesto' }).waitFor();
    await page.goto(server.url + '/teaser');
    await page.getByRole('heading', { name: 'Gigs waiting for you' }).waitFor();
    await context.close();
  });

  it('the public pages never load RxDB or Yjs', async () => {
    const { context, page } = await fresh();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    for (const path of ['/', '/teaser', '/manifesto', '/version1', '/signup', '/login']) {
      await page.goto(server.url + path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    expect(scripts.length).toBeGreaterThan(3);
    // Matched on chunk names, not file names: a content hash may spell anything ("DOyJS0gd").
    const signedInOnly = new Set(['signed-in-area', ...CHUNK_GROUPS.map((g) => g.name)]);
    expect(
      scripts
        .map(chunkName)
        .filter((n) => signedInOnly.has(n) || /dexie|rxdb|rx-storage|replication|collections|yjs|y-websocket/i.test(n)),
    ).toEqual([]);
    await context.close();
  });

  it('has a manifest with what installability needs, and its icons load', async () => {
    const manifest = (await (await fetch(server.url + '/manifest.webmanifest')).json()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Creative Gigs',
      short_name: 'Gigs',
      display: 'standalone',
      start_url: '/landing',
    });
    expect(manifest.theme_color).toMatch(/^#/);
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const res = await fetch(server.url + icon.src);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
  });
});

describe('waitlist page', () => {
  it('shows each required-field error, then the success message', async () => {
    const { context, page } = await fresh();
    await page.goto(server.url + '/');
    await expect(page.locator('video').getAttribute('src')).resolves.toBe('/demo.webm');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    for (const text of ['Name is required', 'Email is required', 'City is required', 'Country is required']) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    await page.getByLabel('Name').fill('Kemi');
    await page.getByLabel('Email').fill(uniqueEmail('wait'));
    await page.getByLabel('City').fill('Lagos');
    await page.getByLabel('Country').selectOption('NG');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await page.getByText("Thank you for signing up..we'll be in touch!").waitFor();
    await context.close();
  });

  it('shows the docs/product.md error when the server cannot take the entry', async () => {
    const { context, page } = await fresh();
    await page.route('**/api/waitlist', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"down"}' }),
    );
    await page.goto(server.url + '/waitlist-signup');
    await page.getByLabel('Name').fill('Kemi');
    await page.getByLabel('Email').fill(uniqueEmail('wait'));
    await page.getByLabel('City').fill('Lagos');
    await page.getByLabel('Country').selectOption('NG');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await page.getByText('Oops! Something went wrong. Please try again.').waitFor();
    await context.close();
  });
});

describe('session redirect rules in the browser', () => {
  it.each([
    '/landing',
    '/create-gig',
    '/applications',
    '/exchange/someone',
    '/notifications',
    '/basket',
    '/payment/success',
    '/settings',
    '/profile',
    '/setup-portfolio',
    '/gig/abc',
    '/nowhere',
  ])('a signed-out visit to %s lands on /login', async (path) => {
    const { context, page } = await fresh();
    await page.goto(server.url + path);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it.each([
    ['/setup-portfolio', 'You must be logged in to complete profile setup'],
    ['/create-gig', 'You must be logged in to create a gig'],
    ['/exchange/someone', 'Please log in to start a conversation'],
    ['/gig/abc', 'Please log in or create an account to apply for gigs'],
  ])('the login page says why a signed-out visit to %s was sent there: %s', async (path, notice) => {
    const { context, page } = await fresh();
    await page.goto(server.url + path);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByRole('status').getByText(notice, { exact: true }).waitFor();
    await context.close();
    // A visit to /login itself has nothing to explain.
    const direct = await fresh();
    await direct.page.goto(server.url + '/login');
    await direct.page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(await direct.page.getByText(notice).count()).toBe(0);
    await direct.context.close();
  });

  it.each([
    ['/', 'Creative Gigs'],
    ['/waitlist-signup', 'Creative Gigs'],
    ['/teaser', 'Gigs waiting for you'],
    ['/manifesto', 'Manifesto'],
    ['/version1', 'Join our community'],
    ['/signup', 'Create your account'],
  ])('a signed-out visit to %s stays there', async (path, heading) => {
    const { context, page } = await fresh();
    await page.goto(server.url + path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(path);
    await context.close();
  });

  it('signup → success message → /setup-portfolio; logout → /login; login → /landing; signed-in redirects', async () => {
    const { context, page } = await fresh();
    const email = uniqueEmail('e2e');
    await page.goto(server.url + '/signup');
    await page.getByLabel('Name').fill('Ada Painter');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel('I accept the terms and conditions').check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Successfully signed up! Redirecting to profile setup...').waitFor();
    await page.waitForURL('**/setup-portfolio');

    // One-time setup, with its docs/product.md messages; changing the niche resets the focus area.
    await page.getByRole('button', { name: 'Complete setup' }).click();
    for (const text of [
      'Username is required',
      'Please select your location',
      'Please select your creative niche',
      'Please select your specific focus area',
      'Portfolio link is required',
    ]) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    await page.getByLabel('Username').fill('ad');
    await page.getByLabel('Location').selectOption('FR');
    await page.getByLabel('Creative niche').selectOption('media');
    await page.getByLabel('Specific focus').selectOption('Editing');
    await page.getByLabel('Creative niche').selectOption('visual_art');
    expect(await page.getByLabel('Specific focus').inputValue()).toBe('');
    await page.getByLabel('Specific focus').selectOption('Painting');
    await page.getByLabel('Portfolio link').fill('example.com/me');
    await page.getByRole('button', { name: 'Complete setup' }).click();
    await page.getByText('Username must be at least 3 characters long').waitFor();
    await page.getByText('Please enter a valid URL').waitFor();
    await page.getByLabel('Username').fill('adapaints');
    await page.getByLabel('Portfolio link').fill('https://example.com/me');
    await page.getByRole('button', { name: 'Complete setup' }).click();
    await page.getByText('Profile setup complete! Redirecting to landing page...').waitFor();
    await page.waitForURL('**/landing');
    await page.goto(server.url + '/setup-portfolio');
    await page.waitForURL('**/landing');

    await page.goto(server.url + '/login');
    await page.waitForURL('**/landing');
    await page.goto(server.url + '/signup');
    await page.waitForURL('**/landing');
    await page.goto(server.url + '/landingpage?openModal=true');
    await page.waitForURL('**/landing?openModal=true');
    await page.goto(server.url + '/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to the gig board' }).click();
    await page.waitForURL('**/landing');

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Wrong12345');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Invalid email or password. Please try again.').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Login successful! Redirecting...').waitFor();
    await page.waitForURL('**/landing');
    await page.getByRole('heading', { name: 'Gigs' }).waitFor();
    await context.close();
  });

  it('signup shows each docs/product.md validation message', async () => {
    const { context, page } = await fresh();
    await page.goto(server.url + '/signup');
    await page.getByRole('button', { name: 'Sign up' }).click();
    for (const text of [
      'Name is required',
      'Email is required',
      'Password is required',
      'Please confirm your password',
      'You must accept the terms and conditions',
    ]) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Password must be at least 8 characters long').waitFor();
    await context.close();
  });
});
