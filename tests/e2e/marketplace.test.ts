import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { goOffline, goOnline, signedInActor, waitForServiceWorker, waitUpToDate, type Actor } from '../support/browser';
import { useServerAndBrowser } from '../support/e2e';
import { applicationDoc, gigDoc, isoDay, offerAndAccept, pullAll, write } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';

/**
 * The marketplace flow of issue 5 in real Chromium against the real server: users in their own
 * browser contexts, each with their own IndexedDB, seeing each other's writes live through
 * replication. Each test makes its own users and what it starts from (through the API), with
 * titles of its own, so any one of them runs, passes or fails alone.
 */

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

let serial = 0;
/** A title no other test uses (every test shares the board). */
const titled = (title: string) => `${title} ${++serial}`;

const buyer = () => signedInActor(browser, server.url, { name: 'Ada Buyer' });
const freelancer = () =>
  signedInActor(browser, server.url, { name: 'Ben Freelancer', username: `benmakes${++serial}` });
const otherFreelancer = () => signedInActor(browser, server.url, { name: 'Cleo Freelancer' });

/** A remote Visual Art gig hiring two, as the create-gig modal makes it, posted by `by`. */
async function bakeryGig(by: Actor, title: string): Promise<Record<string, unknown>> {
  const doc = gigDoc({
    title,
    description: 'A hand-painted sign for a bakery front, about two metres wide.',
    category: 'Visual Art',
    budget: '300-500',
    skills: 'Lettering, Painting, Signs',
    openings: 2,
  });
  expect((await write(by.http, 'gigs', doc)).refusal).toBeUndefined();
  return doc;
}

/** An in-person, passion-driven Music and Sound gig in Bristol, posted by `by`. */
async function quartetGig(by: Actor, title: string): Promise<Record<string, unknown>> {
  const doc = gigDoc({
    title,
    description: 'Four players for a ceremony and the first hour of the reception.',
    category: 'Music and Sound',
    locationType: 'in-person',
    country: 'GB',
    city: 'Bristol',
    projectDate: isoDay(20),
    projectDeadline: undefined,
    isPassionDriven: true,
    budget: '',
    currency: 'GBP',
    skills: 'Violin, Viola, Cello',
  });
  expect((await write(by.http, 'gigs', doc)).refusal).toBeUndefined();
  return doc;
}

/** `who` applies to `gig` through the API with a budget in minor units: the stored application. */
async function applyThroughApi(who: Actor, gig: Record<string, unknown>, budget: number) {
  const doc = applicationDoc(String(gig.id), who.user.id, { budget });
  const { refusal, master } = await write(who.http, 'applications', doc);
  expect(refusal).toBeUndefined();
  return master!;
}

const card = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

async function fillRemoteGig(scope: Locator | Page, title: string, skills = 'Lettering, Painting, Signs') {
  await scope.getByLabel('Title').fill(title);
  await scope.getByLabel('Description').fill('A hand-painted sign for a bakery front, about two metres wide.');
  await scope.getByLabel('Category').selectOption('Visual Art');
  await scope.getByLabel('Location type').selectOption('remote');
  await scope.getByLabel('Project deadline').fill(isoDay(10));
  await scope.getByLabel(/^Budget/).fill('300-500');
  await scope.getByLabel('Skills (comma separated)').fill(skills);
}

