import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES, REVIEW_WINDOW_MS } from '../../shared/reviews';
import type { ProfilePage } from '../../shared/profiles';
import type { ChangesEvent } from '../../shared/sync/protocol';
import { applyTo, gigDoc, offerAndAccept, person, pullAll, randomId, write, type Person } from '../support/fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/in-process-server';
import { settleReputations } from '../../sync-server/reviews/settle';
import { openStream } from '../support/sse';

/**
 * Two-way reviews (issue 16, docs/decisions/032-reviews-and-profiles.md), over HTTP against the
 * real server on both stores: the read filter keeps an unpublished review to its author, the
 * second review publishes both at once, a second review by one side, one outside the window and
 * one by a third user are refused, the window's timers request, remind and publish, and profile
 * pages show what was published. The server's clock is the test's.
 */

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
let clock = Date.now();
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent' }, undefined, { now: () => clock });
});
afterAll(async () => {
  await server.cleanup();
});

type Doc = Record<string, unknown>;
type Work = { buyer: Person; seller: Person; applicationId: string; gigId: string; completedAt: number };

/** A buyer and a freelancer whose work on a gig is completed now (a zero offer: nothing to pay). */
async function completedWork(
  names = { buyer: 'Bea Buyer', seller: 'Sol Seller' },
  title = 'Tour poster',
): Promise<Work> {
  const [buyer, seller] = await Promise.all([
    person(server.url, { name: names.buyer }),
    person(server.url, { name: names.seller }),
  ]);
  const gig = (await write(buyer.http, 'gigs', gigDoc({ title }))).master!;
  const app = await applyTo(seller, String(gig.id));
  await offerAndAccept(buyer.http, seller.http, app, 0);
  const done = await buyer.http.post('/api/gigs/complete-gig', {
    gigId: gig.id,
    applicationId: app.id,
    userId: buyer.user.id,
    userType: 'buyer',
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { buyer, seller, applicationId: String(app.id), gigId: String(gig.id), completedAt: clock };
}

function reviewBy(work: Work, rating = 5, text = 'Clear brief, quick answers, paid on time.'): Doc {
  return { id: randomId(), applicationId: work.applicationId, rating, text };
}

const docsOf = async (p: Person, collection: string) => (await pullAll(p.http, collection)).documents;
const reviewsSeenBy = async (p: Person) => (await docsOf(p, 'reviews')).map((d) => d.id).sort();
const notesOf = async (p: Person, type: string) => (await docsOf(p, 'notifications')).filter((n) => n.type === type);

async function profileOf(reader: Person, username: unknown) {
  return reader.http.get<ProfilePage & { error?: string }>(`/api/profiles/${encodeURIComponent(String(username))}`);
}

describe('writing a review', () => {
  it('the server sets author, subject, application and dates; the text is trimmed', async () => {
    const work = await completedWork();
    const review = {
      ...reviewBy(work),
      text: '   Clear brief, quick answers, paid on time.  ',
      authorId: 'someone-else1',
      publishedAt: 1,
    };
    const { refusal, master } = await write(work.seller.http, 'reviews', review);
    expect(refusal).toBeUndefined();
    expect(master).toMatchObject({
      applicationId: work.applicationId,
      gigId: work.gigId,
      gigTitle: 'Tour poster',
      authorId: work.seller.user.id,
      authorName: 'Sol Seller',
      authorRole: 'freelancer',
      subjectId: work.buyer.user.id,
      subjectName: 'Bea Buyer',
      rating: 5,
      text: 'Clear brief, quick answers, paid on time.',
      createdAt: clock,
      windowClosesAt: work.completedAt + REVIEW_WINDOW_MS,
      publishedAt: null,
      reply: null,
    });
  });

  it.each([
    ['no star', { rating: 0 }, REVIEW_MESSAGES.ratingRequired],
    ['six stars', { rating: 6 }, REVIEW_MESSAGES.ratingRequired],
    ['half a star', { rating: 4.5 }, REVIEW_MESSAGES.ratingRequired],
    ['19 characters', { text: 'Nineteen characters' }, REVIEW_MESSAGES.textTooShort],
    ['1,001 characters', { text: 'x'.repeat(1001) }, REVIEW_MESSAGES.textTooLong],
    ['only spaces', { text: ' '.repeat(30) }, REVIEW_MESSAGES.textRequired],
  ])('refuses a review of %s with its message', async (_label, overrides, message) => {
    const work = await completedWork();
    const { refusal } = await write(work.seller.http, 'reviews', { ...reviewBy(work), ...overrides });
    expect(refusal).toBe(message);
  });
});

describe('the blind rule in the read filter', () => {
  it('an unpublished review reaches its author only: not its subject, not a third user, by pull or stream', async () => {
    const work = await completedWork();
    const stranger = await person(server.url, { name: 'Stan Stranger' });
    const buyerStream = await openStream(`${server.url}/api/sync/stream`, work.buyer.http.cookieHeader());
    const strangerStream = await openStream(`${server.url}/api/sync/stream`, stranger.http.cookieHeader());
    await Promise.all([
      buyerStream.waitFor((e) => e.event === 'hello'),
      strangerStream.waitFor((e) => e.event === 'hello'),
    ]);

    const review = reviewBy(work, 2, 'The brief changed twice after we agreed on it.');
    expect((await write(work.seller.http, 'reviews', review)).refusal).toBeUndefined();
    expect(await reviewsSeenBy(work.seller)).toEqual([review.id]);
    expect(await reviewsSeenBy(work.buyer)).toEqual([]);
    expect(await reviewsSeenBy(stranger)).toEqual([]);

    // The buyer is told a review waits for them, and nothing of what it says.
    const [notice] = await notesOf(work.buyer, 'REVIEW_RECEIVED');
    expect(notice).toMatchObject({ applicationId: work.applicationId, senderId: work.seller.user.id });
    expect(JSON.stringify(notice)).not.toContain('brief changed');
    await buyerStream.waitFor((e) => e.event === 'changes' && (e.data as ChangesEvent).collection === 'notifications');
    for (const s of [buyerStream, strangerStream]) {
      const streamed = s.events.filter((e) => e.event === 'changes').map((e) => e.data as ChangesEvent);
      expect(streamed.filter((c) => c.collection === 'reviews')).toEqual([]);
      expect(JSON.stringify(streamed)).not.toContain('brief changed');
      s.close();
    }
    // Nor is it on the buyer's profile page yet.
    const page = await profileOf(stranger, work.buyer.user.username);
    expect(page.status).toBe(200);
    expect(page.body.reviews).toEqual([]);
    expect(page.body.reputation).toMatchObject({ buyerReviews: 0, completedAsBuyer: 1 });
  });

  it('the second review publishes both in one commit: both sides see both, a third user only on the profiles', async () => {
    const work = await completedWork();
    const stranger = await person(server.url, { name: 'Stan Stranger' });
    const first = reviewBy(work, 4, 'Good brief and fast payment, thank you.');
    expect((await write(work.seller.http, 'reviews', first)).refusal).toBeUndefined();
    const sellerStream = await openStream(`${server.url}/api/sync/stream`, work.seller.http.cookieHeader());
    await sellerStream.waitFor((e) => e.event === 'hello');

    clock += 60_000;
    const second = reviewBy(work, 5, 'Delivered early and the poster is wonderful.');
    const { refusal, master } = await write(work.buyer.http, 'reviews', second);
    expect(refusal).toBeUndefined();
    expect(master).toMatchObject({ publishedAt: clock, authorRole: 'buyer', subjectId: work.seller.user.id });

    for (const side of [work.buyer, work.seller]) {
      const seen = await docsOf(side, 'reviews');
      expect(seen.map((r) => [r.id, r.publishedAt]).sort()).toEqual(
        [
          [first.id, clock],
          [second.id, clock],
        ].sort(),
      );
    }
    expect(await reviewsSeenBy(stranger)).toEqual([]);
    // The seller's stream carries both, in one event.
    const event = await sellerStream.waitFor(
      (e) => e.event === 'changes' && (e.data as ChangesEvent).collection === 'reviews',
    );
    expect((event.data as ChangesEvent).documents.map((d) => d.id).sort()).toEqual([first.id, second.id].sort());
    sellerStream.close();

    const buyerPage = await profileOf(stranger, work.buyer.user.username);
    expect(buyerPage.body.reviews).toEqual([
      expect.objectContaining({ id: first.id, rating: 4, authorId: work.seller.user.id, authorRole: 'freelancer' }),
    ]);
    expect(buyerPage.body.reputation).toMatchObject({ buyerReviews: 1, buyerRatingSum: 4, completedAsBuyer: 1 });
    const sellerPage = await profileOf(stranger, work.seller.user.username);
    expect(sellerPage.body.reviews).toEqual([expect.objectContaining({ id: second.id, rating: 5 })]);
    expect(sellerPage.body.reputation).toMatchObject({
      freelancerReviews: 1,
      freelancerRatingSum: 5,
      completedAsFreelancer: 1,
    });
    // Both reputations reached both sides, on the two profiles, and both were told.
    const profiles = await docsOf(work.seller, 'users');
    expect(profiles.find((u) => u.id === work.seller.user.id)?.reputation).toMatchObject({ freelancerReviews: 1 });
    expect(profiles.find((u) => u.id === work.buyer.user.id)?.reputation).toMatchObject({ buyerReviews: 1 });
    expect(await notesOf(work.seller, 'REVIEW_PUBLISHED')).toHaveLength(1);
    expect(await notesOf(work.buyer, 'REVIEW_PUBLISHED')).toHaveLength(1);
  });
});

describe('refused reviews', () => {
  it('a second review by the same side, an edit once published, a deletion', async () => {
    const work = await completedWork();
    const first = reviewBy(work, 3);
    const stored = (await write(work.seller.http, 'reviews', first)).master!;
    expect((await write(work.seller.http, 'reviews', reviewBy(work, 1))).refusal).toBe(REVIEW_MESSAGES.alreadyReviewed);

    // Before publication the author may still change it …
    const edited = await write(work.seller.http, 'reviews', { ...stored, rating: 4 }, stored);
    expect(edited.refusal).toBeUndefined();
    expect(edited.master).toMatchObject({ rating: 4 });
    // … never another field, and after publication nothing.
    const forged = await write(
      work.seller.http,
      'reviews',
      { ...edited.master, subjectId: work.seller.user.id },
      edited.master,
    );
    expect(forged.refusal).toBe('The field subjectId cannot be changed.');
    await write(work.buyer.http, 'reviews', reviewBy(work));
    const published = (await docsOf(work.seller, 'reviews')).find((r) => r.id === first.id)!;
    const late = await write(work.seller.http, 'reviews', { ...published, rating: 1 }, published);
    expect(late.refusal).toBe(REVIEW_MESSAGES.published);
    const gone = await write(work.seller.http, 'reviews', { ...published, _deleted: true }, published);
    expect(gone.refusal).toBe(REVIEW_MESSAGES.notDeletable);
    expect(server.ctx.store.get('reviews', String(first.id))).toMatchObject({ rating: 4, _deleted: false });
  });

  it('outside the window: before completion, and once 14 days have passed', async () => {
    const [buyer, seller] = await Promise.all([person(server.url), person(server.url)]);
    const gig = (await write(buyer.http, 'gigs', gigDoc())).master!;
    const app = await applyTo(seller, String(gig.id));
    await offerAndAccept(buyer.http, seller.http, app, 0);
    const early = await write(seller.http, 'reviews', {
      id: randomId(),
      applicationId: app.id,
      rating: 5,
      text: 'Lovely to work with so far, truly.',
    });
    expect(early.refusal).toBe(REVIEW_MESSAGES.notCompleted);

    const work = await completedWork();
    clock = work.completedAt + REVIEW_WINDOW_MS;
    expect((await write(work.seller.http, 'reviews', reviewBy(work))).refusal).toBe(REVIEW_MESSAGES.windowClosed);
    clock = work.completedAt + REVIEW_WINDOW_MS - 1;
    expect((await write(work.seller.http, 'reviews', reviewBy(work))).refusal).toBeUndefined();
  });

  it('by a third user: neither a review of work that is not theirs, nor a reply, nor an edit', async () => {
    const work = await completedWork();
    const stranger = await person(server.url, { name: 'Stan Stranger' });
    expect((await write(stranger.http, 'reviews', reviewBy(work, 1))).refusal).toBe(REVIEW_MESSAGES.notParty);
    expect((await write(stranger.http, 'reviews', { ...reviewBy(work), applicationId: 'nothing.here1' })).refusal).toBe(
      REVIEW_MESSAGES.notParty,
    );
    const review = (await write(work.seller.http, 'reviews', reviewBy(work))).master!;
    await write(work.buyer.http, 'reviews', reviewBy(work));
    const published = server.ctx.store.get('reviews', String(review.id))!;
    const { _seq: _s, ...shown } = published;
    for (const change of [{ reply: 'Not my review to answer.' }, { rating: 1 }]) {
      const { refusal } = await write(stranger.http, 'reviews', { ...shown, ...change }, shown);
      expect(refusal).toBe('You do not have access to this document.');
    }
    expect(server.ctx.store.get('reviews', String(review.id))).toMatchObject({ reply: null, rating: 5 });
    expect(await reviewsSeenBy(stranger)).toEqual([]);
  });

  it('by its subject before it is published: a reply or an edit of a review they may not read yet', async () => {
    const work = await completedWork();
    const review = (await write(work.seller.http, 'reviews', reviewBy(work, 2))).master!;
    const waiting = server.ctx.store.get('reviews', String(review.id))!;
    expect(waiting.publishedAt).toBeNull();
    const { _seq: _s, ...shown } = waiting;
    for (const change of [{ reply: 'I would like to answer this.' }, { rating: 5 }, { publishedAt: clock }]) {
      const { refusal } = await write(work.buyer.http, 'reviews', { ...shown, ...change }, shown);
      expect(refusal).toBe('You do not have access to this document.');
    }
    expect(server.ctx.store.get('reviews', String(review.id))).toMatchObject({
      reply: null,
      rating: 2,
      publishedAt: null,
    });
    expect(await reviewsSeenBy(work.buyer)).toEqual([]);
  });

  it('a reputation is the server’s to write: a profile pushed with another is stored with the server’s', async () => {
    const work = await completedWork();
    await server.timers.runDue();
    const own = (await docsOf(work.buyer, 'users')).find((u) => u.id === work.buyer.user.id)!;
    expect(own.reputation).toMatchObject({ buyerReviews: 0, completedAsBuyer: 1 });
    const forged = { ...(own.reputation as object), buyerReviews: 99, buyerRatingSum: 495 };
    const { refusal, master } = await write(work.buyer.http, 'users', { ...own, reputation: forged, bio: 'Hi' }, own);
    expect(refusal).toBeUndefined();
    expect(master).toMatchObject({
      bio: 'Hi',
      reputation: { buyerReviews: 0, buyerRatingSum: 0, completedAsBuyer: 1 },
    });
  });
});

describe('the window’s timers', () => {
  it('request at completion, remind 3 days before the end, publish a lone review when the window closes', async () => {
    const work = await completedWork();
    await server.timers.runDue();
    expect(await notesOf(work.buyer, 'REVIEW_REQUESTED')).toEqual([
      expect.objectContaining({ applicationId: work.applicationId, senderId: work.seller.user.id }),
    ]);
    expect(await notesOf(work.seller, 'REVIEW_REQUESTED')).toHaveLength(1);

    const lone = reviewBy(work, 5, 'Thoughtful buyer, clear feedback, fair.');
    await write(work.seller.http, 'reviews', lone);
    clock = work.completedAt + REVIEW_WINDOW_MS - 3 * DAY - 1;
    await server.timers.runDue();
    expect(await notesOf(work.buyer, 'REVIEW_REMINDER')).toEqual([]);
    clock += 1;
    await server.timers.runDue();
    await server.timers.runDue();
    // Only the side that has not written is reminded, once.
    expect(await notesOf(work.buyer, 'REVIEW_REMINDER')).toHaveLength(1);
    expect(await notesOf(work.seller, 'REVIEW_REMINDER')).toEqual([]);
    expect(await reviewsSeenBy(work.buyer)).toEqual([]);

    clock = work.completedAt + REVIEW_WINDOW_MS;
    await server.timers.runDue();
    expect((await docsOf(work.buyer, 'reviews')).map((r) => [r.id, r.publishedAt])).toEqual([[lone.id, clock]]);
    expect(await notesOf(work.buyer, 'REVIEW_PUBLISHED')).toHaveLength(1);
    expect((await profileOf(work.seller, work.buyer.user.username)).body.reputation).toMatchObject({
      buyerReviews: 1,
      buyerRatingSum: 5,
    });
    // The requests were written once, however many looks.
    expect(await notesOf(work.buyer, 'REVIEW_REQUESTED')).toHaveLength(1);
  });
});

describe('replies', () => {
  it('the reviewed person replies once, up to 500 characters; the author cannot', async () => {
    const work = await completedWork();
    const aboutBuyer = (await write(work.seller.http, 'reviews', reviewBy(work, 4))).master!;
    await write(work.buyer.http, 'reviews', reviewBy(work));
    const seen = (await docsOf(work.buyer, 'reviews')).find((r) => r.id === aboutBuyer.id)!;
    expect((await write(work.buyer.http, 'reviews', { ...seen, reply: 'x'.repeat(501) }, seen)).refusal).toBe(
      REVIEW_MESSAGES.replyTooLong,
    );
    const byAuthor = await write(work.seller.http, 'reviews', { ...seen, reply: 'Replying to myself.' }, seen);
    expect(byAuthor.refusal).toBe(REVIEW_MESSAGES.published);
    const replied = await write(
      work.buyer.http,
      'reviews',
      { ...seen, reply: '  Thank you, it was a pleasure!  ' },
      seen,
    );
    expect(replied.refusal).toBeUndefined();
    expect(replied.master).toMatchObject({ reply: 'Thank you, it was a pleasure!', repliedAt: clock });
    const again = await write(
      work.buyer.http,
      'reviews',
      { ...replied.master, reply: 'Changed my mind.' },
      replied.master,
    );
    expect(again.refusal).toBe(REVIEW_MESSAGES.alreadyReplied);
    const page = await profileOf(work.seller, work.buyer.user.username);
    expect(page.body.reviews[0]).toMatchObject({ reply: 'Thank you, it was a pleasure!' });
  });
});

describe('public profiles', () => {
  it('signed in only; unknown names are 404; never an email or payout detail; newest first in pages', async () => {
    const work = await completedWork({ buyer: 'Pia Pages', seller: 'Sam First' }, 'First poster');
    expect((await new TestClient(server.url).get(`/api/profiles/${String(work.buyer.user.username)}`)).status).toBe(
      401,
    );
    expect((await profileOf(work.seller, 'nobody-has-this-name')).status).toBe(404);
    expect((await profileOf(work.seller, '__proto__')).status).toBe(404);
    expect((await profileOf(work.seller, 'toString')).status).toBe(404);
    expect(
      (await work.seller.http.get(`/api/profiles/${String(work.buyer.user.username)}?before=nonsense`)).status,
    ).toBe(400);

    // 23 more reviews of Pia, each from its own freelancer, a minute apart.
    const reviewers: Person[] = [work.seller];
    await write(work.seller.http, 'reviews', reviewBy(work, 3, 'Review number 0 of Pia the buyer.'));
    await write(work.buyer.http, 'reviews', reviewBy(work));
    for (let i = 1; i < 23; i += 1) {
      const seller = await person(server.url, { name: `Seller ${i}` });
      reviewers.push(seller);
      const gig = (await write(work.buyer.http, 'gigs', gigDoc({ title: `Poster ${i}` }))).master!;
      const app = await applyTo(seller, String(gig.id));
      await offerAndAccept(work.buyer.http, seller.http, app, 0);
      await work.buyer.http.post('/api/gigs/complete-gig', {
        gigId: gig.id,
        applicationId: app.id,
        userId: work.buyer.user.id,
        userType: 'buyer',
      });
      clock += 60_000;
      const w = { ...work, seller, applicationId: String(app.id) };
      await write(seller.http, 'reviews', reviewBy(w, 5, `Review number ${i} of Pia the buyer.`));
      await write(work.buyer.http, 'reviews', reviewBy(w));
    }
    const first = await profileOf(work.seller, String(work.buyer.user.username).toUpperCase());
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body)).not.toContain(work.buyer.user.email);
    expect(JSON.stringify(first.body)).not.toMatch(/stripe|payout|email/i);
    expect(first.body.profile).toMatchObject({
      id: work.buyer.user.id,
      name: 'Pia Pages',
      username: work.buyer.user.username,
    });
    expect(first.body.reputation).toMatchObject({ buyerReviews: 23, buyerRatingSum: 3 + 22 * 5, completedAsBuyer: 23 });
    expect(first.body.reviews).toHaveLength(20);
    expect(first.body.reviews[0]!.text).toBe('Review number 22 of Pia the buyer.');
    expect(first.body.reviews[0]!.authorUsername).toBe(reviewers[22]!.user.username);
    const next = await work.seller.http.get<ProfilePage>(
      `/api/profiles/${String(work.buyer.user.username)}?before=${first.body.nextBefore}`,
    );
    expect(next.body.reviews.map((r) => r.text)).toEqual([
      'Review number 2 of Pia the buyer.',
      'Review number 1 of Pia the buyer.',
      'Review number 0 of Pia the buyer.',
    ]);
    expect(next.body.nextBefore).toBeNull();
  });

  it('a member without a completed profile has no page', async () => {
    const client = new TestClient(server.url);
    const { signUp } = await import('../support/fixtures');
    await signUp(client, { name: 'No Profile' });
    const reader = await person(server.url);
    expect((await profileOf(reader, 'No Profile')).status).toBe(404);
  });
});

