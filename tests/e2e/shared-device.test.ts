import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../sync-server/auth/sessions';
import { goOffline, goOnline, signedInActor, waitForServiceWorker, waitUpToDate } from '../support/browser';
import { useServerAndBrowser } from '../support/e2e';
import { applyTo, gigDoc, isoDay, PASSWORD, person, write } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';

// Issue 17, part 4: a device several people use. Logging out sends what waits, or asks before
// losing it, then deletes everything the device kept for that user.

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

async function createGig(page: Page, title: string) {
  await page.getByRole('link', { name: 'Create Gig' }).first().click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('For the shared-device test.');
  await page.getByLabel('Category').selectOption('Visual Art');
  await page.getByLabel('Location type').selectOption('remote');
  await page.getByLabel('Project deadline').fill(isoDay(10));
  await page.getByLabel(/^Budget/).fill('300-500');
  await page.getByLabel('Skills (comma separated)').fill('Lettering');
  await page.getByRole('button', { name: 'Post gig' }).click();
}

type Left = { databases: string[]; storage: string[]; caches: string[] };
const NOTHING: Left = { databases: [], storage: [], caches: [] };

/** What the browser holds that names the user: IndexedDB databases, localStorage keys, Cache Storage caches. */
async function leftOnDevice(page: Page, userId: string): Promise<Left> {
  return page.evaluate(async (id) => {
    const lower = id.toLowerCase();
    const names = (await indexedDB.databases()).map((d) => d.name ?? '');
    const keys = Object.keys(localStorage);
    const mentions = (text: string) => text.includes(id) || text.toLowerCase().includes(lower);
    return {
      databases: names.filter(mentions),
      storage: keys.filter((k) => mentions(k) || mentions(localStorage.getItem(k) ?? '')),
      caches: (await caches.keys()).filter(mentions),
    };
  }, userId);
}

describe('logging out of a shared device', () => {
  it('sends what is waiting first, then deletes the database, chat rooms and drafts of that user', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const me = await signedInActor(browser, server.url, { name: 'Sam Shared' });
    const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Shop sign' }))).master!;
    await applyTo(me, String(gig.id));
    const { page, context } = me;
    await page.goto(server.url + `/exchange/${buyer.user.id}`);
    await page.getByLabel('Message', { exact: true }).fill('A draft never sent');
    // A public profile page read on the device is kept for offline (Cache Storage).
    await page.goto(server.url + `/u/${String(buyer.user.username)}`);
    await page.getByRole('heading', { name: 'Bea Buyer', level: 1 }).waitFor();
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    const before = await leftOnDevice(page, me.user.id);
    expect(before.databases.length).toBeGreaterThan(2); // the RxDB database and the chat room's
    expect(before.storage.some((k) => k.startsWith('chat-draft-'))).toBe(true);
    expect(before.caches).toHaveLength(1);
    // The board's first page, kept for the next reload to draw before the data opens.
    await waitFor('the board copy', async () =>
      (await leftOnDevice(page, me.user.id)).storage.some((k) => k.startsWith('gigs-board-copy-')),
    );

    // A slow network: the gig written just before Logout is still going out when it is clicked.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await context.route('**/api/sync/gigs/push', async (route) => {
      await held;
      await route.continue();
    });
    await createGig(page, 'Sent before signing off');
    await page.getByTestId('sync-status').getByText('1 change waiting to sync').waitFor();
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await page.getByText('Sending your changes before you log out…').waitFor();
    release();
    await page.waitForURL('**/login', { timeout: 20_000 });
    expect([...server.ctx.store.all('gigs')].some((g) => g.title === 'Sent before signing off')).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);

    expect(await leftOnDevice(page, me.user.id)).toEqual(NOTHING);
    // And after a reload, nothing of theirs comes back.
    await page.reload();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(await leftOnDevice(page, me.user.id)).toEqual(NOTHING);
    await context.close();
  });

  it('offline, asks "3 changes have not been sent. Log out anyway and lose them?" and deletes them only if told to', async () => {
    const me = await signedInActor(browser, server.url, { name: 'Oli Offline' });
    const { page, context } = me;
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    await waitForServiceWorker(page);
    await goOffline(context);
    await createGig(page, 'Offline one');
    await createGig(page, 'Offline two');
    // Inside the app, as a user would: Chromium lifts the context's offline emulation for the
    // document a page.goto leaves, which let a write escape now and then (README, "Offline in
    // end-to-end tests").
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByLabel('Bio').fill('Written offline.');
    await page.getByLabel('Bio').blur();
    await page.getByTestId('sync-status').getByText('Offline · 3 changes waiting to sync').waitFor();

    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Log out?' });
    await ask.getByText('3 changes have not been sent. Log out anyway and lose them?', { exact: true }).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    await page.getByTestId('sync-status').getByText('Offline · 3 changes waiting to sync').waitFor();

    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await ask.getByRole('button', { name: 'Log out anyway' }).click();
    await page.waitForURL('**/login');
    expect(await leftOnDevice(page, me.user.id)).toEqual(NOTHING);

    // The server still had the session (the logout could not reach it): it is ended as soon as
    // the app starts online again, and never resumed.
    const token = (await context.cookies()).find((c) => c.name === 'sid')!.value;
    expect(server.ctx.store.get('sessions', hashToken(token))?._deleted).toBe(false);
    await goOnline(context);
    await page.reload();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await waitFor(
      'the session ended on the server',
      () => server.ctx.store.get('sessions', hashToken(token))?._deleted,
    );
    await page.goto(server.url + '/landing');
    await page.waitForURL('**/login');
    expect([...server.ctx.store.all('gigs')].some((g) => String(g.title).startsWith('Offline '))).toBe(false);
    await context.close();
  });

  it('is cancelled by closing the "Logging out" dialog (Escape or its close button): the user stays signed in and nothing is deleted', async () => {
    const me = await signedInActor(browser, server.url, { name: 'Cal Cancel' });
    const { page, context } = me;
    let logouts = 0;
    await context.route('**/api/auth/logout', async (route) => {
      logouts += 1;
      await route.continue();
    });
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await context.route('**/api/sync/gigs/push', async (route) => {
      await held;
      await route.continue();
    });
    await createGig(page, 'Posted while staying');
    await page.getByTestId('sync-status').getByText('1 change waiting to sync').waitFor();
    const logout = page.getByRole('button', { name: 'Logout', exact: true });
    const sending = page.getByRole('dialog', { name: 'Logging out' });

    await logout.click();
    await sending.getByText('Sending your changes before you log out…').waitFor();
    await page.keyboard.press('Escape');
    await sending.waitFor({ state: 'detached' });
    await logout.click();
    await sending.getByText('Sending your changes before you log out…').waitFor();
    await sending.getByRole('button', { name: 'Close' }).click();
    await sending.waitFor({ state: 'detached' });

    // The change goes out as any other: the logouts it was waiting for do not go on.
    release();
    await waitUpToDate(page);
    expect([...server.ctx.store.all('gigs')].some((g) => g.title === 'Posted while staying')).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/landing');
    expect((await leftOnDevice(page, me.user.id)).databases.length).toBeGreaterThan(0);

    // Logging out on purpose now: one logout reaches the server, the cancelled ones never did.
    await logout.click();
    await page.waitForURL('**/login');
    await waitFor('nothing left', async () => (await leftOnDevice(page, me.user.id)).databases.length === 0);
    expect(logouts).toBe(1);
    await context.close();
  });

  it('in several tabs: the other tabs sign out too, and the data is deleted all the same', async () => {
    const me = await signedInActor(browser, server.url, { name: 'Tia Tabs' });
    const context: BrowserContext = me.context;
    await me.page.goto(server.url + '/landing');
    await waitUpToDate(me.page);
    const other = await context.newPage();
    await other.goto(server.url + '/notifications');
    await waitUpToDate(other);
    await me.page.getByRole('button', { name: 'Logout', exact: true }).click();
    await me.page.waitForURL('**/login');
    await other.waitForURL('**/login', { timeout: 20_000 });
    await waitFor('nothing left', async () => (await leftOnDevice(other, me.user.id)).databases.length === 0, 20_000);
    expect(await leftOnDevice(other, me.user.id)).toEqual(NOTHING);
    await context.close();
  });
});

