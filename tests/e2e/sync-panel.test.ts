import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInActor, signedInContext, waitUpToDate } from '../support/browser';
import { useServerAndBrowser } from '../support/e2e';
import { accept, applyTo, gigDoc, offer, person, write } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';
import { conversationIdFor } from '../../shared/ids';

// Issue 17, part 2: the sync panel, opened from the sync status in the nav.

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const status = (page: Page) => page.getByTestId('sync-status');

async function openPanel(page: Page) {
  await status(page).getByRole('button').click();
  const panel = page.getByRole('dialog', { name: 'Sync' });
  await panel.waitFor();
  return panel;
}

async function closePanel(page: Page) {
  await page.getByRole('dialog', { name: 'Sync' }).getByRole('button', { name: 'Close' }).click();
}

const card = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

describe('the sync panel', () => {
  it('"Work offline" queues an application and a chat message on purpose; the panel lists them, then they go out', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Album cover' }))).master!;
    const ari = await signedInActor(browser, server.url, { name: 'Ari Applicant' });
    const { page } = ari;
    await page.goto(server.url + '/landing');
    await card(page, 'Album cover').waitFor({ timeout: 20_000 });
    await waitUpToDate(page);

    let panel = await openPanel(page);
    await panel
      .getByTestId('last-heard')
      .getByText(/^(Just now|\d+ seconds ago)/)
      .waitFor();
    await panel.getByText('Nothing is waiting to go out.').waitFor();
    await panel.getByText('No chat messages are waiting.').waitFor();
    const counts = panel.getByRole('table');
    await expect
      .poll(async () => Number(await counts.getByRole('row', { name: /^Gigs/ }).locator('td').textContent()))
      .toBeGreaterThanOrEqual(1);
    await panel
      .getByTestId('storage-estimate')
      .getByText(/Storage used by the app: .+ of .+ the browser allows\./)
      .waitFor();

    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await status(page).getByText('Working offline · your data is available').waitFor();
    await waitFor('the change stream closes', () => server.streams.openFor(ari.user.id) === 0);
    await closePanel(page);

    await card(page, 'Album cover').getByRole('button', { name: 'Album cover' }).click();
    const dialog = page.getByRole('dialog', { name: 'Album cover' });
    await dialog.getByLabel(/Your rate/).fill('120');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await status(page).getByText('Working offline · 1 change waiting to sync').waitFor();
    await page.goto(server.url + `/exchange/${buyer.user.id}`);
    await page.getByLabel('Message', { exact: true }).fill('Sketches by Friday?');
    await page.getByRole('button', { name: 'Send' }).click();

    panel = await openPanel(page);
    const changes = panel.getByRole('list', { name: 'Changes' });
    const row = changes.getByRole('listitem').filter({ hasText: 'Application to “Album cover”' });
    await row.getByText('Applications').waitFor();
    await row.getByText('Waiting', { exact: true }).waitFor();
    await panel.getByRole('list', { name: 'Chat messages waiting' }).getByText('1 message to Bea Buyer').waitFor();
    expect(server.ctx.store.get('applications', `${String(gig.id)}.${ari.user.id}`)).toBeUndefined();

    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await panel.getByText('Nothing is waiting to go out.').waitFor({ timeout: 20_000 });
    await panel.getByText('No chat messages are waiting.').waitFor({ timeout: 20_000 });
    await waitFor('the application on the server', () =>
      server.ctx.store.get('applications', `${String(gig.id)}.${ari.user.id}`),
    );
    await closePanel(page);
    await waitUpToDate(page);
    await ari.context.close();
  });

  it('says a chat message went out once the server stamps it, even when the sync has nothing more to say', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Poster series' }))).master!;
    const ari = await signedInActor(browser, server.url, { name: 'Ari Applicant' });
    await applyTo(ari, String(gig.id));
    const { page } = ari;
    await page.goto(server.url + `/exchange/${buyer.user.id}`);
    await waitUpToDate(page);
    let panel = await openPanel(page);
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await status(page).getByText('Working offline · your data is available').waitFor();
    await closePanel(page);
    await page.getByLabel('Message', { exact: true }).fill('Is A2 the right size?');
    await page.getByRole('button', { name: 'Send' }).click();
    panel = await openPanel(page);
    await panel.getByRole('list', { name: 'Chat messages waiting' }).getByText('1 message to Bea Buyer').waitFor();
    // From here the sync answers nothing (its requests hang): only the chat's socket speaks.
    await page.route('**/api/sync/**', () => undefined);
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await waitFor(
      'the message stamped on the server',
      () => server.ctx.store.chatUpdates(conversationIdFor(ari.user.id, buyer.user.id)).length > 0,
    );
    await panel.getByText('No chat messages are waiting.').waitFor({ timeout: 10_000 });
    await ari.context.close();
  });

  it('keeps a refused change with its reason and content: Retry sends it again, Discard drops it after a confirmation', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const ben = await person(server.url, { name: 'Ben Booked' });
    const gigs = [];
    for (const title of ['Mural for a café', 'Logo for a bakery']) {
      const gig = (await write(buyer.http, 'gigs', gigDoc({ title, openings: 1 }))).master!;
      gigs.push({ gig, ben: await applyTo(ben, String(gig.id)) });
    }
    const ari = await signedInActor(browser, server.url, { name: 'Ari Applicant' });
    const { page } = ari;
    await page.goto(server.url + '/landing');
    await card(page, 'Logo for a bakery').waitFor({ timeout: 20_000 });
    await waitUpToDate(page);

    // Ari applies to both while working offline; meanwhile both gigs hire Ben and are filled.
    let panel = await openPanel(page);
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await closePanel(page);
    for (const title of ['Mural for a café', 'Logo for a bakery']) {
      await card(page, title).getByRole('button', { name: title }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await dialog.getByLabel(/Your rate/).fill('90');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.getByText('waiting to sync', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
    }
    for (const { ben: application } of gigs) await accept(ben.http, await offer(buyer.http, application, 0));

    panel = await openPanel(page);
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    // A refused change's row (the same change, sent again, shows as waiting in a row of its own).
    const refused = (title: string) =>
      panel
        .getByRole('list', { name: 'Changes' })
        .getByRole('listitem')
        .filter({ hasText: `Application to “${title}”` })
        .filter({ has: page.getByRole('button', { name: 'Retry' }) });
    for (const title of ['Mural for a café', 'Logo for a bakery']) {
      await refused(title).getByText('Refused').waitFor({ timeout: 20_000 });
      await refused(title).getByText('This gig is no longer accepting applications').waitFor();
    }
    await refused('Mural for a café').getByText('Content kept').click();
    await refused('Mural for a café').getByText('rate: C$90.00').waitFor();

    // The buyer adds an opening: Retry sends the kept application again, and this time it lands.
    const mural = gigs[0]!.gig;
    const now = server.ctx.store.get('gigs', String(mural.id))!;
    const { _seq, _deleted, ...current } = now;
    expect((await write(buyer.http, 'gigs', { ...current, openings: 2 }, current)).refusal).toBeUndefined();
    // Retried while working offline, it waits as what it is: an application (the document this
    // device held was the refusal's rollback, a deletion, and the row read it before the write).
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await status(page).getByText('Working offline', { exact: false }).waitFor();
    await refused('Mural for a café').getByRole('button', { name: 'Retry' }).click();
    await refused('Mural for a café').waitFor({ state: 'detached' });
    const waiting = panel
      .getByRole('list', { name: 'Changes' })
      .getByRole('listitem')
      .filter({ has: page.getByText('Waiting', { exact: true }) });
    await waiting.getByText('Application to “Mural for a café”', { exact: true }).waitFor();
    expect(await waiting.count()).toBe(1);
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await waitFor('the retried application on the server', () =>
      server.ctx.store.get('applications', `${String(mural.id)}.${ari.user.id}`),
    );

    await refused('Logo for a bakery').getByRole('button', { name: 'Discard' }).click();
    const confirm = page.getByRole('dialog', { name: 'Discard this change?' });
    await confirm.getByText('Application to “Logo for a bakery”: what it kept will be lost.').waitFor();
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await refused('Logo for a bakery').waitFor({ state: 'detached' });
    await panel.getByText('Nothing is waiting to go out.').waitFor({ timeout: 20_000 });
    await ari.context.close();
  });

  it('"Reset this device" asks first, deletes the local database and pulls everything again', async () => {
    const buyer = await person(server.url, { name: 'Rex Reset' });
    for (const title of ['First poster', 'Second poster'])
      await write(buyer.http, 'gigs', gigDoc({ title, createdAt: Date.now() }));
    const { context, page } = await signedInContext(browser, server.url, buyer.http);
    await page.goto(server.url + '/landing');
    await card(page, 'Second poster').waitFor({ timeout: 20_000 });
    await waitUpToDate(page);
    // A public profile page read here: kept for offline, a copy of the server's like the rest.
    const profileCaches = () =>
      page.evaluate(async (id) => (await caches.keys()).filter((name) => name.includes(id)), buyer.user.id);
    await page.goto(server.url + `/u/${String(buyer.user.username)}`);
    await page.getByRole('heading', { name: 'Rex Reset', level: 1 }).waitFor();
    await expect.poll(profileCaches).toHaveLength(1);

    // A change that will be lost: made while working offline.
    let panel = await openPanel(page);
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await closePanel(page);
    await page.goto(server.url + '/profile');
    await page.getByLabel('Bio').fill('Made offline, then reset away.');
    await page.getByLabel('Bio').blur();
    await status(page).getByText('Working offline · 1 change waiting to sync').waitFor();

    panel = await openPanel(page);
    await panel.getByRole('button', { name: 'Reset this device' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset this device?' });
    await confirm.getByText('1 change has not been sent and will be lost.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Reset this device' }).click();
    await confirm.getByRole('button', { name: 'Reset this device' }).click();

    // Emptied: nothing waits, nothing is stored, and (still working offline) nothing is pulled yet.
    panel = page.getByRole('dialog', { name: 'Sync' });
    await panel.getByText('Nothing is waiting to go out.').waitFor({ timeout: 20_000 });
    await expect.poll(async () => panel.getByRole('row', { name: /^Gigs/ }).locator('td').textContent()).toBe('0');
    expect(await profileCaches()).toEqual([]);
    await panel.getByRole('switch', { name: 'Work offline' }).click();
    await expect
      .poll(async () => Number(await panel.getByRole('row', { name: /^Gigs/ }).locator('td').textContent()), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);
    await closePanel(page);
    await waitUpToDate(page);
    await page.goto(server.url + '/landing');
    await card(page, 'First poster').waitFor({ timeout: 20_000 });
    const stored = server.ctx.store.get('users', buyer.user.id)!;
    expect(stored.bio ?? '').not.toContain('reset away');
    await context.close();
  });
});
