import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { goOffline, goOnline, signedInContext, waitForServiceWorker, waitUpToDate } from '../support/browser';
import { TestClient } from '../support/http-client';
import { gigDoc, isoDay, signUpWithProfile, write } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { useServerAndBrowser } from '../support/e2e';

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

/** A browser context signed in as a user made through the API (the sign-up UI has its own test). */
const signedIn = (http: TestClient) => signedInContext(browser, server.url, http);

async function fillGigForm(page: Page, title: string, deadline: string) {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('A hand-painted sign for a bakery front.');
  await page.getByLabel('Category').selectOption('Visual Art');
  await page.getByLabel('Location type').selectOption('remote');
  await page.getByLabel('Project deadline').fill(deadline);
  await page.getByLabel(/^Budget/).fill('300-500');
  await page.getByLabel('Skills (comma separated)').fill('Lettering, Painting, Signs');
  await page.getByRole('button', { name: 'Post gig' }).click();
}

describe('offline-first data in the browser', () => {
  it("an offline reload still shows the app and the user's data", async () => {
    const http = new TestClient(server.url);
    await signUpWithProfile(http, { name: 'Ada' });
    await write(http, 'gigs', gigDoc({ title: 'Gig seen offline' }));
    const { context, page } = await signedIn(http);
    await page.goto(server.url + '/landing');
    await page.getByRole('heading', { name: 'Gig seen offline' }).waitFor();
    await waitForServiceWorker(page);

    await goOffline(context);
    await page.reload();
    await page.getByRole('heading', { name: 'Gig seen offline' }).waitFor();
    await page
      .getByTestId('sync-status')
      .getByText(/Offline/)
      .waitFor();
    await context.close();
  });

  it("an offline reload draws the board's first page before the data opens; a gig changed since is never drawn as it was", async () => {
    const http = new TestClient(server.url);
    await signUpWithProfile(http, { name: 'Ada' });
    const gig = (await write(http, 'gigs', gigDoc({ title: 'Mural for the library' }))).master!;
    const { context, page } = await signedIn(http);
    // Every gig title each page load draws, marked when it was drawn from the board's copy.
    await context.addInitScript(() => {
      const drawn: string[] = [];
      (window as unknown as { drawn: string[] }).drawn = drawn;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.gig-card__title')) {
          const entry = `${el.textContent ?? ''}${el.closest('[data-board-copy]') ? ' (copy)' : ''}`;
          if (!drawn.includes(entry)) drawn.push(entry);
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const drawn = () => page.evaluate(() => (window as unknown as { drawn: string[] }).drawn);
    /** The board has kept its first page for the next load (its copy holds `title`). */
    const kept = (title: string) =>
      page.waitForFunction(
        (t) =>
          Object.keys(localStorage).some(
            (k) => k.startsWith('gigs-board-copy-') && localStorage.getItem(k)?.includes(t),
          ),
        title,
      );
    await page.goto(server.url + '/landing');
    await page.getByRole('heading', { name: 'Mural for the library' }).waitFor();
    await waitForServiceWorker(page);
    await kept('Mural for the library');

    await goOffline(context);
    await page.reload();
    await page.getByRole('button', { name: 'Mural for the library' }).waitFor();
    await page
      .getByTestId('sync-status')
      .getByText(/Offline/)
      .waitFor();
    expect(await drawn()).toContain('Mural for the library (copy)');
    // The copy was on screen before the data began to open (its modules are requested after it).
    const marks = await page.evaluate(() =>
      ['board:first-50', 'data:open'].map((n) => performance.getEntriesByName(n)[0]?.startTime ?? null),
    );
    expect(marks[0]).not.toBeNull();
    expect(marks[1]).not.toBeNull();
    expect(marks[0]!).toBeLessThan(marks[1]!);

    // Back online on another screen, the gig is renamed on another device and reaches this one.
    await goOnline(context);
    await page.goto(`${server.url}/gig/${String(gig.id)}`);
    await waitUpToDate(page);
    await write(http, 'gigs', { ...gig, title: 'Mural for the town library', updatedAt: Date.now() + 1 }, gig);
    await page.getByRole('heading', { name: 'Mural for the town library' }).waitFor();
    await goOffline(context);
    await page.goto(server.url + '/landing');
    await page.getByRole('button', { name: 'Mural for the town library' }).waitFor();
    expect(await drawn()).not.toContain('Mural for the library (copy)');
    expect(await drawn()).not.toContain('Mural for the library');

    // The board writes its copy again: the next reload draws the new title from it.
    await kept('Mural for the town library');
    await page.reload();
    await page.getByRole('button', { name: 'Mural for the town library' }).waitFor();
    expect(await drawn()).toContain('Mural for the town library (copy)');
    await context.close();
  });

  it('a gig created offline shows as waiting, goes out when the network returns, and reaches a second user live', async () => {
    const httpA = new TestClient(server.url);
    await signUpWithProfile(httpA, { name: 'Ada' });
    const httpB = new TestClient(server.url);
    await signUpWithProfile(httpB, { name: 'Ben' });
    const a = await signedIn(httpA);
    const b = await signedIn(httpB);
    await b.page.goto(server.url + '/landing');
    await b.page.getByTestId('sync-status').getByText('Online · up to date').waitFor();

    await a.page.goto(server.url + '/landing');
    await a.page.getByTestId('sync-status').getByText('Online · up to date').waitFor();
    await waitForServiceWorker(a.page);
    await goOffline(a.context);
    await a.page.getByRole('link', { name: 'Create Gig' }).first().click();
    await fillGigForm(a.page, 'Bakery sign, written offline', isoDay(10));
    const card = a.page.getByRole('listitem').filter({ hasText: 'Bakery sign, written offline' });
    await card.getByText('Waiting to sync').waitFor();
    await a.page
      .getByTestId('sync-status')
      .getByText(/1 change waiting to sync/)
      .waitFor();
    expect(await b.page.getByRole('heading', { name: 'Bakery sign, written offline' }).count()).toBe(0);

    await goOnline(a.context);
    await a.page.getByTestId('sync-status').getByText('Online · up to date').waitFor({ timeout: 20_000 });
    await card.getByText('Waiting to sync').waitFor({ state: 'detached' });
    await b.page.getByRole('heading', { name: 'Bakery sign, written offline' }).waitFor({ timeout: 20_000 });
    await a.context.close();
    await b.context.close();
  });

  it('a write the server refuses shows its reason and its content can be restored into the form', async () => {
    const http = new TestClient(server.url);
    await signUpWithProfile(http, { name: 'Cleo' });
    const { context, page } = await signedIn(http);
    // A device whose clock is ten days behind: its "today" is already in the past for the server.
    const tenDaysAgo = Date.now() - 10 * 86_400_000;
    await page.clock.install({ time: tenDaysAgo });
    await page.clock.resume();
    await page.goto(server.url + '/create-gig');
    await fillGigForm(page, 'Poster with a stale date', isoDay(0, tenDaysAgo));
    const problems = page.getByRole('region', { name: 'Changes the server did not accept' });
    await problems.getByText('Project deadline cannot be in the past').waitFor({ timeout: 20_000 });
    await problems.getByText(/Poster with a stale date/).waitFor();
    await problems.getByRole('link', { name: 'Restore into the gig form' }).click();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Poster with a stale date');
    expect(await page.getByLabel('Skills (comma separated)').inputValue()).toBe('Lettering, Painting, Signs');
    await context.close();
  });

  it('signs out cleanly when the server says the session is gone', async () => {
    const http = new TestClient(server.url);
    await signUpWithProfile(http);
    const { context, page } = await signedIn(http);
    await page.goto(server.url + '/landing');
    await page.getByTestId('sync-status').getByText('Online · up to date').waitFor();
    await http.post('/api/auth/logout'); // the same session, revoked from elsewhere
    await page.waitForURL('**/login', { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await context.close();
  });

  it("refuses a gig from a user whose profile is not complete: 'Please complete your profile before creating a gig'", async () => {
    const http = new TestClient(server.url);
    const { signUp } = await import('../support/fixtures');
    await signUp(http);
    const { context, page } = await signedIn(http);
    await page.goto(server.url + '/landing');
    await page.getByTestId('sync-status').getByText('Online · up to date').waitFor();
    await page.getByRole('link', { name: 'Create Gig' }).first().click();
    await fillGigForm(page, 'Needs a profile first', isoDay(5));
    await page.getByText('Please complete your profile before creating a gig').waitFor();
    await context.close();
  });
});
