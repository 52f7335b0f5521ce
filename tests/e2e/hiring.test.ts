import type { Browser, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  goOffline,
  goOnline,
  signedInActor,
  signedInContext,
  waitForServiceWorker,
  waitUpToDate,
} from '../support/browser';
import { accept, applyTo, gigDoc, offer, person, pullAll, write, type Person } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';
import { useServerAndBrowser } from '../support/e2e';

/**
 * What a new user tripped over (issue 21), in Chromium against the real server: a filled gig stops
 * hiring, a declined applicant can get a new offer, and Delete is offered only where it can
 * succeed (decision 014). Each test makes its own people and gigs.
 */

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

type Doc = Record<string, unknown>;

async function postGig(buyer: Person, title: string, overrides: Doc = {}): Promise<Doc> {
  const { refusal, master } = await write(buyer.http, 'gigs', gigDoc({ title, ...overrides }));
  if (refusal || !master) throw new Error(`gig refused: ${refusal}`);
  return master;
}

const card = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const stored = (collection: 'gigs' | 'applications', id: unknown) => {
  const { _seq, ...doc } = server.ctx.store.get(collection, String(id))!;
  return doc;
};

describe('hiring, in the browser', () => {
  it("a filled gig: the buyer hires one, the gig leaves a third user's board and its page says 'Position filled'", async () => {
    const [ada, nora] = await Promise.all([
      signedInActor(browser, server.url, { name: 'Ada Author' }),
      signedInActor(browser, server.url, { name: 'Nora Newcomer' }),
    ]);
    const [ben, cleo] = await Promise.all([
      person(server.url, { name: 'Ben Editor' }),
      person(server.url, { name: 'Cleo Editor' }),
    ]);
    const gig = await postGig(ada, 'Short story edit');
    const benApp = await applyTo(ben, String(gig.id));
    const cleoApp = await applyTo(cleo, String(gig.id));

    // Before the hire, the newcomer sees the gig on her board.
    await nora.page.goto(server.url + '/landing');
    await card(nora.page, 'Short story edit').waitFor({ timeout: 20_000 });

    // The buyer selects one applicant; the one opening is then taken, so nobody else can be selected.
    await ada.page.goto(server.url + '/basket');
    const mine = card(ada.page, 'Short story edit');
    await mine.getByRole('button', { name: 'View applicants' }).click({ timeout: 20_000 });
    const applicants = mine.getByRole('list', { name: 'Applicants for Short story edit' });
    await applicants.getByText('Cleo Editor', { exact: true }).waitFor({ timeout: 20_000 });
    await applicants.getByRole('checkbox', { name: /Ben Editor/ }).check();
    expect(await applicants.getByRole('checkbox', { name: /Cleo Editor/ }).isDisabled()).toBe(true);
    await applicants.getByLabel('Final budget for Ben Editor').fill('120');
    await mine.getByRole('button', { name: 'Send offers' }).click();
    await mine.getByText('Offers sent successfully! Waiting for applicants to accept.').waitFor();

    // Ben accepts: the gig is filled.
    await waitFor('the offer is stored', () => stored('applications', benApp.id).status === 'PENDING_ACCEPTANCE');
    await accept(ben.http, stored('applications', benApp.id));
    await mine.getByText('Position filled', { exact: true }).waitFor({ timeout: 20_000 });

    // It leaves the newcomer's board live, and its page says why she cannot apply.
    await card(nora.page, 'Short story edit').waitFor({ state: 'detached', timeout: 20_000 });
    await nora.page.goto(`${server.url}/gig/${String(gig.id)}`);
    await nora.page.getByText('Position filled', { exact: true }).waitFor({ timeout: 20_000 });
    await nora.page.getByText('This gig is no longer accepting applications').waitFor();
    expect(await nora.page.getByRole('button', { name: 'Apply' }).count()).toBe(0);

    // Cleo, still waiting, was closed and told.
    expect(stored('applications', cleoApp.id).status).toBe('CLOSED');
    const notes = (await pullAll(cleo.http, 'notifications')).documents;
    expect(notes).toContainEqual(
      expect.objectContaining({
        type: 'application_status',
        message: '“Short story edit” has been filled. Your application is closed.',
      }),
    );
    await Promise.all([ada.context.close(), nora.context.close()]);
  });

  it('a device offline applies to a gig that fills meanwhile: back online, the refusal shows as a sync problem', async () => {
    const nora = await signedInActor(browser, server.url, { name: 'Nora Newcomer' });
    const [ada, ben] = await Promise.all([
      person(server.url, { name: 'Ada Author' }),
      person(server.url, { name: 'Ben Editor' }),
    ]);
    const gig = await postGig(ada, 'Flash fiction critique');
    const benApp = await applyTo(ben, String(gig.id));

    await nora.page.goto(server.url + '/landing');
    await card(nora.page, 'Flash fiction critique').waitFor({ timeout: 20_000 });
    await waitUpToDate(nora.page);
    await waitForServiceWorker(nora.page);
    await goOffline(nora.context);
    await card(nora.page, 'Flash fiction critique').getByRole('button', { name: 'Flash fiction critique' }).click();
    const dialog = nora.page.getByRole('dialog', { name: 'Flash fiction critique' });
    await dialog.getByLabel(/Your rate/).fill('90');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('waiting to sync', { exact: false }).waitFor();

    // Meanwhile the buyer hires Ben: the gig is filled.
    await accept(ben.http, await offer(ada.http, benApp, 0));
    await goOnline(nora.context);
    const problems = nora.page.getByRole('region', { name: 'Changes the server did not accept' });
    await problems
      .getByText('This gig is no longer accepting applications', { exact: false })
      .waitFor({ timeout: 30_000 });
    expect(server.ctx.store.get('applications', `${String(gig.id)}.${nora.user.id}`)).toBeUndefined();
    await nora.context.close();
  });

  it('a new offer after a decline: the seller declines and sees it under Declined, the buyer sends a better offer, the seller sees it pending', async () => {
    const [ada, ben] = await Promise.all([
      signedInActor(browser, server.url, { name: 'Ada Author' }),
      signedInActor(browser, server.url, { name: 'Ben Editor' }),
    ]);
    const gig = await postGig(ada, 'Poem translation');
    await offer(ada.http, await applyTo(ben, String(gig.id)), 8_000);

    await ben.page.goto(server.url + '/basket?view=seller');
    const offered = card(ben.page, 'Poem translation');
    await offered.getByText('Offer received').waitFor({ timeout: 20_000 });
    await offered.getByRole('button', { name: 'Decline' }).click();
    // A declined offer is not pending: it moves to its own tab.
    await offered.waitFor({ state: 'detached', timeout: 20_000 });
    await ben.page.getByRole('tab', { name: 'Declined' }).click();
    const declined = card(ben.page, 'Poem translation');
    await declined.getByText('Declined', { exact: true }).waitFor();
    await declined.getByText('You declined this offer. The buyer can still send you a new one.').waitFor();
    await waitUpToDate(ben.page);

    // The buyer can select the declined applicant again and send a better offer.
    await ada.page.goto(server.url + '/basket');
    const mine = card(ada.page, 'Poem translation');
    await mine.getByRole('button', { name: 'View applicants' }).click({ timeout: 20_000 });
    const applicants = mine.getByRole('list', { name: 'Applicants for Poem translation' });
    await applicants.getByText('Declined', { exact: true }).waitFor({ timeout: 20_000 });
    await applicants.getByRole('checkbox', { name: /Ben Editor/ }).check();
    await applicants.getByLabel('Final budget for Ben Editor').fill('120');
    await mine.getByRole('button', { name: 'Send offers' }).click();
    await mine.getByText('Offers sent successfully! Waiting for applicants to accept.').waitFor();

    // The seller sees it live under Pending, waiting for an answer, and is told it is a new offer.
    await ben.page.getByText('Nothing under Declined.').waitFor({ timeout: 20_000 });
    await ben.page.getByRole('tab', { name: 'Pending' }).click();
    const again = card(ben.page, 'Poem translation');
    await again.getByText('Offer received').waitFor();
    await again.getByRole('button', { name: 'Start Working' }).waitFor();
    await ben.page.goto(server.url + '/notifications');
    await ben.page
      .getByText('New offer from “Ada Author” for “Poem translation”', { exact: false })
      .waitFor({ timeout: 20_000 });
    await Promise.all([ada.context.close(), ben.context.close()]);
  });

  it('Delete is not offered on a gig whose work is under way: the reason is shown instead', async () => {
    const ada = await signedInActor(browser, server.url, { name: 'Ada Author' });
    const ben = await person(server.url, { name: 'Ben Editor' });
    const busy = await postGig(ada, 'Essay proofreading');
    await postGig(ada, 'Cover letter polish');
    await accept(ben.http, await offer(ada.http, await applyTo(ben, String(busy.id)), 5_000));
    const reason = 'Work on this gig is under way. Complete the work before deleting the gig.';

    await ada.page.goto(`${server.url}/gig/${String(busy.id)}`);
    await ada.page.getByText(reason).waitFor({ timeout: 20_000 });
    expect(await ada.page.getByRole('button', { name: 'Delete gig' }).count()).toBe(0);

    await ada.page.goto(server.url + '/basket');
    const under = card(ada.page, 'Essay proofreading');
    await under.getByText(reason).waitFor({ timeout: 20_000 });
    expect(await under.getByRole('button', { name: 'Delete gig' }).count()).toBe(0);
    // A gig with nothing under way still offers Delete.
    await card(ada.page, 'Cover letter polish').getByRole('button', { name: 'Delete gig' }).waitFor();
    await ada.context.close();
  });

  /**
   * Ada's gig with Ben's application, and Ada's new device, whose first pull of one collection
   * (the applications unless told) is held.
   */
  async function newDeviceHolding(title: string, collection = 'applications') {
    const ada = await person(server.url, { name: 'Ada Author' });
    const ben = await person(server.url, { name: 'Ben Editor' });
    await applyTo(ben, String((await postGig(ada, title)).id));
    const { context, page } = await signedInContext(browser, server.url, ada.http);
    const held: Route[] = [];
    let holding = true;
    await context.route(`**/api/sync/${collection}/pull**`, (route) => {
      if (holding) held.push(route);
      else void route.continue();
    });
    const firstPullHeld = async () => {
      await waitFor(`the first pull of the ${collection}`, () => held.length > 0, 20_000);
      await page
        .getByTestId('sync-status')
        .getByText(/Syncing your data/)
        .waitFor();
    };
    const release = async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    };
    return { context, page, firstPullHeld, release };
  }

  it("a buyer's new device: My Gigs waits for the first sync rather than showing a gig without the applications still on the way", async () => {
    const { context, page, firstPullHeld, release } = await newDeviceHolding('Album liner notes');
    await page.goto(server.url + '/basket');
    await firstPullHeld();
    await page.getByRole('status').filter({ hasText: 'Loading your gigs…' }).waitFor();
    expect(await page.getByText('0 applicants').count()).toBe(0);

    await release();
    await card(page, 'Album liner notes')
      .getByText(/1 applicant\b/)
      .waitFor({ timeout: 20_000 });
    await waitUpToDate(page);
    await context.close();
  });

  it("a buyer's new device opened on My Gigs draws the gig with its applicant while the rest of the first sync is held", async () => {
    // The conversations' first pull is held: My Gigs reads no conversation, so it need not wait.
    const { context, page, firstPullHeld, release } = await newDeviceHolding('Zine cover lettering', 'conversations');
    await page.goto(server.url + '/basket');
    await card(page, 'Zine cover lettering')
      .getByText(/1 applicant\b/)
      .waitFor({ timeout: 20_000 });
    await firstPullHeld(); // still held, the first sync still under way, with the card drawn
    await page.getByRole('button', { name: 'View applicants' }).click();
    await page.getByRole('checkbox', { name: /Ben Editor/ }).waitFor();

    await release();
    await waitUpToDate(page);
    await context.close();
  });

  it("a buyer's new device: Applications says it is loading, not 'No applications yet', while they are on the way", async () => {
    const { context, page, firstPullHeld, release } = await newDeviceHolding('Podcast show notes');
    await page.goto(server.url + '/applications');
    await firstPullHeld();
    await page.getByRole('status').filter({ hasText: 'Loading applications…' }).waitFor();
    expect(await page.getByText('No applications yet.', { exact: false }).count()).toBe(0);

    await release();
    await page
      .getByRole('list', { name: 'Applications received' })
      .getByText('Ben Editor')
      .waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('a new device opened on Applications draws them while the rest of the first sync is held; Converse waits for the conversations', async () => {
    // The conversations' first pull is held: the first sync cannot finish, the applications can.
    const { context, page, firstPullHeld, release } = await newDeviceHolding('Poster lettering', 'conversations');
    await page.goto(server.url + '/applications');
    const received = page.getByRole('list', { name: 'Applications received' });
    await received.getByText('Ben Editor').waitFor({ timeout: 20_000 });
    await firstPullHeld(); // still held, the first sync still under way, with the card drawn

    // Converse reads the conversations: it waits for them (start-conversation.test.ts), busy meanwhile.
    await received.getByRole('button', { name: 'Converse' }).click();
    await page.locator('button[aria-busy="true"]', { hasText: 'Converse' }).waitFor();
    await release();
    await page.waitForURL(/\/exchange\//, { timeout: 20_000 });
    await waitUpToDate(page);
    await context.close();
  });

  it("a new device opened on Notifications: 'Loading notifications…' while they are on the way, never 'No notifications yet.'", async () => {
    const { context, page, firstPullHeld, release } = await newDeviceHolding('Zine layout', 'notifications');
    await page.goto(server.url + '/notifications');
    await firstPullHeld();
    await page.getByRole('status').filter({ hasText: 'Loading notifications…' }).waitFor();
    expect(await page.getByText('No notifications yet.').count()).toBe(0);

    await release();
    await page.getByText('New application from “Ben Editor” for “Zine layout”').waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('a new device opened on Notifications draws them once theirs are in, while the rest of the first sync is still held', async () => {
    // The applications' first pull is held: the first sync cannot finish, the notifications can.
    const { context, page, firstPullHeld, release } = await newDeviceHolding('Comic lettering');
    await page.goto(server.url + '/notifications');
    await firstPullHeld();
    await page.getByText('New application from “Ben Editor” for “Comic lettering”').waitFor({ timeout: 20_000 });
    await page
      .getByTestId('sync-status')
      .getByText(/Syncing your data/)
      .waitFor();

    await release();
    await waitUpToDate(page);
    await context.close();
  });

  it("a new device opened on the board: 'Loading gigs…' while the gigs are on the way, never that there are none", async () => {
    const { context, page, firstPullHeld, release } = await newDeviceHolding('Risograph print run', 'gigs');
    await page.goto(server.url + '/landing');
    await firstPullHeld();
    await page.getByRole('status').filter({ hasText: 'Loading gigs…' }).waitFor();
    expect(await page.getByText('No gigs found matching your filters.', { exact: false }).count()).toBe(0);
    // Applied To waits for them too.
    await page.getByRole('tab', { name: 'Applied To' }).click();
    expect(await page.getByText("You haven't applied to any gigs yet.").count()).toBe(0);
    await page.getByRole('tab', { name: 'All Gigs' }).click();

    await release();
    await page.getByRole('button', { name: 'Risograph print run' }).waitFor({ timeout: 20_000 });
    await context.close();
  });
});
