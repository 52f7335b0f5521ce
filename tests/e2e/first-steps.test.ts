import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInContext, type Actor } from '../support/browser';
import { applyTo, gigDoc, isoDay, offer, offerAndAccept, person, write, type Person } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { useServerAndBrowser } from '../support/e2e';

/**
 * What a new user trips over (issue 21): one money format everywhere, payment failures that say
 * what happened, My Gigs opening on the side with something in it, a reason when Converse cannot
 * open a chat, a way home from every public page and the terms, SVG notification icons, and the
 * board on a phone. Each test makes the people and data it needs.
 */

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/**
 * A person signed in to a browser context. The service worker is blocked where a test stands in
 * for the server's answer (page.route does not see requests a service worker handles).
 */
async function actor(
  name: string,
  options: { viewport?: typeof PHONE; blockServiceWorker?: boolean } = {},
): Promise<Actor> {
  const p = await person(server.url, { name });
  return {
    ...p,
    ...(await signedInContext(browser, server.url, p.http, {
      viewport: options.viewport ?? DESKTOP,
      serviceWorkers: options.blockServiceWorker ? 'block' : 'allow',
    })),
  };
}

async function postGig(owner: Person, overrides: Record<string, unknown>): Promise<string> {
  const { master, refusal } = await write(owner.http, 'gigs', gigDoc(overrides));
  expect(refusal).toBeUndefined();
  return String(master!.id);
}

/** An accepted and paid offer of `finalBudget`: the application is IN_PROGRESS. */
async function paidWork(buyer: Person, seller: Person, gigId: string, finalBudget: number): Promise<string> {
  const accepted = await offerAndAccept(buyer.http, seller.http, await applyTo(seller, gigId), finalBudget);
  const applicationId = String(accepted.id);
  const checkout = await buyer.http.post<{ sessionId: string }>('/api/payments/checkout', { applicationId });
  expect(checkout.status).toBe(200);
  expect((await buyer.http.post(`/api/payments/simulated/checkout/${checkout.body.sessionId}/pay`, {})).status).toBe(
    200,
  );
  return applicationId;
}

const card = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('button', { name: title, exact: true }) });

describe('one money format', () => {
  it("the board, the applications page and the basket show 'C$250.00' style amounts, ₦ for naira and 'Passion Driven' for passion gigs", async () => {
    const ada = await actor('Ada Money');
    const [ben, cleo] = await Promise.all([
      person(server.url, { name: 'Ben Money' }),
      person(server.url, { name: 'Cleo Money' }),
    ]);
    const paid = await postGig(ada, { title: 'Money poster', budget: '250', currency: 'CAD' });
    await postGig(ada, {
      title: 'Money mural',
      budget: '5000-12500.5',
      locationType: 'in-person',
      country: 'NG',
      city: 'Lagos',
      projectDate: isoDay(20),
    });
    const passion = await postGig(ada, {
      title: 'Money zine',
      budget: '',
      isPassionDriven: true,
      locationType: 'in-person',
      country: 'NG',
      city: 'Lagos',
      projectDate: isoDay(20),
    });
    await applyTo(ben, paid, { budget: 1235 });
    await applyTo(cleo, passion, { budget: 0, currency: 'NGN' });

    await ada.page.goto(server.url + '/landing');
    await card(ada.page, 'Money poster').getByText('C$250.00', { exact: true }).waitFor({ timeout: 20_000 });
    await card(ada.page, 'Money mural').getByText('₦5,000.00 - ₦12,500.50', { exact: true }).waitFor();
    await card(ada.page, 'Money zine').getByText('Passion Driven', { exact: true }).waitFor();

    await ada.page.goto(server.url + '/applications');
    const applications = ada.page.getByRole('list', { name: 'Applications received' });
    await applications
      .getByRole('listitem')
      .filter({ hasText: 'Ben Money' })
      .getByText('C$12.35', { exact: true })
      .waitFor({ timeout: 20_000 });
    await applications
      .getByRole('listitem')
      .filter({ hasText: 'Cleo Money' })
      .getByText('Passion Driven', { exact: true })
      .waitFor();
    expect(await ada.page.getByText(/CA\$|NGN|₦0\.00/).count()).toBe(0);

    await ada.page.goto(server.url + '/basket?view=buyer');
    const poster = ada.page
      .getByRole('listitem')
      .filter({ has: ada.page.getByRole('heading', { name: 'Money poster' }) });
    await poster.getByText('C$250.00', { exact: false }).waitFor({ timeout: 20_000 });
    await poster.getByRole('button', { name: 'View applicants' }).click();
    await poster.getByText('offered C$12.35', { exact: false }).waitFor();
    await ada.context.close();
  });
});

