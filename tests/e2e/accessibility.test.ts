import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInContext } from '../support/browser';
import {
  applicationDoc,
  applyTo,
  gigDoc,
  offerAndAccept,
  signUp,
  signUpWithProfile,
  write,
  type SignedUpUser,
} from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { operatorPerson } from '../support/operators';
import { openDispute, paidWork, submitWork, type Work } from '../support/work';

/**
 * axe-core on every screen, signed out and signed in, on a desktop and a 375 px phone viewport:
 * no serious or critical violation. Plus the keyboard: modals keep and return focus, and the
 * main flows work without a mouse.
 */

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
] as const;
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

let server: TestServer;
let browser: Browser;
let buyer: { http: TestClient; user: SignedUpUser };
let applicant: { http: TestClient; user: SignedUpUser };
let newcomer: { http: TestClient; user: SignedUpUser };
let gigId: string;
/** Issue 15: paid work in progress, delivered work, a dispute, and an operator to resolve it. */
let inProgress: Work;
let delivered: Work;
let operator: { http: TestClient; user: SignedUpUser };
const OPERATOR_EMAIL = 'axe-operator@example.com';
/** Completed work of the buyer with a freelancer who has not reviewed it yet (issue 16). */
let reviewer: { http: TestClient; user: SignedUpUser };
let reviewed: { http: TestClient; user: SignedUpUser };
let reviewedWorkId: string;
/** Totals for the README: screens × viewports checked and violations found. */
const totals = { pages: 0, violations: 0 };

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_EMAILS: OPERATOR_EMAIL });
  browser = await launchBrowser();
  const make = async (name: string, profile = true) => {
    const http = new TestClient(server.url);
    const user = profile ? await signUpWithProfile(http, { name }) : await signUp(http, { name });
    return { http, user };
  };
  [buyer, applicant, newcomer] = await Promise.all([
    make('Ada Buyer'),
    make('Ben Applicant'),
    make('Nia Newcomer', false),
  ]);
  const gig = gigDoc({ title: 'Accessible poster' });
  gigId = String(gig.id);
  expect((await write(buyer.http, 'gigs', gig)).refusal).toBeUndefined();
  expect(
    (await write(applicant.http, 'applications', applicationDoc(gigId, applicant.user.id))).refusal,
  ).toBeUndefined();
  inProgress = await paidWork(server, { name: 'simulated' });
  delivered = await paidWork(server, { name: 'simulated' });
  await submitWork(server, delivered, 'Final files', 'https://files.example/final.zip');
  const disputed = await paidWork(server, { name: 'simulated' });
  await submitWork(server, disputed, 'Draft');
  await openDispute(server, disputed.buyer.http, disputed.applicationId, 'The files are missing');
  operator = await operatorPerson(server, { name: 'Opal Operator', email: OPERATOR_EMAIL });
  // A buyer of their own, so the buyer's screens above keep their one application.
  [reviewer, reviewed] = await Promise.all([make('Rae Reviewer'), make('Rex Buyer')]);
  const done = (await write(reviewed.http, 'gigs', gigDoc({ title: 'Reviewed zine' }))).master!;
  const work = await offerAndAccept(reviewed.http, reviewer.http, await applyTo(reviewer, String(done.id)), 0);
  reviewedWorkId = String(work.id);
  const completed = await reviewed.http.post('/api/gigs/complete-gig', {
    gigId: done.id,
    applicationId: work.id,
    userId: reviewed.user.id,
    userType: 'buyer',
  });
  expect(completed.status).toBe(200);
});
afterAll(async () => {
  console.log(`axe: ${totals.pages} screen checks, ${totals.violations} serious or critical violations`);
  await browser?.close();
  await server?.cleanup();
});

async function audit(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page: page as never }).withTags(TAGS).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  totals.pages += 1;
  totals.violations += bad.length;
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
  expect(summary, label).toEqual([]);
}