describe('usernames name one member', () => {
  it('a username taken by another member, in any case, is refused; a released one is free again', async () => {
    const ada = await person(server.url, { username: `Ada${randomId().slice(0, 6)}` });
    const other = await person(server.url);
    const own = (await docsOf(other, 'users')).find((u) => u.id === other.user.id)!;
    const taken = await write(
      other.http,
      'users',
      { ...own, username: ` ${String(ada.user.username).toLowerCase()} ` },
      own,
    );
    expect(taken.refusal).toBe('This username is taken. Please choose another.');

    const mine = (await docsOf(ada, 'users')).find((u) => u.id === ada.user.id)!;
    const renamed = await write(ada.http, 'users', { ...mine, username: `${String(ada.user.username)}-studio` }, mine);
    expect(renamed.refusal).toBeUndefined();
    expect((await profileOf(other, ada.user.username)).status).toBe(404);
    expect((await profileOf(other, `${String(ada.user.username)}-studio`)).body.profile).toMatchObject({
      id: ada.user.id,
    });
    const freed = await write(other.http, 'users', { ...own, username: ada.user.username }, own);
    expect(freed.refusal).toBeUndefined();
    // Any characters name a member: the address escapes them, the server reads them back.
    const odd = await person(server.url, { username: `Zoë / Studio ?#% ${randomId().slice(0, 4)}` });
    const page = await profileOf(other, odd.user.username);
    expect(page.status).toBe(200);
    expect(page.body.profile).toMatchObject({ id: odd.user.id, username: odd.user.username });
  });
});