describe('a session the server ends by itself', () => {
  const login = async (page: Page, email: string) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
  };

  it('with nothing waiting to go out, signs out and deletes what the device kept for the user', async () => {
    const me = await signedInActor(browser, server.url, { name: 'Eve Ended' });
    const { page, context } = me;
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    expect((await leftOnDevice(page, me.user.id)).databases.length).toBeGreaterThan(0);

    // The server ends the session (here its own logout, as a revocation elsewhere would): the
    // change stream closes, and the device's next request is answered 401.
    expect((await me.http.post('/api/auth/logout')).status).toBe(200);
    await page.waitForURL('**/login');
    await page.getByRole('status').getByText('Your session has ended. Please log in again.').waitFor();
    await waitFor('nothing left', async () => (await leftOnDevice(page, me.user.id)).databases.length === 0, 20_000);
    expect(await leftOnDevice(page, me.user.id)).toEqual(NOTHING);
    await context.close();
  });

  it('found when the app starts again: the same, before anything of the user is shown', async () => {
    const me = await signedInActor(browser, server.url, { name: 'Ray Restart' });
    const { context } = me;
    await me.page.goto(server.url + '/landing');
    await waitUpToDate(me.page);
    await me.page.close();
    expect((await me.http.post('/api/auth/logout')).status).toBe(200);

    const page = await context.newPage();
    await page.goto(server.url + '/landing');
    await page.waitForURL('**/login');
    await page.getByRole('status').getByText('Your session has ended. Please log in again.').waitFor();
    await waitFor('nothing left', async () => (await leftOnDevice(page, me.user.id)).databases.length === 0, 20_000);
    expect(await leftOnDevice(page, me.user.id)).toEqual(NOTHING);
    // A reload keeps what the login page says.
    await page.reload();
    await page.getByRole('status').getByText('Your session has ended. Please log in again.').waitFor();
    await context.close();
  });

  it('with a change waiting, keeps it and says so on the login page; logging in again sends it', async () => {
    const me = await signedInActor(browser, server.url, { name: 'Kit Kept' });
    const { page, context } = me;
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    // A change the server has not taken yet when the session ends.
    await context.route('**/api/sync/gigs/push', (route) => route.abort());
    await createGig(page, 'Waiting through the end');
    await page.getByTestId('sync-status').getByText('1 change waiting to sync').waitFor();

    expect((await me.http.post('/api/auth/logout')).status).toBe(200);
    await page.waitForURL('**/login');
    await page
      .getByRole('status')
      .getByText('Your session has ended. 1 change on this device has not been sent: log in again to send it.')
      .waitFor();
    expect((await leftOnDevice(page, me.user.id)).databases.length).toBeGreaterThan(0);

    await context.unroute('**/api/sync/gigs/push');
    await login(page, me.user.email);
    await page.waitForURL('**/landing');
    await waitFor('the change reached the server', () =>
      [...server.ctx.store.all('gigs')].some((g) => g.title === 'Waiting through the end'),
    );
    await context.close();
  });
});

describe('signed out', () => {
  it('the public pages log no error: a visitor is not an error', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    for (const path of ['/', '/teaser', '/manifesto', '/signup', '/login', '/version1']) {
      await page.goto(server.url + path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