type Screen = { path: string; ready: (page: Page) => Promise<unknown>; then?: (page: Page) => Promise<unknown> };

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { name }).first().waitFor({ timeout: 20_000 });

const PUBLIC: Screen[] = [
  { path: '/', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/waitlist-signup', ready: (p) => p.getByRole('button', { name: /join/i }).first().waitFor() },
  { path: '/teaser', ready: heading('Gigs waiting for you') },
  { path: '/manifesto', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/version1', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/signup', ready: (p) => p.getByRole('button', { name: 'Sign up' }).waitFor() },
  { path: '/login', ready: (p) => p.getByRole('button', { name: /log in/i }).waitFor() },
];

for (const viewport of VIEWPORTS) {
  describe(`axe on the ${viewport.name} viewport (${viewport.width} px)`, () => {
    it('the public pages, signed out', async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      for (const screen of PUBLIC) {
        await page.goto(server.url + screen.path);
        await screen.ready(page);
        await audit(page, `${screen.path} signed out`);
      }
      // The forms with their errors showing.
      await page.goto(server.url + '/signup');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('Name is required').waitFor();
      await audit(page, '/signup with errors');
      await context.close();
    });

    it("the buyer's screens, with modals open", async () => {
      const { context, page } = await signedIn(buyer.http, viewport);
      const screens: [string, (p: Page) => Promise<unknown>][] = [
        ['/landing', heading('Accessible poster')],
        ['/create-gig', heading('Create a gig')],
        ['/applications', (p) => p.getByRole('button', { name: 'View Profile' }).waitFor({ timeout: 20_000 })],
        ['/notifications', (p) => p.getByRole('list', { name: 'Notifications' }).waitFor({ timeout: 20_000 })],
        ['/basket', heading('Accessible poster')],
        [
          '/settings',
          (p) => p.getByTestId('payout-state').or(p.getByRole('alert')).first().waitFor({ timeout: 20_000 }),
        ],
        ['/profile', (p) => p.getByLabel('Bio').waitFor()],
        [`/gig/${gigId}`, (p) => p.getByText('This is your gig posting').waitFor({ timeout: 20_000 })],
        [
          `/exchange/${applicant.user.id}`,
          (p) => p.getByLabel('Message', { exact: true }).waitFor({ timeout: 20_000 }),
        ],
        ['/payment/success', (p) => p.getByText('Missing required payment information').waitFor()],
        ['/no-such-page', heading('Page not found')],
      ];
      for (const [path, ready] of screens) {
        await page.goto(server.url + path);
        await ready(page);
        await audit(page, `${path} as the buyer`);
      }
      await page.goto(server.url + '/landing?openModal=true');
      await page.getByRole('dialog', { name: 'Create a gig' }).getByRole('button', { name: 'Post gig' }).click();
      await page.getByRole('dialog').getByText('Title is required').waitFor();
      await audit(page, 'create-gig modal with errors');
      await page.goto(server.url + '/applications');
      await page.getByRole('button', { name: 'View Profile' }).click({ timeout: 20_000 });
      await page.getByRole('dialog', { name: 'Ben Applicant' }).waitFor();
      await audit(page, 'applicant modal');
      await page.goto(server.url + '/basket');
      await page.getByRole('button', { name: 'View applicants' }).click({ timeout: 20_000 });
      await page.getByRole('checkbox', { name: /Ben Applicant/ }).check();
      await audit(page, 'basket with an applicant selected');
      // The sync panel (issue 17) and its reset confirmation.
      await page.getByTestId('sync-status').getByRole('button').click();
      const panel = page.getByRole('dialog', { name: 'Sync' });
      await panel.getByRole('table').waitFor();
      await panel.getByTestId('storage-estimate').getByText('Storage used').waitFor();
      await audit(page, 'sync panel');
      await panel.getByRole('button', { name: 'Reset this device' }).click();
      const confirm = page.getByRole('dialog', { name: 'Reset this device?' });
      await confirm.waitFor();
      await audit(page, 'reset confirmation');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await context.close();
    });

    it('the states issue 21 added: /terms, the signed-in home, the Converse notice, the board with its filters open', async () => {
      const out = await browser.newContext({ viewport });
      const visitor = await out.newPage();
      await visitor.goto(server.url + '/terms');
      await heading('Terms of use')(visitor);
      await audit(visitor, '/terms signed out');
      await out.close();

      const { context, page } = await signedIn(applicant.http, viewport);
      await page.goto(server.url + '/');
      await page.getByRole('link', { name: 'Open the app' }).waitFor({ timeout: 20_000 });
      await audit(page, '/ signed in');
      // A chat nobody's application links: the applications page says why it opened instead.
      await page.goto(server.url + `/exchange/${newcomer.user.id}`);
      await page.getByText('A conversation starts from an application', { exact: false }).waitFor({ timeout: 20_000 });
      await audit(page, '/applications with the no-conversation notice');
      await page.goto(server.url + '/landing');
      await heading('Accessible poster')(page);
      if (viewport.name === 'phone') await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByRole('group', { name: 'Niches' }).waitFor();
      await audit(page, 'board with its filters showing');
      await context.close();
    });

    it('[issue 15] the work dialogs on both sides, delivered work, and the operators’ page', async () => {
      const seller = await signedIn(inProgress.seller.http, viewport);
      await seller.page.goto(server.url + '/basket?view=seller');
      await seller.page.getByRole('tab', { name: 'In Progress' }).click();
      await seller.page.getByRole('button', { name: 'Submit work' }).click({ timeout: 20_000 });
      const submit = seller.page.getByRole('dialog', { name: 'Submit your work' });
      await submit.getByRole('button', { name: 'Submit work' }).click();
      await submit.getByText('Please describe the work you are submitting').waitFor();
      await audit(seller.page, 'submit work dialog with its error');
      await seller.context.close();

      const buyerOfDelivered = await signedIn(delivered.buyer.http, viewport);
      await buyerOfDelivered.page.goto(server.url + '/basket');
      await buyerOfDelivered.page.getByText(/^Releases automatically on/).waitFor({ timeout: 20_000 });
      await audit(buyerOfDelivered.page, 'buyer basket with delivered work');
      for (const [button, dialog] of [
        ['Request changes', 'Request changes'],
        ['Open a dispute', 'Open a dispute'],
        ['Approve and pay', 'Approve this work and pay?'],
      ] as const) {
        await buyerOfDelivered.page.getByRole('button', { name: button }).click();
        await buyerOfDelivered.page.getByRole('dialog', { name: dialog }).waitFor();
        await audit(buyerOfDelivered.page, `${dialog} dialog`);
        await buyerOfDelivered.page.keyboard.press('Escape');
        await buyerOfDelivered.page.getByRole('dialog').waitFor({ state: 'detached' });
      }
      await buyerOfDelivered.context.close();

      const op = await signedIn(operator.http, viewport);
      await op.page.goto(server.url + '/operator/disputes');
      await op.page.getByText('The files are missing').waitFor({ timeout: 20_000 });
      await op.page.getByLabel('Split', { exact: true }).check();
      await audit(op.page, '/operator/disputes with a split being chosen');
      await op.context.close();
    });

    it('the review form with its errors, and a public profile (issue 16)', async () => {
      const { context, page } = await signedIn(reviewer.http, viewport);
      await page.goto(`${server.url}/basket?review=${encodeURIComponent(reviewedWorkId)}`);
      const panel = page.getByRole('region', { name: 'Review Rex Buyer' });
      await panel.getByRole('radio', { name: '3 stars' }).waitFor({ state: 'attached', timeout: 20_000 });
      await audit(page, 'review form');
      await panel.getByRole('button', { name: 'Post review' }).click();
      await panel.getByText('Please choose a rating from 1 to 5 stars').waitFor();
      await audit(page, 'review form with errors');
      await page.goto(`${server.url}/u/${encodeURIComponent(String(reviewed.user.username))}`);
      await page.getByRole('heading', { name: 'Reputation' }).waitFor({ timeout: 20_000 });
      await audit(page, 'public profile');
      await page.goto(`${server.url}/u/nobody-has-this-name`);
      await heading('Profile not found')(page);
      await audit(page, 'public profile not found');
      await context.close();
    });

    it("the applicant's and the newcomer's screens", async () => {
      const a = await signedIn(applicant.http, viewport);
      await a.page.goto(server.url + '/landing');
      await a.page.getByRole('button', { name: 'Accessible poster' }).click({ timeout: 20_000 });
      await a.page.getByRole('dialog', { name: 'Accessible poster' }).waitFor();
      await audit(a.page, 'gig modal as an applicant');
      await a.page.goto(server.url + '/basket?view=seller');
      await heading('Accessible poster')(a.page);
      await audit(a.page, 'seller basket');
      await a.context.close();

      const n = await signedIn(newcomer.http, viewport);
      await n.page.goto(server.url + '/setup-portfolio');
      await n.page.getByRole('button', { name: 'Complete setup' }).click({ timeout: 20_000 });
      await n.page.getByText('Username is required').waitFor();
      await audit(n.page, '/setup-portfolio with errors');
      await n.context.close();
    });
  });
}