describe('payment failures say what happened', () => {
  it("a payout setup that fails while online shows the docs/product.md text, not 'offline'; a malformed answer is that failure and goes nowhere", async () => {
    const ben = await actor('Ben Payout', { blockServiceWorker: true });
    await ben.page.goto(server.url + '/settings');
    const setUp = ben.page.getByRole('button', { name: 'Set up payouts' });
    await setUp.waitFor({ timeout: 20_000 });

    await ben.page.route('**/api/stripe/create-connect-account', (route) => route.abort('connectionrefused'));
    await setUp.click();
    const alert = ben.page.getByRole('alert');
    await alert.getByText('Failed to create Stripe account', { exact: true }).waitFor();
    expect(await ben.page.evaluate(() => navigator.onLine)).toBe(true);
    expect(await ben.page.getByText(/offline/i).count()).toBe(0);

    for (const body of [
      { accountId: 'acct_x' },
      { accountId: 'acct_x', accountLink: 'javascript:alert(1)' },
      { accountId: 'acct_x', accountLink: '/relative' },
    ]) {
      await ben.page.unroute('**/api/stripe/create-connect-account');
      await ben.page.route('**/api/stripe/create-connect-account', (route) =>
        route.fulfill({ status: 200, json: body }),
      );
      await ben.page.getByRole('button', { name: 'Try Again' }).click();
      await setUp.click({ timeout: 20_000 });
      await alert.getByText('Failed to create Stripe account', { exact: true }).waitFor();
      expect(new URL(ben.page.url()).pathname).toBe('/settings');
    }
    await ben.context.close();
  });

  it("Mark as Complete that fails while online shows 'Error marking gig as complete', and so does a malformed answer", async () => {
    const ada = await actor('Ada Complete', { blockServiceWorker: true });
    const ben = await person(server.url, { name: 'Ben Complete' });
    const gigId = await postGig(ada, { title: 'Completion poster' });
    await paidWork(ada, ben, gigId, 10_000);
    await ada.page.goto(server.url + '/basket?view=buyer');
    const work = ada.page.getByRole('list', { name: 'Work on Completion poster' });
    const dialog = ada.page.getByRole('dialog', { name: 'Mark this work as complete?' });
    const complete = async () => {
      await work.getByRole('button', { name: 'Mark as Complete' }).click({ timeout: 20_000 });
      await dialog.getByRole('button', { name: 'Mark as Complete' }).click();
      await work
        .getByRole('alert')
        .getByText('Error marking gig as complete. Please try again.', { exact: true })
        .waitFor();
    };
    await ada.page.route('**/api/gigs/complete-gig', (route) => route.abort('connectionreset'));
    await complete();
    expect(await ada.page.getByText(/offline/i).count()).toBe(0);
    await ada.page.unroute('**/api/gigs/complete-gig');
    await ada.page.route('**/api/gigs/complete-gig', (route) =>
      route.fulfill({ status: 200, json: { success: true } }),
    );
    await complete();
    await ada.context.close();
  });

  it('the payment success page shows the base, the 3% fee and the total', async () => {
    const ada = await actor('Ada Success');
    const ben = await person(server.url, { name: 'Ben Success' });
    const gigId = await postGig(ada, { title: 'Success poster' });
    const applicationId = String((await offerAndAccept(ada.http, ben.http, await applyTo(ben, gigId), 25_000)).id);
    const checkout = await ada.http.post<{ sessionId: string }>('/api/payments/checkout', { applicationId });
    const paid = await ada.http.post<{ next: string }>(
      `/api/payments/simulated/checkout/${checkout.body.sessionId}/pay`,
      {},
    );
    await ada.page.goto(paid.body.next);
    await ada.page.getByText('Payment confirmed!', { exact: false }).waitFor({ timeout: 20_000 });
    const amounts = ada.page.locator('dl.amounts');
    for (const [term, value] of [
      ['Base', 'C$250.00'],
      ['Service fee (3%)', 'C$7.50'],
      ['Total', 'C$257.50'],
    ] as const) {
      await amounts.getByText(term, { exact: true }).waitFor();
      await amounts.getByText(value, { exact: true }).waitFor();
    }
    await ada.context.close();
  });
});

