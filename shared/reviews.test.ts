import { describe, expect, it } from 'vitest';
import {
  checkNewReview,
  dueForPublication,
  isWindowOpen,
  replicatesReviewTo,
  opensReviews,
  replyError,
  REVIEW_MESSAGES,
  REVIEW_REMINDER_BEFORE_MS,
  REVIEW_WINDOW_MS,
  reviewPublished,
  reviewReceived,
  reviewReminder,
  reviewRequested,
  reviewRoleOf,
  reviewStage,
  reviewWindowOf,
  subjectOf,
  validateReview,
  waitingLabel,
  type ReviewedWork,
} from './reviews';

const DAY = 86_400_000;
const T = Date.UTC(2026, 10, 25, 12); // 25 November 2026, 12:00 UTC

const work = (overrides: Partial<ReviewedWork> = {}): ReviewedWork => ({
  id: 'gig-one1.freelancer1',
  status: 'COMPLETED',
  completedAt: T,
  creatorId: 'buyer-one1',
  creatorName: 'Bea Buyer',
  applicantId: 'freelancer1',
  applicantName: 'Finn Freelancer',
  gigId: 'gig-one1',
  gigTitle: 'Tour poster',
  ...overrides,
});

describe('the review window (14 days from completion)', () => {
  it('[W1] only completed work with a completion date opens reviews (the one predicate to extend)', () => {
    expect(opensReviews(work())).toBe(true);
    for (const status of ['PENDING', 'PENDING_ACCEPTANCE', 'PENDING_PAYMENT', 'IN_PROGRESS', 'REJECTED', 'CLOSED'])
      expect(opensReviews(work({ status: status as never }))).toBe(false);
    expect(opensReviews(work({ completedAt: null }))).toBe(false);
    // A dispute split by an operator paid the freelancer part: reviews open; a full refund does not.
    expect(opensReviews(work({ status: 'SPLIT' }))).toBe(true);
    expect(opensReviews(work({ status: 'REFUNDED' }))).toBe(false);
  });

  it('[W2] opens at completion, reminds 3 days before the end, closes 14 days after', () => {
    expect(reviewWindowOf(work())).toEqual({
      opensAt: T,
      closesAt: T + 14 * DAY,
      remindAt: T + 11 * DAY,
    });
    expect(REVIEW_WINDOW_MS).toBe(14 * DAY);
    expect(REVIEW_REMINDER_BEFORE_MS).toBe(3 * DAY);
    expect(reviewWindowOf(work({ status: 'IN_PROGRESS' }))).toBeUndefined();
  });

  it.each([
    [T - 1, false],
    [T, true],
    [T + 14 * DAY - 1, true],
    [T + 14 * DAY, false],
  ])('[W3] at %i the window is open: %s', (now, open) => {
    expect(isWindowOpen(work(), now)).toBe(open);
  });

  it('[W4] the author reads the window’s end as a day: "Waiting for the other side or for 9 December"', () => {
    const closesAt = new Date(2026, 11, 9, 15).getTime();
    expect(waitingLabel(closesAt)).toBe('Waiting for the other side or for 9 December');
  });
});

describe('who may write a review', () => {
  it('[R1] each side reviews the other: the buyer rates the freelancer and the other way round', () => {
    expect(reviewRoleOf(work(), 'buyer-one1')).toBe('buyer');
    expect(reviewRoleOf(work(), 'freelancer1')).toBe('freelancer');
    expect(reviewRoleOf(work(), 'stranger01')).toBeUndefined();
    expect(subjectOf(work(), 'buyer')).toEqual({ id: 'freelancer1', name: 'Finn Freelancer' });
    expect(subjectOf(work(), 'freelancer')).toEqual({ id: 'buyer-one1', name: 'Bea Buyer' });
  });

  it.each([
    ['a third user', { actorId: 'stranger01' }, REVIEW_MESSAGES.notParty],
    ['unknown work', { work: undefined }, REVIEW_MESSAGES.notParty],
    ['work in progress', { work: work({ status: 'IN_PROGRESS', completedAt: null }) }, REVIEW_MESSAGES.notCompleted],
    ['after the window', { now: T + 14 * DAY }, REVIEW_MESSAGES.windowClosed],
    ['a second review by one side', { existing: [{ authorId: 'freelancer1' }] }, REVIEW_MESSAGES.alreadyReviewed],
  ])('[R2] refuses %s', (_label, overrides, error) => {
    const input = { work: work(), actorId: 'freelancer1', existing: [], now: T + DAY, ...overrides };
    expect(checkNewReview(input)).toEqual({ ok: false, error });
  });

  it('[R3] accepts each side once, the other side’s review notwithstanding', () => {
    expect(
      checkNewReview({ work: work(), actorId: 'buyer-one1', existing: [{ authorId: 'freelancer1' }], now: T }),
    ).toEqual({ ok: true, role: 'buyer', closesAt: T + 14 * DAY });
  });

  it.each([
    [{ rating: null, text: 'A thoughtful and generous buyer.' }, { rating: REVIEW_MESSAGES.ratingRequired }],
    [{ rating: 0, text: 'A thoughtful and generous buyer.' }, { rating: REVIEW_MESSAGES.ratingRequired }],
    [{ rating: 3.5, text: 'A thoughtful and generous buyer.' }, { rating: REVIEW_MESSAGES.ratingRequired }],
    [{ rating: 6, text: 'A thoughtful and generous buyer.' }, { rating: REVIEW_MESSAGES.ratingRequired }],
    [{ rating: 5, text: '   ' }, { text: REVIEW_MESSAGES.textRequired }],
    [{ rating: 5, text: ' nineteen characters ' }, { text: REVIEW_MESSAGES.textTooShort }],
    [{ rating: 5, text: 'x'.repeat(1001) }, { text: REVIEW_MESSAGES.textTooLong }],
    [{ rating: 1, text: 'twenty characters ok' }, {}],
    [{ rating: 5, text: `  ${'x'.repeat(1000)}  ` }, {}],
    // Counted in UTF-16 units, as the form's counter and the stored field count: ten emoji are 20.
    [{ rating: 5, text: '🎨'.repeat(10) }, {}],
    [{ rating: 5, text: '🎨'.repeat(9) }, { text: REVIEW_MESSAGES.textTooShort }],
    [{ rating: 5, text: '🎨'.repeat(501) }, { text: REVIEW_MESSAGES.textTooLong }],
  ])('[R4] %j → %j', (input, errors) => {
    expect(validateReview(input)).toEqual(errors);
  });

  it('[R5] a reply is 1 to 500 characters, trimmed', () => {
    expect(replyError('  ')).toBe(REVIEW_MESSAGES.replyRequired);
    expect(replyError('x'.repeat(501))).toBe(REVIEW_MESSAGES.replyTooLong);
    expect(replyError(` ${'x'.repeat(500)} `)).toBeUndefined();
  });
});

