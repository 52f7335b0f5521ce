import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInActor, waitUpToDate, type Actor } from '../support/browser';
import { applicationDoc, gigDoc, pullAll, write } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

/** The money path in Chromium with the simulated provider (the default when no Stripe key is set). */

let server: TestServer;
let browser: Browser;
let ada: Actor; // buyer
let ben: Actor; // freelancer
let applicationId: string;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  [ada, ben] = await Promise.all([
    signedInActor(browser, server.url, { name: 'Ada Buyer' }),
    signedInActor(browser, server.url, { name: 'Ben Maker' }),
  ]);
  const gig = gigDoc({ title: 'Poster series' });
  expect((await write(ada.http, 'gigs', gig)).refusal).toBeUndefined();
  const application = applicationDoc(String(gig.id), ben.user.id, { budget: 9_000 });
  expect((await write(ben.http, 'applications', application)).refusal).toBeUndefined();
  applicationId = String(application.id);
  const [stored] = (await pullAll(ada.http, 'applications')).documents;
  const offer = await write(
    ada.http,
    'applications',
    { ...stored, status: 'PENDING_ACCEPTANCE', finalBudget: 10_000 },
    stored,
  );
  expect(offer.refusal).toBeUndefined();
});
afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

const workOn = (page: Page) => page.getByRole('list', { name: 'Work on Poster series' });
const benCard = (page: Page) => page.getByRole('listitem').filter({ hasText: 'Poster series' });

describe('offer → accept → pay → in progress → complete → payout, with simulated payments', () => {
  it('B accepts; A sees base, 3% fee and total to two decimals, pays on the simulated checkout, and the success page confirms', async () => {
    await ben.page.goto(server.url + '/basket?view=seller');
    await benCard(ben.page).getByRole('button', { name: 'Start Working' }).click({ timeout: 20_000 });
    await benCard(ben.page)
      .getByText("Offer accepted. Waiting for the buyer's payment before work starts.")
      .waitFor({ timeout: 20_000 });

    await ada.page.goto(server.url + '/basket');
    const work = workOn(ada.page);
    await work.getByText('C$100.00', { exact: true }).waitFor({ timeout: 20_000 });
    await work.getByText('C$3.00', { exact: true }).waitFor();
    await work.getByText('C$103.00', { exact: true }).waitFor();
    await work.getByRole('button', { name: 'Pay C$103.00' }).click();

    await ada.page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await ada.page.getByText('Payments are simulated — no real money moves.').waitFor();
    await ada.page.getByRole('button', { name: /^Pay / }).click();
    await ada.page.waitForURL('**/payment/success?**');
    await ada.page.getByText('Poster series').waitFor();
    await ada.page.getByText('Payment confirmed!', { exact: false }).waitFor({ timeout: 20_000 });
    // The success page shows the base, the 3% fee and the total in the app's one money format.
    await ada.page.getByText('C$100.00', { exact: true }).waitFor();
    await ada.page.getByText('C$3.00', { exact: true }).waitFor();
    await ada.page.getByText('C$103.00', { exact: true }).waitFor();

    // A reload (or a payment the webhook confirmed first) shows the confirmation, not an error.
    await ada.page.reload();
    await ada.page.getByText('Payment confirmed!', { exact: false }).waitFor({ timeout: 20_000 });
    expect(await ada.page.getByRole('alert').count()).toBe(0);
    await ada.page.waitForURL('**/basket?view=buyer', { timeout: 15_000 });
  });

  it('a success page without its query, or for a session that is not this application’s, shows the docs/product.md error and a way back', async () => {
    await ada.page.goto(server.url + '/payment/success');
    await ada.page.getByText('Missing required payment information').waitFor();
    await ada.page.getByRole('link', { name: 'Return to dashboard' }).waitFor();
    await ada.page.goto(
      server.url +
        `/payment/success?gigId=g&applicationId=${encodeURIComponent(applicationId)}&amount=1&title=x&currency=CAD&session_id=cs_forged`,
    );
    await ada.page.getByRole('alert').waitFor({ timeout: 20_000 });
    expect(await ada.page.getByRole('alert').textContent()).toMatch(
      /^(Failed to update payment status\. Please contact support\.|Invalid application status)$/,
    );
  });

  it('both sides see the work in progress, with the receipt and the payout; A marks it complete after confirming', async () => {
    await benCard(ben.page).getByRole('button', { name: 'Start Working' }).waitFor({ state: 'detached' });
    await ben.page.getByRole('tab', { name: 'In Progress' }).click();
    await benCard(ben.page).getByText('C$90.00', { exact: true }).waitFor({ timeout: 20_000 });
    await benCard(ben.page).getByText('C$10.00', { exact: true }).waitFor();
    expect(
      await benCard(ben.page)
        .getByRole('button', { name: /complete/i })
        .count(),
    ).toBe(0);

    await ada.page.goto(server.url + '/basket');
    const work = workOn(ada.page);
    await work.getByText('Receipt', { exact: false }).waitFor({ timeout: 20_000 });
    await work.getByRole('button', { name: 'Mark as Complete' }).click();
    const confirm = ada.page.getByRole('dialog', { name: 'Mark this work as complete?' });
    await confirm.getByText('C$90.00', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await work.getByRole('button', { name: 'Mark as Complete' }).click();
    await confirm.getByRole('button', { name: 'Mark as Complete' }).click();
    await work.getByText('Completed', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await work.getByRole('button', { name: 'Mark as Complete' }).count()).toBe(0);
    await ada.page.getByRole('tab', { name: 'Completed' }).click();
    await ada.page.getByRole('heading', { name: 'Poster series' }).waitFor();

    await ben.page.getByRole('tab', { name: 'Completed' }).click();
    await benCard(ben.page).getByText('Held until you set up payouts in Settings').waitFor({ timeout: 20_000 });
  });

  it('B sets up payouts from /settings; the held payout is released and shown as paid out', async () => {
    await ben.page.goto(server.url + '/settings');
    await ben.page.getByText('Payments are simulated on this server: no real money moves.').waitFor();
    await ben.page.getByTestId('payout-state').getByText('No payout account yet.').waitFor({ timeout: 20_000 });
    await ben.page.getByRole('button', { name: 'Set up payouts' }).click();
    await ben.page.getByRole('heading', { name: 'Set up payouts' }).waitFor();
    await ben.page.getByRole('button', { name: 'Complete onboarding' }).click();
    await ben.page.waitForURL('**/settings');
    await ben.page
      .getByTestId('payout-state')
      .getByText(/connected/)
      .waitFor({ timeout: 20_000 });
    await waitUpToDate(ben.page);
    await ben.page.goto(server.url + '/basket?view=seller');
    await ben.page.getByRole('tab', { name: 'Completed' }).click();
    await benCard(ben.page).getByText('Paid out to your payout account').waitFor({ timeout: 20_000 });
  });
});
