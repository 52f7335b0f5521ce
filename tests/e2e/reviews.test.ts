import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REVIEW_WINDOW_MS, waitingLabel } from '../../shared/reviews';
import { goOffline, signedInActor, waitForServiceWorker, waitUpToDate } from '../support/browser';
import { useServerAndBrowser } from '../support/e2e';
import { applyTo, gigDoc, offerAndAccept, person, write, type Person } from '../support/fixtures';
import type { TestServer } from '../support/in-process-server';
import { waitFor } from '../support/wait';

/**
 * Issue 16 in Chromium against the real server: after completed work both sides review each
 * other; the first author sees their review waiting; when the second is written both reviews
 * appear at once on both profiles, open on the first author's device; the reviewed person replies;
 * a profile seen once opens offline.
 */

let server: TestServer;
let browser: Browser;
useServerAndBrowser((s, b) => ([server, browser] = [s, b]));

type Work = { applicationId: string; gigId: string; completedAt: number };

/** Work by `seller` on a gig of `buyer`, completed (a zero offer: nothing to pay). */
async function completedWork(buyer: Person, seller: Person, title: string): Promise<Work> {
  const gig = (await write(buyer.http, 'gigs', gigDoc({ title }))).master!;
  const app = await offerAndAccept(buyer.http, seller.http, await applyTo(seller, String(gig.id)), 0);
  const done = await buyer.http.post('/api/gigs/complete-gig', {
    gigId: gig.id,
    applicationId: app.id,
    userId: buyer.user.id,
    userType: 'buyer',
  });
  expect(done.status).toBe(200);
  const completedAt = Number(server.ctx.store.get('applications', String(app.id))!.completedAt);
  return { applicationId: String(app.id), gigId: String(gig.id), completedAt };
}

/** Chooses a rating the way a keyboard user does: Tab into the stars, arrows to the one wanted. */
async function rateWithKeyboard(page: Page, panel: Locator, stars: number) {
  await panel.getByRole('radio', { name: '1 star' }).focus();
  await page.keyboard.press('Space');
  for (let i = 1; i < stars; i += 1) await page.keyboard.press('ArrowRight');
  expect(await panel.getByRole('radio', { name: `${stars} stars` }).isChecked()).toBe(true);
}

const reviewsOn = (page: Page, name: string) => page.getByRole('list', { name: `Reviews of ${name}` });