async function openGig(page: Page, title: string): Promise<Locator> {
  await card(page, title).getByRole('button', { name: title }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  return dialog;
}

describe('the marketplace, users in their own browsers', () => {
  it('A creates a remote gig in the board modal and an in-person gig on the page, with the docs/product.md messages', async () => {
    const ada = await buyer();
    const [bakery, quartet] = [titled('Bakery window sign'), titled('Wedding string quartet')];
    const { page } = ada;
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    await page.getByRole('link', { name: 'Create Gig' }).nth(1).click();
    const modal = page.getByRole('dialog', { name: 'Create a gig' });
    await modal.getByRole('button', { name: 'Post gig' }).click();
    for (const text of [
      'Title is required',
      'Description is required',
      'Category is required',
      'Location type is required',
      'Budget is required',
      'Skills are required',
    ]) {
      await modal.getByText(text, { exact: true }).waitFor();
    }
    await fillRemoteGig(modal, bakery);
    // Two openings: B and C both get offers below.
    await modal.getByLabel(/^People to hire/).fill('2');
    await expect.poll(() => modal.getByText(`${bakery.length}/100`).count()).toBe(1);
    await modal.getByRole('button', { name: 'Post gig' }).click();
    await modal.waitFor({ state: 'detached' });
    await card(page, bakery).waitFor();

    await page.getByRole('link', { name: 'Create Gig' }).first().click();
    await page.waitForURL('**/create-gig');
    await page.getByLabel('Title').fill(quartet);
    await page.getByLabel('Description').fill('Four players for a ceremony and the first hour of the reception.');
    await page.getByLabel('Category').selectOption('Music and Sound');
    await page.getByLabel('Location type').selectOption('in-person');
    await page.getByRole('button', { name: 'Post gig' }).click();
    for (const text of [
      'Budget is required for non-passion-driven projects',
      'Project date is required for in-person gigs',
      'Country is required for in-person gigs',
      'City is required for in-person gigs',
    ]) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    await page.getByLabel('Project date').fill(isoDay(20));
    await page.getByLabel('Country').selectOption('GB');
    await page.getByLabel('City').fill('Bristol');
    expect(await page.getByLabel(/^Budget/).count()).toBe(1);
    await page.getByText('Budget (GBP)').waitFor();
    await page.getByLabel('Passion driven (no budget)').check();
    expect(await page.getByLabel(/^Budget/).isDisabled()).toBe(true);
    await page.getByLabel('Skills (comma separated)').fill('Violin, , Viola ,Cello');
    await page.getByRole('button', { name: 'Post gig' }).click();
    await page.waitForURL('**/landing');
    const quartetCard = card(page, quartet);
    await quartetCard.getByText('Passion Driven').waitFor();
    await quartetCard.getByText('+1 more').waitFor();
    await waitUpToDate(page);
  });

  it('B sees both gigs live, filters and searches them, and the empty states read as docs/product.md says', async () => {
    const [ada, ben] = await Promise.all([buyer(), freelancer()]);
    const [bakery, quartet, logo] = [
      titled('Bakery window sign'),
      titled('Wedding string quartet'),
      titled('Ben needs a logo'),
    ];
    await bakeryGig(ada, bakery);
    await quartetGig(ada, quartet);
    // A gig of B's own.
    const own = await write(ben.http, 'gigs', gigDoc({ title: logo, category: 'Writing', skills: 'Copy' }));
    expect(own.refusal).toBeUndefined();
    const { page } = ben;
    await page.goto(server.url + '/landing');
    await card(page, bakery).waitFor({ timeout: 20_000 });
    await card(page, quartet).waitFor();

    await page.getByRole('checkbox', { name: 'Music and Sound' }).check();
    await card(page, bakery).waitFor({ state: 'detached' });
    await card(page, quartet).waitFor();
    expect(await page.getByRole('group', { name: 'Countries' }).count()).toBe(0);
    await page.getByRole('checkbox', { name: 'In person' }).check();
    const countries = page.getByRole('group', { name: 'Countries' });
    await countries.waitFor();
    expect(await countries.getByRole('checkbox').count()).toBe(1);
    await countries.getByRole('checkbox', { name: 'United Kingdom' }).check();
    await card(page, quartet).waitFor();
    await page.getByRole('checkbox', { name: 'Remote' }).check();
    await page.getByRole('checkbox', { name: 'Visual Art' }).check();
    await card(page, quartet).waitFor();
    await page.getByRole('checkbox', { name: 'In person' }).uncheck();
    await card(page, bakery).waitFor();
    await card(page, quartet).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Reset Filters' }).click();
    await card(page, quartet).waitFor();

    await page.getByLabel('Search gigs').fill(`${bakery} lettering`);
    await card(page, bakery).waitFor();
    await card(page, quartet).waitFor({ state: 'detached' });
    await page.getByLabel('Search gigs').fill('harpsichord');
    await page.getByText('No gigs found matching your filters. More to come soon!').waitFor();
    await page.getByRole('button', { name: 'Reset Filters' }).click();
    await card(page, logo).waitFor();

    await page.getByRole('tab', { name: 'Applied To' }).click();
    await page.getByText("You haven't applied to any gigs yet.").waitFor();
    await page.getByRole('tab', { name: 'All Gigs' }).click();
  });

  it("B applies with the docs/product.md messages, cannot apply twice, and sees 'This is your gig posting' on their own gig", async () => {
    const [ada, ben] = await Promise.all([buyer(), freelancer()]);
    const [bakery, quartet, logo] = [
      titled('Bakery window sign'),
      titled('Wedding string quartet'),
      titled('Ben needs a logo'),
    ];
    await bakeryGig(ada, bakery);
    await quartetGig(ada, quartet);
    expect(
      (await write(ben.http, 'gigs', gigDoc({ title: logo, category: 'Writing', skills: 'Copy' }))).refusal,
    ).toBeUndefined();
    const { page } = ben;
    await page.goto(server.url + '/landing');
    await card(page, bakery).waitFor({ timeout: 20_000 });
    let dialog = await openGig(page, bakery);
    await dialog.getByText('Lettering, Painting, Signs').waitFor();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Please enter your budget offer').waitFor();
    await dialog.getByLabel(/Your rate/).fill('420');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Application submitted successfully!', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    dialog = await openGig(page, bakery);
    await dialog.getByText('You have already applied to this gig', { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Apply' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    dialog = await openGig(page, logo);
    await dialog.getByText('This is your gig posting').waitFor();
    expect(await dialog.getByRole('button', { name: 'Apply' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Applied To' }).click();
    await card(page, bakery).waitFor();
    expect(await card(page, quartet).count()).toBe(0);
    await page.getByRole('tab', { name: 'All Gigs' }).click();
    await waitUpToDate(page);
  });

  it("A sees the application live with its badge, opens B's profile, and the server refuses a second application", async () => {
    const [ada, ben] = await Promise.all([buyer(), freelancer()]);
    const bakery = titled('Bakery window sign');
    const gig = await bakeryGig(ada, bakery);
    const { page } = ada;
    await page.goto(server.url + '/landing');
    await waitUpToDate(page);
    // B applies while A's app is open: the badge arrives live.
    await applyThroughApi(ben, gig, 42_000);
    await page.getByTestId('unread-badge').waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Applications' }).click();
    const application = page.getByRole('listitem').filter({ hasText: 'Ben Freelancer' });
    await application.getByText('New', { exact: true }).waitFor();
    await application.getByText('C$420.00').waitFor();
    await application.getByRole('button', { name: 'View Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'Ben Freelancer' });
    await profile.getByText(`@${String(ben.user.username)}`).waitFor();
    await profile.getByRole('link', { name: 'https://example.com/portfolio' }).waitFor();
    await profile.getByRole('button', { name: 'Close' }).click();

    // A second application by the same user never reaches the server's store.
    await write(ben.http, 'applications', applicationDoc(String(gig.id), ben.user.id, { budget: 1 }));
    const received = (await pullAll(ada.http, 'applications')).documents.filter((a) => a.applicantId === ben.user.id);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ budget: 42_000, status: 'PENDING' });
  });

  it('A selects B and C, is told to set final budgets, sends offers; B accepts, C declines; both sides update live', async () => {
    const [ada, ben, cleo] = await Promise.all([buyer(), freelancer(), otherFreelancer()]);
    const [bakery, quartet] = [titled('Bakery window sign'), titled('Wedding string quartet')];
    const gigDocument = await bakeryGig(ada, bakery);
    await quartetGig(ada, quartet);
    // B and C apply through the API (applying in the browser is the tests above).
    await applyThroughApi(ben, gigDocument, 42_000);
    await applyThroughApi(cleo, gigDocument, 39_000);
    await ben.page.goto(server.url + '/landing');
    await waitUpToDate(ben.page);

    const { page } = ada;
    await page.goto(server.url + '/basket?view=buyer');
    const gig = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: bakery }) });
    await gig.getByRole('button', { name: 'View applicants' }).click();
    const applicants = gig.getByRole('list', { name: `Applicants for ${bakery}` });
    await applicants.getByText('Cleo Freelancer', { exact: true }).waitFor({ timeout: 20_000 });
    await applicants.getByRole('checkbox', { name: /Ben Freelancer/ }).check();
    await applicants.getByRole('checkbox', { name: /Cleo Freelancer/ }).check();
    await gig.getByRole('button', { name: 'Send offers' }).click();
    await gig.getByText('Please set final budgets for all selected applicants').waitFor();
    await applicants.getByLabel('Final budget for Ben Freelancer').fill('450');
    await applicants.getByLabel('Final budget for Cleo Freelancer').fill('400.5');
    await gig.getByRole('button', { name: 'Send offers' }).click();
    await gig.getByText('Offers sent successfully! Waiting for applicants to accept.').waitFor();
    await expect.poll(() => applicants.getByText('Waiting for freelancer to accept').count()).toBe(2);
    expect(await applicants.getByRole('checkbox', { name: /Ben Freelancer/ }).isDisabled()).toBe(true);

    // B: the offer notification arrives live and opens the seller view.
    await ben.page.getByTestId('unread-badge').waitFor({ timeout: 20_000 });
    await ben.page.getByRole('link', { name: 'Notifications' }).click();
    const offer = ben.page
      .getByRole('button', { name: new RegExp(bakery) })
      .filter({ hasText: /offer/i })
      .first();
    await offer.click();
    await ben.page.waitForURL('**/basket?view=seller');
    const benOffer = ben.page.getByRole('listitem').filter({ hasText: bakery });
    await benOffer.getByText('C$450.00').waitFor({ timeout: 20_000 });
    await benOffer.getByRole('button', { name: 'Start Working' }).click();
    await benOffer
      .getByText("Offer accepted. Waiting for the buyer's payment before work starts.")
      .waitFor({ timeout: 20_000 });
    expect(await benOffer.getByRole('button', { name: /complete/i }).count()).toBe(0);

    // C declines in their own browser.
    await cleo.page.goto(server.url + '/basket?view=seller');
    const cleoOffer = cleo.page.getByRole('listitem').filter({ hasText: bakery });
    await cleoOffer.getByRole('button', { name: 'Decline' }).click({ timeout: 20_000 });
    // A declined offer leaves Pending for its own tab.
    await cleoOffer.waitFor({ state: 'detached', timeout: 20_000 });
    await cleo.page.getByRole('tab', { name: 'Declined' }).click();
    await cleoOffer.getByText('Declined', { exact: true }).waitFor({ timeout: 20_000 });

    // A sees both outcomes live, and the gig moves under In Progress.
    await applicants.getByText('Waiting for payment').waitFor({ timeout: 20_000 });
    await applicants.getByText('Declined').waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'In Progress' }).click();
    await page.getByRole('heading', { name: bakery }).waitFor();
    expect(await page.getByRole('heading', { name: quartet }).count()).toBe(0);
    await page.getByRole('tab', { name: 'All Gigs' }).click();
  });

  it("A edits a gig's title and B sees the new one; A deletes a gig only after confirming, and it leaves B's board", async () => {
    const [ada, ben] = await Promise.all([buyer(), freelancer()]);
    const [bakery, quartet, trio] = [
      titled('Bakery window sign'),
      titled('Wedding string quartet'),
      titled('Wedding string trio'),
    ];
    await quartetGig(ada, quartet);
    // Accepted work on the bakery gig.
    const gigDocument = await bakeryGig(ada, bakery);
    await offerAndAccept(ada.http, ben.http, await applyThroughApi(ben, gigDocument, 42_000), 45_000);
    await ben.page.goto(server.url + '/landing');
    await card(ben.page, quartet).waitFor({ timeout: 20_000 });
    const { page } = ada;
    await page.goto(server.url + '/landing');
    let dialog = await openGig(page, quartet);
    await dialog.getByText('This is your gig posting').waitFor();
    await dialog.getByRole('button', { name: 'Edit gig' }).click();
    await dialog.getByLabel('Title').fill(trio);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('dialog', { name: trio }).waitFor();
    await page.keyboard.press('Escape');
    await card(ben.page, trio).waitFor({ timeout: 20_000 });
    expect(await card(ben.page, quartet).count()).toBe(0);

    // The bakery gig has accepted work: it can no longer be edited, nor deleted while that work is under way.
    dialog = await openGig(page, bakery);
    await dialog.getByText('Work on this gig is under way. Complete the work before deleting the gig.').waitFor(); // the owner's actions are drawn
    expect(await dialog.getByRole('button', { name: 'Edit gig' }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Delete gig' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    dialog = await openGig(page, trio);
    await dialog.getByRole('button', { name: 'Delete gig' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this gig?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Delete gig' }).click();
    await page.getByRole('dialog', { name: 'Delete this gig?' }).getByRole('button', { name: 'Delete gig' }).click();
    await card(page, trio).waitFor({ state: 'detached' });
    await card(ben.page, trio).waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('B applies while offline; the application shows as waiting and lands on reconnect', async () => {
    const [ada, ben] = await Promise.all([buyer(), freelancer()]);
    const zine = titled('Zine cover, offline apply');
    const posted = await write(ada.http, 'gigs', gigDoc({ title: zine }));
    expect(posted.refusal).toBeUndefined();
    const { page, context } = ben;
    await page.goto(server.url + '/landing');
    await card(page, zine).waitFor({ timeout: 20_000 });
    await waitUpToDate(page);
    await waitForServiceWorker(page);
    await goOffline(context);
    const dialog = await openGig(page, zine);
    await dialog.getByLabel(/Your rate/).fill('99.99');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText(/waiting to sync/).waitFor();
    await page.keyboard.press('Escape');
    await page
      .getByTestId('sync-status')
      .getByText(/1 change waiting to sync/)
      .waitFor();
    await goOnline(context);
    await waitUpToDate(page, 30_000);

    await ada.page.goto(server.url + '/applications');
    await ada.page.getByRole('listitem').filter({ hasText: zine }).getByText('C$99.99').waitFor({ timeout: 20_000 });
  });

  it('profile autosave: each field saves on its own and survives a reload', async () => {
    const cleo = await otherFreelancer();
    const { page } = cleo;
    await page.goto(server.url + '/profile');
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('Bio').fill('Lettering artist from Montréal.');
    await page.getByText('Profile updated successfully!').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByLabel('Username').focus();
    await page.getByText('Name is required').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Cleo Letters');
    await page.getByLabel('Name', { exact: true }).blur();
    await expect.poll(async () => page.locator('[data-field-state="name"]').textContent()).toMatch(/Saved/);
    await page.getByLabel('Creative niche').selectOption('writing');
    expect(await page.getByLabel('Focus area').inputValue()).toBe('');
    await page.getByLabel('Focus area').selectOption({ index: 1 });
    await expect.poll(async () => page.locator('[data-field-state="subcategory"]').textContent()).toMatch(/Saved/);
    await waitUpToDate(page);
    await page.reload();
    await expect.poll(() => page.getByLabel('Bio').inputValue()).toBe('Lettering artist from Montréal.');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Cleo Letters');
    expect(await page.getByLabel('Creative niche').inputValue()).toBe('writing');
    // And the server has it.
    const { documents } = await pullAll(cleo.http, 'users');
    const own = documents.find((d) => d.id === cleo.user.id)!;
    expect(own).toMatchObject({
      name: 'Cleo Letters',
      bio: 'Lettering artist from Montréal.',
      creativeNiche: 'writing',
    });
  });

  it('a notification click marks it read and navigates; Messages Only filters', async () => {
    const [ada, cleo] = await Promise.all([buyer(), otherFreelancer()]);
    await applyThroughApi(cleo, await bakeryGig(ada, titled('Bakery window sign')), 39_000);
    const { page } = ada;
    await page.goto(server.url + '/notifications');
    const item = page.getByRole('button', { name: /New application from “Cleo Freelancer”/ });
    await item.waitFor({ timeout: 20_000 });
    await item.getByText('Unread:').waitFor();
    await page.getByRole('tab', { name: 'Messages Only' }).click();
    await page.getByText('No message notifications yet.').waitFor();
    await page.getByRole('tab', { name: 'All' }).click();
    await page.getByRole('button', { name: /New application from “Cleo Freelancer”/ }).click();
    await page.waitForURL('**/applications');
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('button', { name: /New application from “Cleo Freelancer”/ }).waitFor();
    expect(
      await page
        .getByRole('button', { name: /New application from “Cleo Freelancer”/ })
        .getByText('Unread:')
        .count(),
    ).toBe(0);
  });
});