describe('who sees a public profile, with its reputation', () => {
  it('its member, the people an application links them with, and everyone once they have a gig on the board', async () => {
    const [bea, sol, stan] = await Promise.all([person(server.url), person(server.url), person(server.url)]);
    const ids = async (p: Person) => (await docsOf(p, 'users')).map((r) => r.id);
    expect(await ids(bea)).toContain(bea.user.id);
    expect(await ids(stan)).not.toContain(bea.user.id);
    const gig = (await write(bea.http, 'gigs', gigDoc())).master!;
    expect(await ids(stan)).toContain(bea.user.id);
    expect(await ids(bea)).not.toContain(sol.user.id);
    await applyTo(sol, String(gig.id));
    expect(await ids(bea)).toContain(sol.user.id);
    expect(await ids(stan)).not.toContain(sol.user.id);
  });
});

describe('a store from before reviews', () => {
  it('start-up gives each username to the oldest account using it and each completed profile its reputation, once', async () => {
    const name = `old${randomId().slice(0, 8)}`;
    const profile = (id: string, createdAt: number) => ({
      collection: 'users' as const,
      doc: {
        id,
        name: `Member ${id}`,
        username: createdAt === 1 ? name : name.toUpperCase(),
        location: 'CA',
        creativeNiche: 'media',
        subcategory: 'Editing',
        portfolioLink: 'https://example.com/p',
        createdAt,
        updatedAt: createdAt,
        _deleted: false,
      },
    });
    const [older, newer] = [`older${randomId().slice(0, 8)}`, `newer${randomId().slice(0, 8)}`];
    await server.ctx.store.commit([profile(newer, 2), profile(older, 1)]);
    expect(await settleReputations(server.ctx.store, clock)).toBeGreaterThanOrEqual(3);
    expect(server.ctx.store.get('usernames', `username:${name}`)).toMatchObject({ userId: older });
    for (const id of [older, newer])
      expect(server.ctx.store.get('users', id)?.reputation).toEqual({
        freelancerReviews: 0,
        freelancerRatingSum: 0,
        buyerReviews: 0,
        buyerRatingSum: 0,
        completedAsFreelancer: 0,
        completedAsBuyer: 0,
      });
    expect(await settleReputations(server.ctx.store, clock)).toBe(0);
    const reader = await person(server.url);
    expect((await profileOf(reader, name.toUpperCase())).body.profile).toMatchObject({ id: older });
  });
});
