import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../sync-server/auth/sessions';
import { signedInActor, waitForServiceWorker, waitUpToDate } from '../support/browser';
import { useServerAndBrowser } from '../support/e2e';
import { applyTo, gigDoc, isoDay, person, write } from '../support/fixtures';
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

/** What the browser holds that names the user: IndexedDB databases and localStorage keys. */
async function leftOnDevice(page: Page, userId: string): Promise<{ databases: string[]; storage: string[] }> {
  return page.evaluate(async (id) => {
    const lower = id.toLowerCase();
    const names = (await indexedDB.databases()).map((d) => d.name ?? '');
    const keys = Object.keys(localStorage);
    const mentions = (text: string) => text.includes(id) || text.toLowerCase().includes(lower);
    return {
      databases: names.filter(mentions),
      storage: keys.filter((k) => mentions(k) || mentions(localStorage.getItem(k) ?? '')),
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
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    const before = await leftOnDevice(page, me.user.id);
    expect(before.databases.length).toBeGreaterThan(2); // the RxDB database and the chat room's
    expect(before.storage.some((k) => k.startsWith('chat-draft-'))).toBe(true);

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

    expect(await leftOnDevice(page, me.user.id)).toEqual({ databases: [], storage: [] });
    // And after a reload, nothing of theirs comes back.
    await page.reload();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(await leftOnDevice(page, me.user.id)).toEqual({ databases: [], storage: [] });
    await context.close();
  });

  it('offline, asks "3 changes have not been sent. Log out anyway and lose them?" and deletes them only if told to', async () => {
    const me = await signedInActor(browser, server.url, { name: 'Oli Offline' });
    const { page, context } = me;
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await createGig(page, 'Offline one');
    await createGig(page, 'Offline two');
    await page.goto(server.url + '/profile');
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
    expect(await leftOnDevice(page, me.user.id)).toEqual({ databases: [], storage: [] });

    // The server still had the session (the logout could not reach it): it is ended as soon as
    // the app starts online again, and never resumed.
    const token = (await context.cookies()).find((c) => c.name === 'sid')!.value;
    expect(server.ctx.store.get('sessions', hashToken(token))?._deleted).toBe(false);
    await context.setOffline(false);
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
    expect(await leftOnDevice(other, me.user.id)).toEqual({ databases: [], storage: [] });
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
