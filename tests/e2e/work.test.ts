import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../shared/constants';
import { goOffline, goOnline, launchBrowser, signedInContext, waitUpToDate, type Actor } from '../support/browser';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { operatorPerson } from '../support/operators';
import { waitFor } from '../support/wait';
import {
  askToCancel,
  onboard,
  openDispute,
  paidWork,
  refuseCancellation,
  statusOf,
  submitWork,
  testClock,
  type Mode,
  type Work,
} from '../support/work';

/**
 * Issue 15 in Chromium with the simulated provider: the freelancer submits work, the buyer
 * requests changes, the freelancer submits again, the buyer approves and pays; a dispute opened by
 * the buyer is resolved by an operator on /operator/disputes; a change request made offline that
 * arrives after the automatic release is kept as a sync problem with its note. The server's clock
 * is the test's.
 */

const OPERATOR_EMAIL = 'e2e-operator@example.com';
const SIMULATED: Mode = { name: 'simulated' };
const clock = testClock();
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_EMAILS: OPERATOR_EMAIL, TIMER_INTERVAL_MS: '3600000' }, undefined, {
    now: clock.now,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

/** The buyer's and the freelancer's browsers on paid work. */
async function scene(): Promise<{ w: Work; buyer: Page; seller: Page }> {
  const w = await paidWork(server, SIMULATED);
  await onboard(server, SIMULATED, w.seller);
  const [buyer, seller] = await Promise.all([
    signedInContext(browser, server.url, w.buyer.http),
    signedInContext(browser, server.url, w.seller.http),
  ]);
  return { w, buyer: buyer.page, seller: seller.page };
}

const work = (page: Page) => page.getByRole('list', { name: 'Work on Poster design' });
const sellerCard = (page: Page) =>
  page
    .getByRole('region', { name: 'Work I applied for' })
    .getByRole('listitem')
    .filter({ hasText: 'Poster design' })
    .first();

describe('submit work, request changes, submit again, approve and pay', () => {
  it('goes through both sides of the basket, with the release date shown to both', async () => {
    const { w, buyer, seller } = await scene();

    await seller.goto(server.url + '/basket?view=seller');
    await seller.getByRole('tab', { name: 'In Progress' }).click();
    await sellerCard(seller).getByRole('button', { name: 'Submit work' }).click({ timeout: 20_000 });
    const submit = seller.getByRole('dialog', { name: 'Submit your work' });
    // The note is required; the link must be http(s).
    await submit.getByLabel('Link to the work (optional)').fill('ftp://files.example/poster');
    await submit.getByRole('button', { name: 'Submit work' }).click();
    await submit.getByText('Please describe the work you are submitting').waitFor();
    await submit.getByText('Please enter a valid URL').waitFor();
    await submit.getByLabel(/Note for the buyer/).fill('First cut of the poster');
    await submit.getByLabel('Link to the work (optional)').fill('https://files.example/poster-v1.pdf');
    await submit.getByRole('button', { name: 'Submit work' }).click();
    await submit.waitFor({ state: 'detached' });
    await sellerCard(seller).getByText('Work delivered', { exact: true }).waitFor({ timeout: 20_000 });
    await sellerCard(seller)
      .getByText(/^Releases automatically on \d+ \w+/)
      .waitFor({ timeout: 20_000 });

    await buyer.goto(server.url + '/basket');
    await work(buyer).getByText('First cut of the poster').waitFor({ timeout: 20_000 });
    await work(buyer).getByRole('link', { name: 'https://files.example/poster-v1.pdf' }).waitFor();
    await work(buyer)
      .getByText(/^Releases automatically on \d+ \w+/)
      .waitFor();
    await work(buyer).getByRole('button', { name: 'Request changes' }).click();
    const changes = buyer.getByRole('dialog', { name: 'Request changes' });
    await changes.getByRole('button', { name: 'Request changes' }).click();
    await changes.getByText('Please say what needs to change').waitFor();
    await changes.getByLabel(/What needs to change/).fill('Bigger title, warmer colours');
    await changes.getByRole('button', { name: 'Request changes' }).click();
    await changes.waitFor({ state: 'detached' });
    await work(buyer).getByText('In progress', { exact: true }).waitFor({ timeout: 20_000 });

    await sellerCard(seller).getByText('Bigger title, warmer colours').waitFor({ timeout: 20_000 });
    await sellerCard(seller).getByRole('button', { name: 'Submit work' }).click();
    const again = seller.getByRole('dialog', { name: 'Submit your work' });
    await again.getByLabel(/Note for the buyer/).fill('Second cut: bigger title, warmer');
    await again.getByRole('button', { name: 'Submit work' }).click();
    await again.waitFor({ state: 'detached' });

    await work(buyer).getByText('Second cut: bigger title, warmer').waitFor({ timeout: 20_000 });
    await work(buyer)
      .getByText(/^Submission 2 ·/)
      .waitFor();
    await work(buyer).getByRole('button', { name: 'Approve and pay' }).click();
    const approve = buyer.getByRole('dialog', { name: 'Approve this work and pay?' });
    await approve.getByText('C$405.00', { exact: false }).waitFor();
    await approve.getByRole('button', { name: 'Approve and pay' }).click();
    await work(buyer).getByText('Completed', { exact: true }).waitFor({ timeout: 20_000 });
    expect(statusOf(server, w.applicationId)).toBe('COMPLETED');

    await seller.getByRole('tab', { name: 'Completed' }).click();
    await sellerCard(seller).getByText('Paid out to your payout account').waitFor({ timeout: 20_000 });
    // Every move landed: nothing was kept as a change the server did not accept.
    for (const page of [buyer, seller])
      expect(await page.getByRole('region', { name: 'Changes the server did not accept' }).count()).toBe(0);
  });
});

describe('a dispute opened by the buyer, resolved by an operator', () => {
  it('the buyer disputes with a reason; the operator sees it with the facts, splits, and both see the outcome', async () => {
    const { w, buyer, seller } = await scene();
    await buyer.goto(server.url + '/basket');
    await work(buyer).getByRole('button', { name: 'Open a dispute' }).click({ timeout: 20_000 });
    const dialog = buyer.getByRole('dialog', { name: 'Open a dispute' });
    await dialog.getByLabel(/Reason/).fill('Nothing has been delivered after three weeks');
    await dialog.getByRole('button', { name: 'Open dispute' }).click();
    await dialog.waitFor({ state: 'detached' });
    await work(buyer).getByText('In dispute', { exact: true }).waitFor({ timeout: 20_000 });
    await waitUpToDate(buyer);

    // Nobody else reaches the operator page.
    await seller.goto(server.url + '/operator/disputes');
    await seller.getByRole('heading', { name: 'Page not found' }).waitFor({ timeout: 20_000 });

    const made = await operatorPerson(server, { name: 'Opal Operator', email: OPERATOR_EMAIL });
    const operator: Actor = { ...made, ...(await signedInContext(browser, server.url, made.http)) };
    await operator.page.goto(server.url + '/landing');
    await operator.page.getByRole('link', { name: 'Disputes' }).click({ timeout: 20_000 });
    const card = operator.page
      .getByRole('listitem')
      .filter({ hasText: 'Nothing has been delivered after three weeks' });
    await card.getByText(w.buyer.user.email).waitFor({ timeout: 20_000 });
    await card.getByText(w.seller.user.email).waitFor();
    await card
      .getByText(/C\$463\.50/)
      .first()
      .waitFor();
    await card.getByLabel('Split', { exact: true }).check();
    await card.getByLabel(/Freelancer’s part of the final budget/).fill('450');
    await card.getByRole('button', { name: 'Resolve dispute' }).click();
    await card.getByText('Enter the freelancer’s part as an amount between C$0.00 and C$450.00').waitFor();
    await card.getByLabel(/Freelancer’s part of the final budget/).fill('200');
    await card
      .getByText('The freelancer receives C$180.00; the buyer is refunded C$257.50', { exact: false })
      .waitFor();
    await card.getByRole('button', { name: 'Resolve dispute' }).click();
    const confirm = operator.page.getByRole('dialog', { name: 'Resolve this dispute?' });
    await confirm.getByRole('button', { name: 'Resolve dispute' }).click();
    await operator.page.getByText('The dispute on “Poster design” was resolved.').waitFor({ timeout: 20_000 });
    await operator.page.getByText('No open disputes.').waitFor();
    expect(statusOf(server, w.applicationId)).toBe('SPLIT');

    await work(buyer)
      .getByText('Split by an operator: C$180.00 to the freelancer, C$257.50 refunded to the buyer.')
      .waitFor({ timeout: 20_000 });
    await seller.goto(server.url + '/basket?view=seller');
    await seller.getByRole('tab', { name: 'Completed' }).click();
    await sellerCard(seller)
      .getByText('Split by an operator: C$180.00 to the freelancer, C$257.50 refunded to the buyer.')
      .waitFor({ timeout: 20_000 });
    await operator.context.close();
  });
});

describe('decision 031, revised: asking again, cancelling under dispute, a payout not answered yet', () => {
  it('after the freelancer refused, the buyer can ask to cancel again', async () => {
    const { w, buyer } = await scene();
    expect((await askToCancel(server, w, 'Our launch moved')).refusal).toBeUndefined();
    expect((await refuseCancellation(server, w)).refusal).toBeUndefined();
    await buyer.goto(server.url + '/basket');
    await work(buyer).getByText('Sam Seller refused to cancel.', { exact: false }).waitFor({ timeout: 20_000 });
    await work(buyer).getByRole('button', { name: 'Ask to cancel' }).click();
    const dialog = buyer.getByRole('dialog', { name: 'Ask to cancel this work?' });
    await dialog.getByRole('button', { name: 'Ask to cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await work(buyer).getByText('Cancellation requested', { exact: true }).waitFor({ timeout: 20_000 });
    await waitFor(
      'the second request on the server',
      () => statusOf(server, w.applicationId) === 'CANCELLATION_REQUESTED',
    );
  });

  it('the freelancer cancels and refunds work under dispute that was never delivered; both see the refund', async () => {
    const { w, buyer, seller } = await scene();
    expect((await openDispute(server, w.buyer.http, w.applicationId, 'Nothing arrived')).refusal).toBeUndefined();
    await seller.goto(server.url + '/basket?view=seller');
    await seller.getByRole('tab', { name: 'In Progress' }).click();
    await sellerCard(seller).getByRole('button', { name: 'Cancel and refund' }).click({ timeout: 20_000 });
    const confirm = seller.getByRole('dialog', { name: 'Cancel this work and refund the buyer?' });
    await confirm.getByText('The dispute is then closed.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel and refund' }).click();
    await waitFor('the refund', () => statusOf(server, w.applicationId) === 'REFUNDED', 20_000);
    await seller.getByRole('tab', { name: 'Cancelled' }).click();
    await sellerCard(seller).getByText('The buyer was refunded C$463.50 in full.').waitFor({ timeout: 20_000 });
    await buyer.goto(server.url + '/basket');
    await work(buyer).getByText('You were refunded C$463.50 in full.').waitFor({ timeout: 20_000 });
  });

  it('"Approve and pay" the provider has not answered yet shows the payout being settled, not a failure', async () => {
    const { w, buyer } = await scene();
    await submitWork(server, w, 'Final files');
    server.payments.simulated!.failNext('transfer', { status: 500 });
    await buyer.goto(server.url + '/basket');
    await work(buyer).getByRole('button', { name: 'Approve and pay' }).click({ timeout: 20_000 });
    await buyer
      .getByRole('dialog', { name: 'Approve this work and pay?' })
      .getByRole('button', { name: 'Approve and pay' })
      .click();
    await work(buyer).getByText('Payment being settled', { exact: true }).waitFor({ timeout: 20_000 });
    await work(buyer).getByText('The payout is under way with the payment provider…').waitFor();
    expect(await work(buyer).getByText('Payment transfer was not successful').count()).toBe(0);
    clock.advance(61_000);
    await server.timers.runDue();
    await work(buyer).getByText('Completed', { exact: true }).waitFor({ timeout: 20_000 });
  });
});

describe('offline moves are judged when they arrive', () => {
  it('a change request written offline, arriving after the automatic release, is a sync problem that keeps its note', async () => {
    const { w, buyer } = await scene();
    await submitWork(server, w, 'Final files');
    await buyer.goto(server.url + '/basket');
    await work(buyer).getByRole('button', { name: 'Request changes' }).waitFor({ timeout: 20_000 });
    await waitUpToDate(buyer);

    await goOffline(buyer.context());
    await work(buyer).getByRole('button', { name: 'Request changes' }).click();
    const changes = buyer.getByRole('dialog', { name: 'Request changes' });
    await changes.getByLabel(/What needs to change/).fill('Please redo the lettering');
    await changes.getByRole('button', { name: 'Request changes' }).click();
    await changes.waitFor({ state: 'detached' });
    await buyer
      .getByTestId('sync-status')
      .getByText(/waiting to sync/)
      .waitFor();

    clock.advance(14 * DAY_MS);
    await server.timers.runDue();
    expect(statusOf(server, w.applicationId)).toBe('COMPLETED');

    await goOnline(buyer.context());
    const problems = buyer.getByRole('region', { name: 'Changes the server did not accept' });
    await problems
      .getByText('This work is completed and can no longer change.', { exact: false })
      .waitFor({ timeout: 30_000 });
    await problems.getByText('Your change request: Please redo the lettering').waitFor();
    await work(buyer).getByText('Completed', { exact: true }).waitFor({ timeout: 20_000 });
  });
});
