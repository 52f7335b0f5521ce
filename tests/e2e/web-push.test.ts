import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_DROPPED } from '../../client/sw/push-handlers';
import { pushPayload } from '../../shared/push-payload';
import { launchBrowser, signedInContext, waitForServiceWorker, waitUpToDate } from '../support/browser';
import {
  clickNotification,
  deliverPush,
  explainedByServiceWorker,
  pushesNotShown,
  serviceWorkerConsole,
  shownByWorker,
  shownNotifications,
  tagsShown,
  standInPushSubscription,
  type ShownNotification,
} from '../support/browser-push';
import { applyTo, gigDoc, PASSWORD, person, write } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { startPushService, type PushService } from '../support/push-service';
import { waitFor } from '../support/wait';

// Issue 17, part 1 in the browser: "Notify me on this device" in Settings, the server's push
// through a push service, the real service worker showing it and opening its page on a click,
// and nothing shown once the user signed out of the device.

let service: PushService;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  service = await startPushService();
  server = await startTestServer({ PUSH_SERVICE_ORIGINS: service.origin });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
  await service?.close();
});

/** Logs in on the login page the page is on, and waits for the board. */
async function logIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/landing');
}

/** A push for `userId`, as the server would send it. */
const note = (userId: string, id: string, message: string) =>
  JSON.stringify(pushPayload({ id, userId, type: 'GIG_STARTED', message, createdAt: Date.now() }));

const live = (userId: string) =>
  [...server.ctx.store.all('pushsubscriptions')].filter((s) => !s._deleted && s.userId === userId);

