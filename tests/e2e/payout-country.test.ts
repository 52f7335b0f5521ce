import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInActor } from '../support/browser';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { startStripeMock, type StripeMock } from '../support/stripe-mock';

/** Payout setup where Stripe cannot pay out (decision 007): the settings page says why. */

let stripe: StripeMock;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  stripe = await startStripeMock();
  server = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_e2e',
    STRIPE_API_BASE: stripe.url,
    STRIPE_PLATFORM_COUNTRY: 'CA',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
  await stripe?.close();
});

describe('payout setup in a country Stripe cannot pay out to', () => {
  it('a freelancer in Nigeria is told payouts are not available there, and no account is created', async () => {
    const amara = await signedInActor(browser, server.url, { name: 'Amara Okafor', location: 'NG' });
    await amara.page.goto(server.url + '/settings');
    await amara.page.getByText('No payout account yet.').waitFor({ timeout: 20_000 });
    await amara.page.getByRole('button', { name: 'Set up payouts' }).click();
    const alert = amara.page
      .getByRole('alert')
      .filter({ hasText: 'Payouts to accounts in Nigeria are not available yet' });
    await alert.waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).toBe(
      'Payouts to accounts in Nigeria are not available yet: our payment provider cannot send payouts there from this platform. Please contact support.',
    );
    expect(stripe.calls('/v1/accounts')).toHaveLength(0);
  });
});