describe('the blind rule', () => {
  const review = { authorId: 'freelancer1', subjectId: 'buyer-one1', windowClosesAt: T + 14 * DAY };

  it('[B1] before publication a review replicates to its author only; once published, to its subject too, never to anyone else', () => {
    const waiting = { ...review, publishedAt: null };
    expect(['freelancer1', 'buyer-one1', 'stranger01'].map((u) => replicatesReviewTo(waiting, u))).toEqual([
      true,
      false,
      false,
    ]);
    const published = { ...review, publishedAt: T + DAY };
    expect(['freelancer1', 'buyer-one1', 'stranger01'].map((u) => replicatesReviewTo(published, u))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('[B2] a review still waiting when the window closes is due for publication, not before', () => {
    expect(dueForPublication({ ...review, publishedAt: null }, T + 14 * DAY - 1)).toBe(false);
    expect(dueForPublication({ ...review, publishedAt: null }, T + 14 * DAY)).toBe(true);
    expect(dueForPublication({ ...review, publishedAt: T + DAY }, T + 20 * DAY)).toBe(false);
  });

  it('[B3] what each side’s panel shows through the window', () => {
    const stage = (overrides: Partial<Parameters<typeof reviewStage>[0]>) =>
      reviewStage({
        work: work(),
        userId: 'buyer-one1',
        mine: undefined,
        theirs: undefined,
        otherWrote: false,
        now: T + DAY,
        ...overrides,
      }).kind;
    expect(stage({ work: work({ status: 'IN_PROGRESS', completedAt: null }) })).toBe('not-open');
    expect(stage({ userId: 'stranger01' })).toBe('not-open');
    expect(stage({})).toBe('write');
    expect(
      reviewStage({ work: work(), userId: 'buyer-one1', mine: undefined, theirs: undefined, otherWrote: true, now: T }),
    ).toEqual({ kind: 'write', closesAt: T + 14 * DAY, otherWrote: true });
    expect(stage({ mine: { publishedAt: null } })).toBe('waiting');
    // Their own review stays editable while the window is open, not once it has closed (the
    // server is about to publish it as it is).
    const waiting = (now: number) =>
      reviewStage({
        work: work(),
        userId: 'buyer-one1',
        mine: { publishedAt: null },
        theirs: undefined,
        otherWrote: false,
        now,
      });
    expect(waiting(T + 14 * DAY - 1)).toEqual({ kind: 'waiting', closesAt: T + 14 * DAY, editable: true });
    expect(waiting(T + 14 * DAY)).toEqual({ kind: 'waiting', closesAt: T + 14 * DAY, editable: false });
    expect(stage({ mine: { publishedAt: T + DAY } })).toBe('published');
    expect(stage({ now: T + 14 * DAY })).toBe('closed');
    expect(stage({ now: T + 14 * DAY, theirs: { publishedAt: T + 14 * DAY } })).toBe('published');
  });
});

describe('review notifications', () => {
  const parties = { buyer: { id: 'buyer-one1', name: 'Bea Buyer' }, freelancer: { id: 'freelancer1', name: 'Finn' } };

  it('[N1] say who and which gig in quotation marks, and carry the work for the click', () => {
    const n = reviewRequested({ work: work(), to: parties.buyer, other: parties.freelancer });
    expect(n).toMatchObject({
      userId: 'buyer-one1',
      type: 'REVIEW_REQUESTED',
      senderId: 'freelancer1',
      applicationId: 'gig-one1.freelancer1',
      gigId: 'gig-one1',
    });
    expect(n.message).toBe(
      'How did “Tour poster” go? Review “Finn” within 14 days: both reviews appear together once you have both written yours.',
    );
    expect(reviewReceived({ work: work(), to: parties.buyer, other: parties.freelancer }).message).toBe(
      '“Finn” reviewed your work on “Tour poster”. Write your review to read theirs: both appear together.',
    );
    expect(reviewPublished({ work: work(), to: parties.buyer, other: parties.freelancer }).message).toBe(
      'The review “Finn” wrote about you for “Tour poster” is now on your profile.',
    );
    expect(reviewReminder({ work: work(), to: parties.buyer, other: parties.freelancer })).toMatchObject({
      userId: 'buyer-one1',
      type: 'REVIEW_REMINDER',
      message: '3 days left to review “Finn” for “Tour poster”.',
    });
  });
});
