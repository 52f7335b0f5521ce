import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  goOffline,
  goOnline,
  launchBrowser,
  signedInActor,
  waitForServiceWorker,
  waitUpToDate,
  type Actor,
} from '../support/browser';
import { applicationDoc, gigDoc, pullAll, write } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';

/** Chat in real Chromium: two users, live both ways, typing, offline writes, the unread badge. */

let server: TestServer;
let browser: Browser;
let ada: Actor; // gig creator
let ben: Actor; // applicant
let gigId: string;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  [ada, ben] = await Promise.all([
    signedInActor(browser, server.url, { name: 'Ada Creator' }),
    signedInActor(browser, server.url, { name: 'Ben Applicant' }),
  ]);
  const gig = gigDoc({ title: 'Mural for a bike shop' });
  gigId = String(gig.id);
  expect((await write(ada.http, 'gigs', gig)).refusal).toBeUndefined();
  expect((await write(ben.http, 'applications', applicationDoc(String(gig.id), ben.user.id))).refusal).toBeUndefined();
});
afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
const texts = async (page: Page) =>
  (await messages(page).locator('.message__text').allTextContents()).map((t) => t.trim());

async function send(page: Page, text: string) {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe('chat between two users in two browsers', () => {
  it('opens from Converse on the applications screen; a message that is only spaces is not sent', async () => {
    await ada.page.goto(server.url + '/applications');
    await ada.page
      .getByRole('listitem')
      .filter({ hasText: 'Ben Applicant' })
      .getByRole('button', { name: 'Converse' })
      .click({ timeout: 20_000 });
    await ada.page.waitForURL(`**/exchange/${ben.user.id}?gig=${gigId}`);
    await ada.page.getByRole('heading', { name: 'Ben Applicant' }).waitFor({ timeout: 20_000 });
    await ada.page.getByLabel('Message', { exact: true }).fill('   ');
    expect(await ada.page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await ada.page.getByText('No messages yet. Say hello!').waitFor();
  });

  it('messages appear live both ways, in order, with the sender and time; typing shows on the other side', async () => {
    await ben.page.goto(server.url + `/exchange/${ada.user.id}`);
    await ben.page.getByRole('heading', { name: 'Ada Creator' }).waitFor({ timeout: 20_000 });
    await ada.page
      .getByTestId('presence')
      .getByText(/^Online/)
      .waitFor({ timeout: 20_000 });

    await ben.page.getByLabel('Message', { exact: true }).fill('Hello Ada, I');
    await ada.page
      .getByTestId('presence')
      .getByText(/Ben Applicant is typing…/)
      .waitFor({ timeout: 20_000 });
    await send(ben.page, 'Hello Ada, I love the mural idea.');
    await send(ada.page, 'Great! When can you start?');
    await send(ben.page, 'Next Monday.');
    const expected = ['Hello Ada, I love the mural idea.', 'Great! When can you start?', 'Next Monday.'];
    await expect.poll(() => texts(ada.page), { timeout: 20_000 }).toEqual(expected);
    await expect.poll(() => texts(ben.page), { timeout: 20_000 }).toEqual(expected);
    const first = messages(ada.page).first();
    await first.getByText('Ben Applicant').waitFor();
    await expect.poll(() => first.locator('.message__meta span').textContent()).not.toMatch(/Sending|Waiting/);
  });

  it('B goes offline, writes two messages, reloads, comes back online, and A receives both once, in order', async () => {
    await waitForServiceWorker(ben.page);
    await waitUpToDate(ben.page);
    await goOffline(ben.context);
    await send(ben.page, 'Offline one.');
    await send(ben.page, 'Offline two.');
    await expect.poll(() => messages(ben.page).filter({ hasText: 'Waiting to send' }).count()).toBe(2);
    expect(await texts(ada.page)).not.toContain('Offline one.');
    await ben.page.getByLabel('Message', { exact: true }).fill('a draft that survives');
    // (Ada is asked before the reload: Chromium lifts the context's offline emulation for the
    // document a reload leaves, which may send what waits; README, "Offline in end-to-end tests".)
    await ben.page.reload();
    await expect
      .poll(() => texts(ben.page), { timeout: 20_000 })
      .toEqual(expect.arrayContaining(['Offline one.', 'Offline two.']));
    expect(await ben.page.getByLabel('Message', { exact: true }).inputValue()).toBe('a draft that survives');

    await goOnline(ben.context);
    const expected = [
      'Hello Ada, I love the mural idea.',
      'Great! When can you start?',
      'Next Monday.',
      'Offline one.',
      'Offline two.',
    ];
    await expect.poll(() => texts(ada.page), { timeout: 30_000 }).toEqual(expected);
    await expect
      .poll(
        () =>
          messages(ben.page)
            .filter({ hasText: /Waiting to send|Sending/ })
            .count(),
        { timeout: 30_000 },
      )
      .toBe(0);
    expect(await texts(ben.page)).toEqual(expected);
  });

  it('the unread badge appears for A when B writes, and clears when A opens the conversation', async () => {
    // With the conversation open, the notification of B's last message is marked read for A.
    await expect
      .poll(
        async () =>
          (await pullAll(ada.http, 'notifications')).documents
            .filter((n) => n.type === 'new_message' && String(n.message).includes('Offline two.'))
            .map((n) => n.read),
        { timeout: 20_000 },
      )
      .toEqual([true]);
    // Read the rest (the application's notification).
    await ada.page.goto(server.url + '/notifications');
    await ada.page.getByRole('button', { name: /New application from “Ben Applicant”/ }).click();
    await ada.page.waitForURL('**/applications');
    const badge = ada.page.getByTestId('unread-badge');
    await ada.page.goto(server.url + '/landing');
    await waitUpToDate(ada.page);
    await badge.waitFor({ state: 'detached', timeout: 20_000 });
    await send(ben.page, 'Did you see the sketches?');
    await badge.waitFor({ timeout: 20_000 });
    await ada.page.getByRole('link', { name: 'Notifications' }).click();
    await ada.page.getByRole('button', { name: /^Unread: New message from “Ben/ }).click();
    await ada.page.waitForURL(`**/exchange/${ben.user.id}`);
    await messages(ada.page).filter({ hasText: 'Did you see the sketches?' }).waitFor({ timeout: 20_000 });
    await badge.waitFor({ state: 'detached', timeout: 20_000 });
  });
});
