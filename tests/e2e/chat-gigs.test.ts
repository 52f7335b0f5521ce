import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { syncedStampKey } from '../../client/data/chat-history';
import { conversationIdFor } from '../../shared/ids';
import { goOffline, signedInActor, waitForServiceWorker, waitUpToDate } from '../support/browser';
import { applyTo, gigDoc, offer, person, write, type Person } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { chatMessage, openChat } from '../support/yjs-client';
import { useServerAndBrowser } from '../support/e2e';

/**
 * Chat in real Chromium, issue 21: the gigs a conversation is about (one conversation per pair of
 * users, several gigs linking them), and history on a device that never opened it, offline.
 */

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
const texts = async (page: Page) =>
  (await messages(page).locator('.message__text').allTextContents()).map((t) => t.trim());

async function send(page: Page, text: string) {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

async function postGig(owner: Person, title: string): Promise<string> {
  return String((await postGigDoc(owner, title)).id);
}

async function postGigDoc(owner: Person, title: string): Promise<Record<string, unknown>> {
  const { master, refusal } = await write(owner.http, 'gigs', gigDoc({ title }));
  if (!master || refusal) throw new Error(`gig refused: ${refusal}`);
  return master;
}

/** Converse with Creator on the gig's page: the chat opens from that gig. */
async function converseFrom(page: Page, gigId: string, creatorId: string) {
  await page.goto(`${server.url}/gig/${gigId}`);
  await page.getByRole('button', { name: 'Converse with Creator' }).click({ timeout: 20_000 });
  await page.waitForURL(`**/exchange/${creatorId}?gig=${gigId}`);
}

describe('a chat between two users linked by two gigs', () => {
  it('lists both gigs with their statuses; a message sent from the second gig is marked "about:" and its notification names that gig; a deleted gig shows as deleted', async () => {
    const [ada, ben] = await Promise.all([
      signedInActor(browser, server.url, { name: 'Ada Creator' }),
      signedInActor(browser, server.url, { name: 'Ben Applicant' }),
    ]);
    const muralDoc = await postGigDoc(ada, 'Community mural (passion project)');
    const mural = String(muralDoc.id);
    const album = await postGig(ada, 'Album cover illustration');
    await applyTo(ben, mural);
    await offer(ada.http, await applyTo(ben, album), 60_000);

    await converseFrom(ben.page, mural, ada.user.id);
    const gigs = ben.page.getByRole('list', { name: 'Gigs between you' }).getByRole('listitem');
    await gigs
      .filter({ hasText: 'Album cover illustration' })
      .getByText('Waiting for freelancer to accept')
      .waitFor({ timeout: 20_000 });
    await gigs.filter({ hasText: 'Community mural (passion project)' }).getByText('New applicant').waitFor();
    expect(await gigs.count()).toBe(2);
    await send(ben.page, 'Happy to start the mural.');
    await messages(ben.page)
      .filter({ hasText: 'Happy to start the mural.' })
      .getByText('about: Community mural (passion project)')
      .waitFor({ timeout: 20_000 });

    await converseFrom(ben.page, album, ada.user.id);
    await send(ben.page, 'Album sketches attached.');
    const second = messages(ben.page).filter({ hasText: 'Album sketches attached.' });
    await second.getByText('about: Album cover illustration').waitFor({ timeout: 20_000 });
    await expect
      .poll(() => second.locator('.message__meta span').textContent(), { timeout: 20_000 })
      .not.toMatch(/Sending|Waiting/);

    // The buyer's one unread message notification names the gig of the newest message.
    await ada.page.goto(server.url + '/notifications');
    await ada.page
      .getByRole('button', {
        name: /^Unread: New message from “Ben Applicant” about “Album cover illustration”: Album sketches attached\./,
      })
      .click({ timeout: 20_000 });
    await ada.page.waitForURL(`**/exchange/${ben.user.id}`);
    await expect
      .poll(() => texts(ada.page), { timeout: 20_000 })
      .toEqual(['Happy to start the mural.', 'Album sketches attached.']);
    await messages(ada.page)
      .filter({ hasText: 'Album sketches attached.' })
      .getByText('about: Album cover illustration')
      .waitFor();
    await messages(ada.page)
      .filter({ hasText: 'Happy to start the mural.' })
      .getByText('about: Community mural (passion project)')
      .waitFor();
    expect(await ada.page.getByText(/^about:/).count()).toBe(2);

    // The buyer deletes the mural: the header and the marker say so, and new messages stay about the album.
    expect((await write(ada.http, 'gigs', { ...muralDoc, _deleted: true }, muralDoc)).refusal).toBeUndefined();
    await gigs
      .filter({ hasText: 'Community mural (passion project)' })
      .getByText('Gig deleted')
      .waitFor({ timeout: 20_000 });
    await messages(ben.page)
      .filter({ hasText: 'Happy to start the mural.' })
      .getByText('about: Community mural (passion project) (gig deleted)')
      .waitFor();
    await ben.page.getByText('About: Album cover illustration', { exact: true }).waitFor();
  });
});

describe('chat history on a device that never opened the conversation', () => {
  it('after the background download the messages are there offline; a conversation not downloaded says so', async () => {
    const cat = await signedInActor(browser, server.url, { name: 'Cat Freelancer' });
    const [dan, eve] = await Promise.all([
      person(server.url, { name: 'Dan Buyer' }),
      person(server.url, { name: 'Eve Buyer' }),
    ]);
    const history = ['Hi Cat, thanks for applying.', 'Can you send a few references?'];
    for (const [buyer, title] of [
      [dan, 'Poster for a jazz night'],
      [eve, 'Zine layout'],
    ] as const) {
      await applyTo(cat, await postGig(buyer, title));
      const room = openChat(buyer.http, conversationIdFor(buyer.user.id, cat.user.id));
      try {
        await room.synced();
        for (const text of history) room.send(chatMessage(buyer.user.id, cat.user.id, text));
        await expect.poll(() => room.shown().filter((m) => !m.pending).length, { timeout: 20_000 }).toBe(2);
      } finally {
        room.destroy();
      }
    }
    const danRoom = conversationIdFor(dan.user.id, cat.user.id);
    const eveRoom = conversationIdFor(eve.user.id, cat.user.id);
    // Eve's room cannot be reached from this device, so it is never downloaded here.
    await cat.context.routeWebSocket(
      (url) => url.pathname === `/api/chat/${eveRoom}`,
      (ws) => ws.close({ code: 4403, reason: 'Not reachable in this test' }),
    );

    await cat.page.goto(server.url + '/landing');
    await waitForServiceWorker(cat.page);
    await waitUpToDate(cat.page);
    // The background download records each room it stored.
    await cat.page.waitForFunction((key) => localStorage.getItem(key) !== null, syncedStampKey(cat.user.id, danRoom), {
      timeout: 30_000,
    });

    await goOffline(cat.context);
    await cat.page.goto(`${server.url}/exchange/${dan.user.id}`);
    await expect.poll(() => texts(cat.page), { timeout: 20_000 }).toEqual(history);

    await cat.page.goto(`${server.url}/exchange/${eve.user.id}`);
    await cat.page
      .getByText("This conversation hasn't been downloaded to this device yet. It will appear when you're back online.")
      .waitFor({ timeout: 20_000 });
    expect(await cat.page.getByText('No messages yet. Say hello!').count()).toBe(0);
  });
});