describe('My Gigs and Converse open where there is something to see', () => {
  it('a freelancer with an offer and no gigs of their own lands on the seller tab, and the offer notification opens it too', async () => {
    const ada = await person(server.url, { name: 'Ada Tabs' });
    const ben = await actor('Ben Tabs');
    const gigId = await postGig(ada, { title: 'Tab poster' });
    await offer(ada.http, await applyTo(ben, gigId), 30_000);

    await ben.page.goto(server.url + '/basket');
    await ben.page.getByRole('tab', { name: 'Work I applied for', selected: true }).waitFor({ timeout: 20_000 });
    await ben.page.getByRole('heading', { name: 'Tab poster' }).waitFor({ timeout: 20_000 });
    await ben.page.waitForURL('**/basket?view=seller');
    expect(await ben.page.getByText("You haven't posted any gigs yet").count()).toBe(0);

    await ben.page.goto(server.url + '/notifications');
    await ben.page.getByRole('list', { name: 'Notifications' }).getByRole('button').first().click({ timeout: 20_000 });
    await ben.page.waitForURL('**/basket?view=seller');
    await ben.page.getByRole('tab', { name: 'Work I applied for', selected: true }).waitFor();
    await ben.context.close();
  });

  it("'Converse with Creator' on a gig one has not applied to says why on the Applications page", async () => {
    const ada = await person(server.url, { name: 'Ada Converse' });
    const cleo = await actor('Cleo Converse');
    const gigId = await postGig(ada, { title: 'Converse poster' });
    await cleo.page.goto(server.url + `/gig/${gigId}`);
    await cleo.page.getByRole('button', { name: 'Converse with Creator' }).click({ timeout: 20_000 });
    await cleo.page.waitForURL('**/applications');
    await cleo.page
      .getByRole('status')
      .getByText('Apply to this gig first to start a conversation with its creator.', { exact: true })
      .waitFor();
    await cleo.context.close();
  });
});