describe('reviews, in the browser', () => {
  it('both sides review: the first sees it waiting, both appear on both profiles at once, and the reviewed one replies', async () => {
    const [ada, ben] = await Promise.all([
      signedInActor(browser, server.url, { name: 'Ada Buyer', username: `ada${Date.now() % 100000}` }),
      signedInActor(browser, server.url, { name: 'Ben Maker', username: `ben${Date.now() % 100000}` }),
    ]);
    const work = await completedWork(ada, ben, 'Festival poster');

    // Ben is asked to review, and the notification opens the review on his side of My Gigs.
    await ben.page.goto(server.url + '/notifications');
    const request = ben.page.getByText('How did “Festival poster” go?', { exact: false });
    await request.click({ timeout: 20_000 });
    await ben.page.waitForURL(/\/basket\?review=/);
    const benPanel = ben.page.getByRole('region', { name: 'Review Ada Buyer' });
    await benPanel.waitFor({ timeout: 20_000 });
    await rateWithKeyboard(ben.page, benPanel, 4);
    await benPanel.getByLabel(/Your review of Ada Buyer/).fill('Clear brief, quick feedback, and a joy to work with.');
    await benPanel.getByRole('button', { name: 'Post review' }).click();

    // The first author sees theirs waiting for the other side or for the window's last day.
    const waiting = waitingLabel(work.completedAt + REVIEW_WINDOW_MS);
    expect(waiting).toMatch(/^Waiting for the other side or for \d{1,2} [A-Z][a-z]+$/);
    const benMine = ben.page.getByRole('region', { name: 'Reviews of “Festival poster”' });
    await benMine.getByText(waiting, { exact: false }).waitFor({ timeout: 20_000 });
    await waitFor('the review is stored', () =>
      [...server.ctx.store.all('reviews')].some((r) => r.applicationId === work.applicationId),
    );

    // Ben keeps both profiles open in two tabs: nothing is published yet.
    const adaProfile = ben.page;
    const benProfile = await ben.context.newPage();
    await adaProfile.goto(`${server.url}/u/${String(ada.user.username)}`);
    await benProfile.goto(`${server.url}/u/${String(ben.user.username)}`);
    for (const page of [adaProfile, benProfile])
      await page.getByRole('region', { name: 'Reviews', exact: true }).getByText('No reviews yet').waitFor();
    await adaProfile.getByRole('heading', { name: 'Ada Buyer', level: 1 }).waitFor();

    // Ada is told a review waits for her, without what it says; she writes hers.
    await ada.page.goto(`${server.url}/basket?review=${encodeURIComponent(work.applicationId)}`);
    const adaPanel = ada.page.getByRole('region', { name: 'Review Ben Maker' });
    await adaPanel.getByText('Ben Maker has reviewed you. Write your review to read theirs', { exact: false }).waitFor({
      timeout: 20_000,
    });
    expect(await ada.page.getByText('Clear brief, quick feedback').count()).toBe(0);
    await rateWithKeyboard(ada.page, adaPanel, 5);
    await adaPanel.getByLabel(/Your review of Ben Maker/).fill('Delivered early; the poster is wonderful.');
    await adaPanel.getByRole('button', { name: 'Post review' }).click();
    const adaBoth = ada.page.getByRole('region', { name: 'Reviews of “Festival poster”' });
    await adaBoth.getByText('Clear brief, quick feedback, and a joy to work with.').waitFor({ timeout: 20_000 });

    // On Ben's device both profiles show their review at once, without a reload.
    await reviewsOn(adaProfile, 'Ada Buyer')
      .getByText('Clear brief, quick feedback, and a joy to work with.')
      .waitFor({ timeout: 20_000 });
    await reviewsOn(benProfile, 'Ben Maker')
      .getByText('Delivered early; the poster is wonderful.')
      .waitFor({ timeout: 20_000 });
    await adaProfile.getByText('4.0 (1 review)').waitFor();
    await benProfile.getByText('5.0 (1 review)').waitFor();

    // Ada replies to Ben's review on her own profile; Ben sees the reply.
    await ada.page.goto(`${server.url}/u/${String(ada.user.username)}`);
    const review = reviewsOn(ada.page, 'Ada Buyer').getByRole('article', { name: 'Review by Ben Maker' });
    await review.getByRole('button', { name: 'Reply' }).click({ timeout: 20_000 });
    await review.getByLabel(/Your public reply/).fill('Thank you, Ben. Same time next year?');
    await review.getByRole('button', { name: 'Post reply' }).click();
    await review.getByText('Reply from Ada Buyer').waitFor();
    expect(await review.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    await reviewsOn(adaProfile, 'Ada Buyer')
      .getByText('Thank you, Ben. Same time next year?')
      .waitFor({ timeout: 20_000 });
    await Promise.all([ada.context.close(), ben.context.close()]);
  });

  it('a profile seen once opens offline, with its reviews; the applicant list shows ratings and links to it', async () => {
    const cleo = await signedInActor(browser, server.url, { name: 'Cleo Curious' });
    const [dana, eli] = await Promise.all([
      person(server.url, { name: 'Dana Director' }),
      person(server.url, { name: 'Eli Editor' }),
    ]);
    const work = await completedWork(dana, eli, 'Short film edit');
    for (const [who, rating, text] of [
      [eli, 3, 'Fair pay, but the brief changed twice.'],
      [dana, 5, 'Tight cuts and on time, every time.'],
    ] as const) {
      const { refusal } = await write(who.http, 'reviews', {
        id: `r${Date.now()}${rating}x1`,
        applicationId: work.applicationId,
        rating,
        text,
      });
      expect(refusal).toBeUndefined();
    }
    // Eli applies to Cleo's gig: her applicant list shows his rating and links to his profile.
    const gig = (await write(cleo.http, 'gigs', gigDoc({ title: 'Trailer cut' }))).master!;
    await applyTo(eli, String(gig.id));
    await cleo.page.goto(server.url + '/basket?view=buyer');
    await cleo.page.getByRole('button', { name: 'View applicants' }).click({ timeout: 20_000 });
    const applicants = cleo.page.getByRole('list', { name: 'Applicants for Trailer cut' });
    await applicants.getByText('5.0 (1 review)').waitFor({ timeout: 20_000 });
    await applicants.getByText('1 completed gig').waitFor();
    await applicants.getByRole('link', { name: 'Eli Editor’s profile' }).click();
    await cleo.page.waitForURL(`**/u/${String(eli.user.username)}`);
    await reviewsOn(cleo.page, 'Eli Editor')
      .getByText('Tight cuts and on time, every time.')
      .waitFor({ timeout: 20_000 });
    await waitUpToDate(cleo.page);
    await waitForServiceWorker(cleo.page);

    await goOffline(cleo.context);
    await cleo.page.reload();
    await cleo.page.getByRole('heading', { name: 'Eli Editor', level: 1 }).waitFor({ timeout: 20_000 });
    await reviewsOn(cleo.page, 'Eli Editor').getByText('Tight cuts and on time, every time.').waitFor();
    await cleo.page.getByText('Offline: showing this profile as it was on', { exact: false }).waitFor();
    // One never seen says so.
    await cleo.page.goto(`${server.url}/u/${String(dana.user.username)}`);
    await cleo.page.getByText("This profile isn't on this device yet.", { exact: false }).waitFor({ timeout: 20_000 });
    await cleo.context.close();
  });
});