describe('web push on an installed device', () => {
  it('turns on from Settings, shows the notification’s text, opens its page on a click, and stops at logout', async () => {
    const buyer = await person(server.url, { name: 'Bea Buyer' });
    const applicant = await person(server.url, { name: 'Ari Applicant' });
    const device = service.device();
    const { context, page } = await signedInContext(browser, server.url, buyer.http);
    await context.grantPermissions(['notifications'], { origin: server.url });
    await standInPushSubscription(context, device);
    const swLog = serviceWorkerConsole(context);

    await page.goto(server.url + '/settings');
    await waitForServiceWorker(page);
    await waitUpToDate(page);
    const push = page.getByRole('region', { name: 'Notifications on this device' });
    // (Clicked, not check(): the switch turns on once the server has the subscription.)
    await push.getByRole('switch', { name: 'Notify me on this device' }).click();
    await push.getByText('Notifications are on for this device.').waitFor();
    expect(live(buyer.user.id)).toHaveLength(1);
    expect(live(buyer.user.id)[0]!.types).toContain('new_message');

    // Only some kinds of notification for this device.
    await push.getByRole('checkbox', { name: 'Messages' }).click();
    await push.getByText('Saved.').waitFor();
    expect(live(buyer.user.id)[0]!.types).not.toContain('new_message');
    expect(live(buyer.user.id)[0]!.types).toContain('new_application');
    await page.reload();
    await waitUpToDate(page);
    await expect.poll(() => push.getByRole('checkbox', { name: 'Messages' }).isChecked()).toBe(false);
    expect(await push.getByRole('checkbox', { name: 'Applications to my gigs' }).isChecked()).toBe(true);

    // Someone applies: the server pushes; the push service hands it to the service worker.
    const gig = (await write(buyer.http, 'gigs', gigDoc({ title: 'Album cover' }))).master!;
    await applyTo(applicant, gig.id as string);
    const received = await waitFor('the push reaches the push service', () => device.received[0], 10_000);
    await deliverPush(page, JSON.stringify(received.payload));
    const shown = await explainedByServiceWorker(
      page,
      swLog,
      shownByWorker(swLog, received.payload.tag as string, 'the worker shows the notification').then(() =>
        waitFor('the notification shows', async () => (await shownNotifications(page))[0]),
      ),
    );
    const stored = [...server.ctx.store.all('notifications')].find((n) => n.userId === buyer.user.id)!;
    expect(shown).toMatchObject<Partial<ShownNotification>>({
      title: 'Creative Gigs',
      body: stored.message,
      data: { url: '/applications', notificationId: stored.id, userId: buyer.user.id },
    });
    // The same text as the notifications page.
    await page.goto(server.url + '/notifications');
    await page.getByRole('list', { name: 'Notifications' }).getByText(stored.message).waitFor();

    // A click opens its page in the app's window.
    await clickNotification(context, shown.tag);
    await page.waitForURL('**/applications');
    await expect.poll(async () => (await shownNotifications(page)).length).toBe(0);

    // Logging out turns the device's notifications off, on the server and in the browser.
    // (Another notification: Chromium derives a tagged notification's id from its tag, and one
    // shown again under the tag just closed by the click could be removed by that close's late
    // bookkeeping.)
    const another = pushPayload({
      id: 'n-another',
      userId: buyer.user.id,
      type: 'GIG_STARTED',
      message: 'Work started on “Album cover”',
      createdAt: Date.now(),
    });
    await deliverPush(page, JSON.stringify(another));
    await explainedByServiceWorker(
      page,
      swLog,
      shownByWorker(swLog, 'notification-n-another', 'the worker shows another').then(() =>
        waitFor('another shows', async () => (await shownNotifications(page)).length === 1),
      ),
    );
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(live(buyer.user.id)).toHaveLength(0);
    expect(await shownNotifications(page)).toEqual([]);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).pushManager.getSubscription())).toBe(
      null,
    );
    await context.close();
  });

  it('never shows a push for a user who signed out of the device, even once someone else signs in there', async () => {
    const first = await person(server.url, { name: 'Fay First' });
    const second = await person(server.url, { name: 'Sol Second' });
    const { context, page } = await signedInContext(browser, server.url, first.http);
    await context.grantPermissions(['notifications'], { origin: server.url });
    const swLog = serviceWorkerConsole(context);
    await page.goto(server.url + '/landing');
    await waitForServiceWorker(page);
    // Signed in as far as the device knows (the status shows once the session is established).
    await waitUpToDate(page);

    // What was shown is what the worker says it showed (see shownByWorker); what the browser
    // lists is checked only for what must not be there.
    await deliverPush(page, note(first.user.id, 'n-first-1', 'Work started on “Logo”'));
    await explainedByServiceWorker(
      page,
      swLog,
      shownByWorker(swLog, 'notification-n-first-1', 'the signed-in user’s push shows'),
    );

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await shownNotifications(page)).toEqual([]);
    await deliverPush(page, note(first.user.id, 'n-first-2', 'Work started on “Poster”'));
    await explainedByServiceWorker(
      page,
      swLog,
      waitFor('the push after logout is dropped', () => pushesNotShown(swLog).length === 1),
    );
    expect(pushesNotShown(swLog)).toEqual([PUSH_DROPPED.nobody]);

    await logIn(page, second.user.email);
    await waitUpToDate(page);
    await deliverPush(page, note(first.user.id, 'n-first-3', 'Work started on “Banner”'));
    await deliverPush(page, note(second.user.id, 'n-second-1', 'Work started on “Flyer”'));
    await explainedByServiceWorker(
      page,
      swLog,
      shownByWorker(swLog, 'notification-n-second-1', 'the new user’s push shows').then(() =>
        waitFor('the old user’s push is dropped', () => pushesNotShown(swLog).length === 2),
      ),
    );
    expect(tagsShown(swLog)).toEqual(['notification-n-first-1', 'notification-n-second-1']);
    expect(pushesNotShown(swLog)).toEqual([PUSH_DROPPED.nobody, PUSH_DROPPED.otherUser]);
    for (const n of await shownNotifications(page)) expect(n.body).toBe('Work started on “Flyer”');
    await context.close();
  });

  it('keeps the notifications of a user who turned them on where another had them, when a push sent before arrives', async () => {
    const first = await person(server.url, { name: 'Pia Previous' });
    const second = await person(server.url, { name: 'Nia Next' });
    const { context, page } = await signedInContext(browser, server.url, first.http);
    await context.grantPermissions(['notifications'], { origin: server.url });
    // One subscription for the device, whoever turns notifications on: a browser keeps its
    // subscription until it is ended, so the server moves it to the user who turns them on.
    await standInPushSubscription(context, service.device());
    const swLog = serviceWorkerConsole(context);
    const notify = (on: boolean) => async () => {
      await page.goto(server.url + '/settings');
      await waitUpToDate(page);
      const push = page.getByRole('region', { name: 'Notifications on this device' });
      const toggle = push.getByRole('switch', { name: 'Notify me on this device' });
      await expect.poll(() => toggle.isEnabled()).toBe(true);
      await toggle.click();
      await push.getByText(`Notifications are ${on ? 'on' : 'off'} for this device.`).waitFor();
    };

    await page.goto(server.url + '/landing');
    await waitForServiceWorker(page);
    await notify(true)();
    expect(live(first.user.id)).toHaveLength(1);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await logIn(page, second.user.email);
    await notify(true)();
    expect(live(second.user.id)).toHaveLength(1);
    expect(live(first.user.id)).toHaveLength(0);

    // A push the server sent the first user before the subscription moved arrives now: dropped,
    // and the device stays subscribed for the second (its own pushes still show).
    await deliverPush(page, note(first.user.id, 'n-pia-1', 'Work started on “Mural”'));
    await deliverPush(page, note(second.user.id, 'n-nia-1', 'Work started on “Zine”'));
    await explainedByServiceWorker(
      page,
      swLog,
      shownByWorker(swLog, 'notification-n-nia-1', 'the second user’s push shows').then(() =>
        waitFor('the first user’s push is dropped', () => pushesNotShown(swLog).length === 1),
      ),
    );
    expect(pushesNotShown(swLog)).toEqual([PUSH_DROPPED.previousUser]);

    // Once the second user turns notifications off here, a push for anyone else ends the
    // subscription again, as for a device that never had them on.
    await notify(false)();
    await deliverPush(page, note(first.user.id, 'n-pia-2', 'Work started on “Poster”'));
    await explainedByServiceWorker(
      page,
      swLog,
      waitFor('the next push for the first user is dropped', () => pushesNotShown(swLog).length === 2),
    );
    expect(pushesNotShown(swLog)).toEqual([PUSH_DROPPED.previousUser, PUSH_DROPPED.otherUser]);
    expect(tagsShown(swLog)).toEqual(['notification-n-nia-1']);
    await context.close();
  });
});