describe('public pages', () => {
  it('every public page has the header with the logo linking to /, and a signed-out visitor may read /terms, linked from sign-up', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    for (const path of ['/', '/waitlist-signup', '/teaser', '/manifesto', '/version1', '/signup', '/login', '/terms']) {
      await page.goto(server.url + path);
      const nav = page.getByRole('navigation', { name: 'Site' });
      const logo = nav.getByRole('link', { name: 'Creative Gigs' });
      await logo.waitFor({ timeout: 20_000 });
      expect({ path, href: await logo.getAttribute('href') }).toEqual({ path, href: '/' });
      await nav.getByRole('link', { name: 'Log in' }).waitFor();
    }
    await page.goto(server.url + '/login');
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Creative Gigs' }).click();
    await page.waitForURL(server.url + '/');

    await page.goto(server.url + '/signup');
    const terms = page.getByRole('link', { name: 'terms and conditions' });
    expect(await terms.getAttribute('href')).toBe('/terms');
    await page.goto(server.url + '/terms');
    await page.getByRole('heading', { name: 'Terms of use' }).waitFor();
    await page.getByText('a service fee of 3% of the final budget', { exact: false }).waitFor();
    await page.getByText('a platform fee of 10%', { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/terms');
    await context.close();
  });

  it("a signed-in visitor on / is offered 'Open the app' (to /landing), not 'Log in'", async () => {
    const ada = await actor('Ada Home');
    await ada.page.goto(server.url + '/');
    const open = ada.page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Open the app' });
    await open.waitFor({ timeout: 20_000 });
    expect(await open.getAttribute('href')).toBe('/landing');
    expect(await ada.page.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    await open.click();
    await ada.page.waitForURL('**/landing');
    await ada.context.close();
  });
});

describe('looks', () => {
  it('notification icons are SVG, one per type, and the time stays on one line on a phone', async () => {
    const ada = await actor('Ada Icons', { viewport: PHONE });
    const ben = await person(server.url, { name: 'Ben Icons with a rather long name for a phone' });
    await applyTo(ben, await postGig(ada, { title: 'Icon poster with a long title that wraps on a phone' }));
    await ada.page.goto(server.url + '/notifications');
    const item = ada.page.getByRole('list', { name: 'Notifications' }).getByRole('button').first();
    await item.waitFor({ timeout: 20_000 });
    expect(await item.locator('svg').count()).toBe(1);
    expect(await item.locator('svg').getAttribute('data-icon')).toBe('application');
    expect(await item.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
    const time = item.locator('.notification__time');
    const lines = await time.evaluate(
      (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || '0'),
    );
    expect(lines).toBeLessThan(1.5);
    await ada.context.close();
  });

  it('on a phone the filters are behind a Filters button that counts the active ones; the desktop shows them as before', async () => {
    const ada = await actor('Ada Filters', { viewport: PHONE });
    await postGig(ada, { title: 'Filter poster' });
    await ada.page.goto(server.url + '/landing');
    await card(ada.page, 'Filter poster').waitFor({ timeout: 20_000 });
    const toggle = ada.page.getByRole('button', { name: /^Filters/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await ada.page.getByRole('group', { name: 'Niches' }).isVisible()).toBe(false);
    // The first gig is on the first screen.
    const top = (await card(ada.page, 'Filter poster').boundingBox())!.y;
    expect(top).toBeLessThan(PHONE.height);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await ada.page.getByRole('group', { name: 'Niches' }).getByRole('checkbox', { name: 'Visual Art' }).check();
    await ada.page.getByRole('group', { name: 'Location' }).getByRole('checkbox', { name: 'Remote' }).check();
    await ada.page.getByRole('button', { name: 'Filters (2)' }).waitFor();
    await ada.page.getByRole('button', { name: 'Filters (2)' }).click();
    await ada.page.getByRole('group', { name: 'Niches' }).waitFor({ state: 'hidden' });

    await ada.page.setViewportSize(DESKTOP);
    await ada.page.getByRole('group', { name: 'Niches' }).waitFor();
    expect(await toggle.isVisible()).toBe(false);
    await ada.context.close();
  });

  it('board card titles wrap whole onto at most two lines, and longer ones end in an ellipsis without cutting a line', async () => {
    const ada = await actor('Ada Titles');
    const two = 'Poster for the spring gallery (project)';
    const long = 'A very long gig title about a mural, a poster, a zine and a typography project (draft)';
    await postGig(ada, { title: two });
    await postGig(ada, { title: long });
    await ada.page.goto(server.url + '/landing');
    for (const title of [two, long]) {
      const button = ada.page.getByRole('button', { name: title, exact: true });
      await button.waitFor({ timeout: 20_000 });
      const m = await button.evaluate((el) => {
        const heading = el.closest('h2')!;
        const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
        const range = document.createRange();
        range.selectNodeContents(el);
        const glyphs = [...range.getClientRects()];
        const shown = el.getBoundingClientRect();
        const clip = heading.getBoundingClientRect();
        return {
          lines: Math.round((shown.height - parseFloat(getComputedStyle(el).paddingBottom)) / lineHeight),
          headingClips: heading.scrollHeight > heading.clientHeight,
          // The bottom of the last line that is shown lies inside both boxes.
          lastShownBottom: Math.max(...glyphs.map((r) => r.bottom).filter((b) => b <= shown.bottom + 0.5)),
          shownBottom: shown.bottom,
          clipBottom: clip.bottom,
          hidden: el.scrollHeight > el.clientHeight,
        };
      });
      if (title === long) expect(m.lines, title).toBe(2);
      else expect(m.lines, title).toBeLessThanOrEqual(2);
      expect(m.headingClips, title).toBe(false);
      expect(m.lastShownBottom, title).toBeLessThanOrEqual(Math.min(m.shownBottom, m.clipBottom) + 0.5);
      expect(m.hidden, title).toBe(title === long);
    }
    await ada.context.close();
  });
});