const signedIn = (http: TestClient, viewport: { width: number; height: number }) =>
  signedInContext(browser, server.url, http, { viewport });

/** Opens the gig's modal from the board with the keyboard alone: focus on its card, then Enter. */
async function openGigWithKeyboard(page: Page) {
  await page.goto(server.url + '/landing');
  const open = page.getByRole('button', { name: 'Accessible poster' });
  await open.waitFor({ timeout: 20_000 });
  await open.focus();
  await page.keyboard.press('Enter');
  return { open, dialog: page.getByRole('dialog', { name: 'Accessible poster' }) };
}

describe('the keyboard alone', () => {
  it('opens a gig from the board, keeps focus in the modal, closes with Escape and returns focus to the card', async () => {
    const { context, page } = await signedIn(applicant.http, VIEWPORTS[0]);
    const { open, dialog } = await openGigWithKeyboard(page);
    await dialog.waitFor();
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('opens the sync panel from the sync status, turns "Work offline" on and off, and closes it with Escape', async () => {
    const { context, page } = await signedIn(applicant.http, VIEWPORTS[1]);
    await page.goto(server.url + '/landing');
    const opener = page.getByTestId('sync-status').getByRole('button');
    await opener.getByText('Online · up to date').waitFor({ timeout: 20_000 });
    await opener.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Sync' });
    const offline = panel.getByRole('switch', { name: 'Work offline' });
    for (let i = 0; i < 10 && !(await offline.evaluate((el) => el === document.activeElement)); i += 1)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await opener.getByText('Working offline').waitFor();
    await page.keyboard.press('Space');
    await opener.getByText('Online · up to date').waitFor({ timeout: 20_000 });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('applies to a gig with the keyboard only', async () => {
    const http = new TestClient(server.url);
    await signUpWithProfile(http, { name: 'Kim Keys' });
    const { context, page } = await signedIn(http, VIEWPORTS[1]);
    const { dialog } = await openGigWithKeyboard(page);
    const rate = dialog.getByLabel(/Your rate/);
    // Tab until the rate field has focus, as a keyboard user would.
    for (let i = 0; i < 20 && !(await rate.evaluate((el) => el === document.activeElement)); i += 1)
      await page.keyboard.press('Tab');
    expect(await rate.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('250');
    await page.keyboard.press('Enter');
    await dialog.getByText('Application submitted successfully!', { exact: false }).waitFor();
    await context.close();
  });
});
