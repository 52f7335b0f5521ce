import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInContext, waitUpToDate } from '../support/browser';
import { useServerAndBrowser } from '../support/e2e';
import { gigDoc, isoDay, person, write } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';

// Issue 17, part 3: the app open in several tabs of one browser. One tab replicates (leader
// election); every tab shows the device's real sync state; when that tab closes, another takes
// over at once.

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

async function createGig(page: Page, title: string) {
  await page.getByRole('link', { name: 'Create Gig' }).first().click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('Two tabs, one device.');
  await page.getByLabel('Category').selectOption('Visual Art');
  await page.getByLabel('Location type').selectOption('remote');
  await page.getByLabel('Project deadline').fill(isoDay(10));
  await page.getByLabel(/^Budget/).fill('300-500');
  await page.getByLabel('Skills (comma separated)').fill('Lettering');
  await page.getByRole('button', { name: 'Post gig' }).click();
}

/** Every label the page's sync status showed, as it changed. */
async function recordStatus(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { statusSeen: string[] };
    w.statusSeen = [];
    const note = () => {
      const text = document.querySelector('[data-testid="sync-status"]')?.textContent ?? '';
      if (text && w.statusSeen.at(-1) !== text) w.statusSeen.push(text);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { statusSeen: string[] }).statusSeen);
}

describe('the app in several tabs', () => {
  it('replicates in one tab, shows the real state in every tab, and hands over when that tab closes', async () => {
    const me = await person(server.url, { name: 'Tab Owner' });
    const other = await person(server.url, { name: 'Other Buyer' });
    const { context, page: first } = await signedInContext(browser, server.url, me.http);
    await first.goto(server.url + '/landing');
    await waitUpToDate(first);

    // A second tab shows the device's state at once, never a first sync that does not move.
    const second = await context.newPage();
    await second.goto(server.url + '/landing');
    await waitUpToDate(second, 10_000);
    expect(await second.getByText(/Syncing your data… 0 items received/).count()).toBe(0);
    // One change stream for the device: only one tab replicates.
    await waitFor('one stream', () => server.streams.openFor(me.user.id) === 1);

    // A write in the tab that does not replicate goes out through the one that does; both tabs see it waiting and sent.
    await createGig(second, 'Written in the second tab');
    await waitFor('the gig reaches the server', () =>
      [...server.ctx.store.all('gigs')].find((g) => g.title === 'Written in the second tab'),
    );
    await waitUpToDate(first);
    await waitUpToDate(second);

    // The replicating tab closes: the other takes over, with no gap and no first-sync message.
    const seen = await recordStatus(second);
    await first.close({ runBeforeUnload: true });
    const created = (await write(other.http, 'gigs', gigDoc({ title: 'Posted while the tabs changed hands' }))).master!;
    await second.getByRole('link', { name: 'Home' }).click();
    await second
      .getByRole('heading', { name: created.title as string })
      .waitFor({ timeout: 20_000 })
      .catch(async (err: unknown) => {
        // Once seen in a whole-suite run (2026-11-27): say which half stalled, the hand-over or the board.
        const status = await seen();
        const gigs = await second.getByRole('heading', { level: 2 }).allTextContents();
        throw new Error(
          `${String(err)}\nsecond tab's statuses since the close: ${JSON.stringify(status)}; streams open for the user: ${server.streams.openFor(me.user.id)}; headings drawn: ${JSON.stringify(gigs.slice(0, 10))}`,
        );
      });
    await waitUpToDate(second);
    await waitFor('the new leader holds the one stream', () => server.streams.openFor(me.user.id) === 1);
    expect((await seen()).filter((label) => label.startsWith('Syncing your data'))).toEqual([]);

    // It pushes too.
    await createGig(second, 'Written after the hand-over');
    await waitFor('the second gig reaches the server', () =>
      [...server.ctx.store.all('gigs')].find((g) => g.title === 'Written after the hand-over'),
    );
    await waitUpToDate(second);
    await context.close();
  });
});
