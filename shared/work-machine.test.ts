import { describe, expect, it } from 'vitest';
import { eventFromChange, lateMoveRefusal, transition, type ApplicationEvent } from './application-machine';
import { APPLICATION_STATUSES, DAY_MS, type ApplicationStatus } from './constants';
import { SYSTEM_ACTOR, type Actor } from './machine-types';
import type { Application } from './schemas/application';
import { WORK_MACHINE_MESSAGES as M, startSettlement } from './work-machine';
import { WORK_MESSAGES } from './validation/work';

/** Issue 15 (docs/decisions/031-money-nobody-strands.md): every new move, by the right party, refused for every other. */

const CREATOR: Actor = { id: 'creator-1', name: 'Cora Creator' };
const APPLICANT: Actor = { id: 'applicant-1', name: 'Abe Applicant' };
const STRANGER: Actor = { id: 'stranger-1', name: 'Stan Stranger' };
const OPERATOR: Actor = { id: 'operator-1', name: 'Opal Operator', operator: true };
const GIG = { id: 'gig-00001', createdBy: CREATOR.id, title: 'Mural' };
const NOW = 1_800_000_000_000;
const SETTINGS = { autoReleaseMs: 14 * DAY_MS };

/** Paid work (45,000 minor units) in `status`, with what that status carries. */
function app(status: ApplicationStatus, overrides: Partial<Application> = {}): Application {
  const paid = ![
    'PENDING',
    'PENDING_ACCEPTANCE',
    'PENDING_PAYMENT',
    'REJECTED',
    'CLOSED',
    'WITHDRAWN',
    'CANCELLED',
  ].includes(status);
  const base: Application = {
    id: `${GIG.id}.${APPLICANT.id}`,
    gigId: GIG.id,
    gigTitle: 'Mural',
    gigCategory: 'Visual Art',
    creatorId: CREATOR.id,
    creatorName: CREATOR.name,
    applicantId: APPLICANT.id,
    applicantName: APPLICANT.name,
    applicantPortfolioLink: '',
    budget: 50000,
    currency: 'CAD',
    status,
    appliedAt: 1,
    finalBudget: ['PENDING', 'REJECTED', 'CLOSED', 'WITHDRAWN'].includes(status) ? null : 45000,
    startedAt: paid ? 5 : null,
    completedAt: null,
    paymentConfirmedAt: paid ? 5 : null,
    updatedAt: 10,
  };
  if (status === 'DELIVERED')
    Object.assign(base, {
      submissions: [{ note: 'First cut', submittedAt: 100 }],
      deliveredAt: 100,
      autoReleaseAt: NOW - 1,
    });
  if (status === 'CANCELLATION_REQUESTED') base.cancellation = { requestedAt: 50, refusedAt: null };
  if (status === 'DISPUTED') base.dispute = { by: 'buyer', reason: 'Nothing arrived', openedAt: 60 };
  if (status === 'SETTLING' || status === 'SETTLEMENT_FAILED')
    Object.assign(base, startSettlement({ ...base, status: 'DISPUTED' }, 'refund', 'operator', 0, 70), { status });
  return { ...base, ...overrides };
}

const EVENTS: [string, ApplicationEvent][] = [
  ['SUBMIT_WORK', { type: 'SUBMIT_WORK', note: 'Here it is', link: 'https://files.example/mural.png' }],
  ['REQUEST_CHANGES', { type: 'REQUEST_CHANGES', note: 'Warmer colours, please' }],
  ['WITHDRAW_APPLICATION', { type: 'WITHDRAW_APPLICATION' }],
  ['WITHDRAW_OFFER', { type: 'WITHDRAW_OFFER' }],
  ['CANCEL', { type: 'CANCEL' }],
  ['REQUEST_CANCELLATION', { type: 'REQUEST_CANCELLATION', note: 'Plans changed' }],
  ['REFUSE_CANCELLATION', { type: 'REFUSE_CANCELLATION' }],
  ['OPEN_DISPUTE', { type: 'OPEN_DISPUTE', reason: 'Not what we agreed' }],
  ['AUTO_RELEASE', { type: 'AUTO_RELEASE' }],
  ['CANCEL_PAID', { type: 'CANCEL_PAID' }],
  ['RESOLVE refund', { type: 'RESOLVE', outcome: 'refund' }],
  ['RESOLVE release', { type: 'RESOLVE', outcome: 'release' }],
  ['RESOLVE split', { type: 'RESOLVE', outcome: 'split', freelancerBase: 20000 }],
  ['REFUND_LATE_PAYMENT', { type: 'REFUND_LATE_PAYMENT' }],
  ['SETTLED', { type: 'SETTLED' }],
  ['SETTLEMENT_REFUSED', { type: 'SETTLEMENT_REFUSED', failure: 'card_declined' }],
  ['RETRY_SETTLEMENT', { type: 'RETRY_SETTLEMENT' }],
  ['COMPLETE', { type: 'COMPLETE' }],
];
const ACTORS = { creator: CREATOR, applicant: APPLICANT, stranger: STRANGER, operator: OPERATOR, system: SYSTEM_ACTOR };

/** The only allowed (status, event, actor) triples of the new moves; everything else is refused. */
const ALLOWED = new Set([
  'IN_PROGRESS/SUBMIT_WORK/applicant',
  'DELIVERED/SUBMIT_WORK/applicant',
  'DELIVERED/REQUEST_CHANGES/creator',
  'PENDING/WITHDRAW_APPLICATION/applicant',
  'CLOSED/WITHDRAW_APPLICATION/applicant',
  'PENDING_ACCEPTANCE/WITHDRAW_OFFER/creator',
  'PENDING_PAYMENT/CANCEL/creator',
  'PENDING_PAYMENT/CANCEL/applicant',
  'IN_PROGRESS/REQUEST_CANCELLATION/creator',
  'CANCELLATION_REQUESTED/REFUSE_CANCELLATION/applicant',
  ...['IN_PROGRESS', 'DELIVERED', 'CANCELLATION_REQUESTED'].flatMap((s) => [
    `${s}/OPEN_DISPUTE/creator`,
    `${s}/OPEN_DISPUTE/applicant`,
  ]),
  'DELIVERED/AUTO_RELEASE/system',
  'IN_PROGRESS/CANCEL_PAID/applicant',
  'CANCELLATION_REQUESTED/CANCEL_PAID/applicant',
  // The fixture's dispute is on work never submitted: the freelancer may still cancel it with a full refund.
  'DISPUTED/CANCEL_PAID/applicant',
  'DISPUTED/RESOLVE refund/operator',
  'DISPUTED/RESOLVE release/operator',
  'DISPUTED/RESOLVE split/operator',
  'CANCELLED/REFUND_LATE_PAYMENT/system',
  'SETTLING/SETTLED/system',
  'SETTLING/SETTLEMENT_REFUSED/system',
  'SETTLEMENT_FAILED/RETRY_SETTLEMENT/creator',
  'SETTLEMENT_FAILED/RETRY_SETTLEMENT/applicant',
  'SETTLEMENT_FAILED/RETRY_SETTLEMENT/operator',
  'IN_PROGRESS/COMPLETE/creator',
  'DELIVERED/COMPLETE/creator',
]);

describe('[issue 15] every new move by the right party, refused for every other', () => {
  const cases = APPLICATION_STATUSES.flatMap((s) =>
    EVENTS.flatMap(([name, e]) => Object.keys(ACTORS).map((who) => [s, name, who, e] as const)),
  );
  it.each(cases)('%s + %s by the %s', (status, name, who, event) => {
    const r = transition({
      actor: ACTORS[who as keyof typeof ACTORS],
      application: app(status),
      gig: GIG,
      event,
      now: NOW,
      settings: SETTINGS,
    });
    if (ALLOWED.has(`${status}/${name}/${who}`)) expect(r.ok, r.ok ? '' : r.error).toBe(true);
    else {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.length).toBeGreaterThan(5);
    }
  });
});

const run = (actor: Actor, a: Application, event: ApplicationEvent) =>
  transition({ actor, application: a, gig: GIG, event, now: NOW, settings: SETTINGS });

describe('[issue 15] delivery', () => {
  it('Submit work: → DELIVERED, the submission kept with the server time, the release date set, the buyer told WORK_DELIVERED', () => {
    const r = run(APPLICANT, app('IN_PROGRESS'), {
      type: 'SUBMIT_WORK',
      note: '  Final files  ',
      link: 'https://x.example/f',
    });
    expect(r).toMatchObject({
      ok: true,
      changes: {
        status: 'DELIVERED',
        submissions: [{ note: 'Final files', link: 'https://x.example/f', submittedAt: NOW }],
        deliveredAt: NOW,
        autoReleaseAt: NOW + 14 * DAY_MS,
      },
    });
    if (r.ok)
      expect(r.notifications).toEqual([
        expect.objectContaining({
          userId: CREATOR.id,
          type: 'WORK_DELIVERED',
          message:
            'Work delivered by “Abe Applicant” for “Mural”. Approve it or request changes: it is released automatically after 14 days.',
        }),
      ]);
  });

  it('a second submission is appended in order and restarts the release date', () => {
    const later = NOW + 1000;
    const r = transition({
      actor: APPLICANT,
      application: app('DELIVERED'),
      gig: GIG,
      event: { type: 'SUBMIT_WORK', note: 'Second cut' },
      now: later,
      settings: SETTINGS,
    });
    expect(r.ok && r.changes.submissions!.map((s) => s.note)).toEqual(['First cut', 'Second cut']);
    expect(r.ok && r.changes.autoReleaseAt).toBe(later + 14 * DAY_MS);
  });

  it.each([
    [{ note: '' }, WORK_MESSAGES.submissionNoteRequired],
    [{ note: '   ' }, WORK_MESSAGES.submissionNoteRequired],
    [{ note: 'x'.repeat(2001) }, WORK_MESSAGES.noteTooLong],
    [{ note: 'ok', link: 'javascript:alert(1)' }, 'Please enter a valid URL'],
    [{ note: 'ok', link: 'ftp://files.example' }, 'Please enter a valid URL'],
  ])('a submission %j is refused: %s', (input, error) => {
    expect(run(APPLICANT, app('IN_PROGRESS'), { type: 'SUBMIT_WORK', ...input })).toMatchObject({ ok: false, error });
  });

  it('a note of exactly 2,000 characters is accepted; a 21st submission is refused', () => {
    expect(run(APPLICANT, app('IN_PROGRESS'), { type: 'SUBMIT_WORK', note: 'x'.repeat(2000) }).ok).toBe(true);
    const full = app('DELIVERED', {
      submissions: Array.from({ length: 20 }, (_, i) => ({ note: `v${i}`, submittedAt: i })),
    });
    expect(run(APPLICANT, full, { type: 'SUBMIT_WORK', note: 'one more' })).toMatchObject({
      ok: false,
      error: WORK_MESSAGES.tooManySubmissions,
    });
  });

  it('Request changes: → IN_PROGRESS, the note on the latest submission, the release date cleared; CHANGES_REQUESTED to the freelancer', () => {
    const r = run(CREATOR, app('DELIVERED'), { type: 'REQUEST_CHANGES', note: 'Warmer colours' });
    expect(r).toMatchObject({
      ok: true,
      changes: {
        status: 'IN_PROGRESS',
        autoReleaseAt: null,
        submissions: [{ note: 'First cut', changesRequested: { note: 'Warmer colours', at: NOW } }],
      },
    });
    if (r.ok) expect(r.notifications[0]).toMatchObject({ userId: APPLICANT.id, type: 'CHANGES_REQUESTED' });
    expect(run(CREATOR, app('DELIVERED'), { type: 'REQUEST_CHANGES', note: ' ' })).toMatchObject({
      ok: false,
      error: WORK_MESSAGES.changesNoteRequired,
    });
  });

  it('Approve and pay on delivered work claims the money for the release (SETTLING), 90% to the freelancer', () => {
    const r = run(CREATOR, app('DELIVERED'), { type: 'COMPLETE' });
    // The release date stays until the money moved: a refused payout returns to delivered work that keeps it.
    expect(r.ok && 'autoReleaseAt' in r.changes).toBe(false);
    expect(r).toMatchObject({
      ok: true,
      changes: {
        status: 'SETTLING',
        settlement: {
          kind: 'release',
          by: 'buyer',
          from: 'DELIVERED',
          freelancerBase: 45000,
          toFreelancer: 40500,
          refund: 0,
        },
      },
      notifications: [],
    });
  });

  it('the automatic release waits for its date, and claims the money for the freelancer once it has passed', () => {
    expect(run(SYSTEM_ACTOR, app('DELIVERED', { autoReleaseAt: NOW + 1 }), { type: 'AUTO_RELEASE' })).toMatchObject({
      ok: false,
      error: M.notDue,
    });
    expect(run(SYSTEM_ACTOR, app('DELIVERED', { autoReleaseAt: NOW }), { type: 'AUTO_RELEASE' })).toMatchObject({
      ok: true,
      changes: { status: 'SETTLING', settlement: { kind: 'release', by: 'automatic', toFreelancer: 40500 } },
    });
  });

  it('zero-budget work completes at once on approval or automatic release: no money to settle', () => {
    expect(
      run(CREATOR, app('DELIVERED', { finalBudget: 0, paymentConfirmedAt: null }), { type: 'COMPLETE' }),
    ).toMatchObject({
      ok: true,
      changes: { status: 'COMPLETED', completedAt: NOW },
    });
    const r = run(SYSTEM_ACTOR, app('DELIVERED', { finalBudget: 0, paymentConfirmedAt: null }), {
      type: 'AUTO_RELEASE',
    });
    expect(r).toMatchObject({ ok: true, changes: { status: 'COMPLETED' } });
    if (r.ok)
      expect(r.notifications.map((n) => [n.userId, n.type])).toEqual([
        [CREATOR.id, 'PAYMENT_RELEASED'],
        [APPLICANT.id, 'PAYMENT_RELEASED'],
      ]);
  });
});

describe('[issue 15] settlement: SETTLING is the one claim on the money', () => {
  it.each([
    [
      'release',
      'automatic',
      'COMPLETED',
      [
        [CREATOR.id, 'PAYMENT_RELEASED'],
        [APPLICANT.id, 'PAYMENT_RELEASED'],
      ],
    ],
    ['release', 'buyer', 'COMPLETED', [[APPLICANT.id, 'GIG_COMPLETED']]],
    ['refund', 'freelancer', 'REFUNDED', [[CREATOR.id, 'REFUND_ISSUED']]],
    ['refund', 'server', 'REFUNDED', [[CREATOR.id, 'REFUND_ISSUED']]],
    [
      'refund',
      'operator',
      'REFUNDED',
      [
        [CREATOR.id, 'DISPUTE_RESOLVED'],
        [APPLICANT.id, 'DISPUTE_RESOLVED'],
      ],
    ],
    [
      'split',
      'operator',
      'SPLIT',
      [
        [CREATOR.id, 'DISPUTE_RESOLVED'],
        [APPLICANT.id, 'DISPUTE_RESOLVED'],
      ],
    ],
  ] as const)('a %s decided by %s ends %s and tells %j', (kind, by, final, told) => {
    const settling = {
      ...app('DELIVERED'),
      ...startSettlement(app('DELIVERED'), kind, by, kind === 'split' ? 20000 : kind === 'refund' ? 0 : 45000, 70),
    };
    const r = run(SYSTEM_ACTOR, settling as Application, { type: 'SETTLED' });
    expect(r).toMatchObject({
      ok: true,
      changes: { status: final, autoReleaseAt: null, settlement: { settledAt: NOW, failure: null } },
    });
    if (r.ok) expect(r.notifications.map((n) => [n.userId, n.type])).toEqual(told);
  });

  it('the automatic release says so to both: "Payment released automatically after 14 days"', () => {
    const a = app('DELIVERED', { deliveredAt: NOW - 14 * DAY_MS, autoReleaseAt: NOW });
    const settling = { ...a, ...startSettlement(a, 'release', 'automatic', 45000, NOW) } as Application;
    const r = run(SYSTEM_ACTOR, settling, { type: 'SETTLED' });
    expect(r.ok && r.notifications.map((n) => n.message)).toEqual([
      'Payment released automatically after 14 days for “Mural”',
      'Payment released automatically after 14 days for “Mural”',
    ]);
  });

  it('a split resolution names both amounts; the buyer’s fee is refunded pro rata', () => {
    const r = run(OPERATOR, app('DISPUTED'), { type: 'RESOLVE', outcome: 'split', freelancerBase: 20000 });
    // Base 450.00, fee 13.50: the freelancer's 200.00 less 10% = 180.00; the buyer gets 250.00 + 7.50.
    expect(r).toMatchObject({
      ok: true,
      changes: { settlement: { kind: 'split', toFreelancer: 18000, refund: 25750 } },
    });
    const settled = run(SYSTEM_ACTOR, { ...app('DISPUTED'), ...(r.ok ? r.changes : {}) } as Application, {
      type: 'SETTLED',
    });
    expect(settled.ok && settled.notifications[0]!.message).toBe(
      'The dispute on “Mural” was resolved: split: C$180.00 to the freelancer, C$257.50 refunded to the buyer',
    );
  });

  it.each([[0], [45000], [-1], [1.5], [undefined]])('a split giving the freelancer %s is refused', (freelancerBase) => {
    expect(run(OPERATOR, app('DISPUTED'), { type: 'RESOLVE', outcome: 'split', freelancerBase })).toMatchObject({
      ok: false,
      error: M.invalidSplit,
    });
  });

  it('an operator who is a party to the dispute cannot resolve it', () => {
    expect(run({ ...CREATOR, operator: true }, app('DISPUTED'), { type: 'RESOLVE', outcome: 'refund' })).toMatchObject({
      ok: false,
      error: M.partyCannotResolve,
    });
  });

  it('a refusal by the provider: SETTLEMENT_FAILED with the reason kept, both told; a retry claims it again', () => {
    const failed = run(SYSTEM_ACTOR, app('SETTLING'), {
      type: 'SETTLEMENT_REFUSED',
      failure: 'charge_already_refunded',
    });
    expect(failed).toMatchObject({
      ok: true,
      changes: { status: 'SETTLEMENT_FAILED', settlement: { kind: 'refund', failure: 'charge_already_refunded' } },
    });
    if (failed.ok) expect(failed.notifications.map((n) => n.type)).toEqual(['PAYMENT_PROBLEM', 'PAYMENT_PROBLEM']);
    expect(run(APPLICANT, app('SETTLEMENT_FAILED'), { type: 'RETRY_SETTLEMENT' })).toMatchObject({
      ok: true,
      changes: { status: 'SETTLING', settlement: { failure: null } },
    });
  });

  it('a split whose refund went out before its payout was refused says exactly what moved, and keeps it through the retry', () => {
    const split = {
      ...app('DISPUTED'),
      ...startSettlement(app('DISPUTED'), 'split', 'operator', 20000, 70),
    } as Application;
    const failed = run(SYSTEM_ACTOR, split, {
      type: 'SETTLEMENT_REFUSED',
      failure: 'balance_insufficient',
      refunded: true,
    });
    expect(failed).toMatchObject({
      ok: true,
      changes: { status: 'SETTLEMENT_FAILED', settlement: { kind: 'split', refundedAt: NOW } },
    });
    if (!failed.ok) return;
    const message =
      'The payment provider refused the freelancer’s payout of C$180.00 for “Mural”. The buyer’s refund of C$257.50 went out; only the payout is left, and it can be tried again from My Gigs.';
    expect(failed.notifications.map((n) => [n.userId, n.type, n.message])).toEqual([
      [CREATOR.id, 'PAYMENT_PROBLEM', message],
      [APPLICANT.id, 'PAYMENT_PROBLEM', message],
    ]);
    const retried = run(CREATOR, { ...split, ...failed.changes } as Application, { type: 'RETRY_SETTLEMENT' });
    expect(retried).toMatchObject({ ok: true, changes: { status: 'SETTLING', settlement: { refundedAt: NOW } } });
    // Nothing moved: the words say so.
    const none = run(SYSTEM_ACTOR, split, { type: 'SETTLEMENT_REFUSED', failure: 'declined' });
    expect(none).toMatchObject({ ok: true, changes: { settlement: { refundedAt: null } } });
    if (none.ok)
      expect(none.notifications[0]!.message).toBe(
        'The payment provider refused the split for “Mural”. Nothing was marked paid; it can be tried again from My Gigs.',
      );
  });

  it('a refused release the buyer asked for returns the work to where it was (nothing moved), release date included', () => {
    for (const from of ['IN_PROGRESS', 'DELIVERED'] as const) {
      const claimed = run(CREATOR, app(from), { type: 'COMPLETE' });
      const settling = { ...app(from), ...(claimed.ok ? claimed.changes : {}) } as Application;
      const back = run(SYSTEM_ACTOR, settling, { type: 'SETTLEMENT_REFUSED', failure: 'x' });
      expect(back).toMatchObject({ ok: true, changes: { status: from, settlement: undefined }, notifications: [] });
      expect({ ...settling, ...(back.ok ? back.changes : {}) }.autoReleaseAt).toBe(app(from).autoReleaseAt);
    }
  });

  it('a payment confirmed after the offer was cancelled is refunded in full by the server', () => {
    expect(run(SYSTEM_ACTOR, app('CANCELLED'), { type: 'REFUND_LATE_PAYMENT' })).toMatchObject({
      ok: true,
      changes: {
        status: 'SETTLING',
        paymentConfirmedAt: NOW,
        settlement: { kind: 'refund', by: 'server', refund: 46350 },
      },
    });
  });
});

describe('[issue 15] cancellation and disputes', () => {
  it('the buyer asks to cancel paid work; the freelancer refuses (back to work, buyer told) or accepts (a full refund, fee included)', () => {
    const asked = run(CREATOR, app('IN_PROGRESS'), { type: 'REQUEST_CANCELLATION', note: 'Budget cut' });
    expect(asked).toMatchObject({
      ok: true,
      changes: { status: 'CANCELLATION_REQUESTED', cancellation: { note: 'Budget cut', requestedAt: NOW } },
    });
    expect(run(APPLICANT, app('CANCELLATION_REQUESTED'), { type: 'REFUSE_CANCELLATION' })).toMatchObject({
      ok: true,
      changes: { status: 'IN_PROGRESS', cancellation: { refusedAt: NOW } },
      notifications: [{ userId: CREATOR.id, type: 'CANCELLATION_REFUSED' }],
    });
    expect(run(APPLICANT, app('CANCELLATION_REQUESTED'), { type: 'CANCEL_PAID' })).toMatchObject({
      ok: true,
      changes: { status: 'SETTLING', settlement: { kind: 'refund', by: 'freelancer', refund: 46350, toFreelancer: 0 } },
    });
  });

  it('paid work cannot be cancelled for free by either side; the refusal says how it can be', () => {
    for (const actor of [CREATOR, APPLICANT])
      expect(run(actor, app('IN_PROGRESS'), { type: 'CANCEL' })).toMatchObject({ ok: false, error: M.paidCancel });
  });

  it('delivered work cannot be cancelled by the freelancer alone; a dispute can still be opened', () => {
    expect(run(APPLICANT, app('DELIVERED'), { type: 'CANCEL_PAID' }).ok).toBe(false);
    const r = run(APPLICANT, app('DELIVERED'), { type: 'OPEN_DISPUTE', reason: '  The buyer went quiet  ' });
    expect(r).toMatchObject({
      ok: true,
      changes: {
        status: 'DISPUTED',
        autoReleaseAt: null,
        dispute: { by: 'freelancer', reason: 'The buyer went quiet', openedAt: NOW },
      },
    });
    if (r.ok)
      expect(r.notifications.map((n) => [n.userId, n.type])).toEqual([
        [CREATOR.id, 'DISPUTE_OPENED'],
        [APPLICANT.id, 'DISPUTE_OPENED'],
      ]);
    expect(run(CREATOR, app('DELIVERED'), { type: 'OPEN_DISPUTE', reason: '' })).toMatchObject({
      ok: false,
      error: WORK_MESSAGES.disputeReasonRequired,
    });
  });

  it('the freelancer cancels paid work under dispute with a full refund while nothing was ever submitted; nobody else can, nor once work was submitted', () => {
    const disputed = app('DISPUTED');
    const cancelled = run(APPLICANT, disputed, { type: 'CANCEL_PAID' });
    expect(cancelled).toMatchObject({
      ok: true,
      changes: {
        status: 'SETTLING',
        settlement: { kind: 'refund', by: 'freelancer', from: 'DISPUTED', refund: 46350, toFreelancer: 0 },
      },
    });
    for (const actor of [CREATOR, STRANGER, OPERATOR, SYSTEM_ACTOR])
      expect(run(actor, disputed, { type: 'CANCEL_PAID' }), actor.name).toMatchObject({
        ok: false,
        error: M.onlyApplicantCancelsPaid,
      });
    const submitted = app('DISPUTED', { submissions: [{ note: 'Draft', submittedAt: 55 }] });
    expect(run(APPLICANT, submitted, { type: 'CANCEL_PAID' })).toMatchObject({ ok: false, error: M.disputed });
    const unpaid = app('DISPUTED', { paymentConfirmedAt: null });
    expect(run(APPLICANT, unpaid, { type: 'CANCEL_PAID' }).ok).toBe(false);

    // The refund closes the dispute, and both are told so.
    const settling = { ...disputed, ...(cancelled.ok ? cancelled.changes : {}) } as Application;
    const settled = run(SYSTEM_ACTOR, settling, { type: 'SETTLED' });
    expect(settled).toMatchObject({ ok: true, changes: { status: 'REFUNDED' } });
    if (settled.ok)
      expect(settled.notifications.map((n) => [n.userId, n.type, n.message])).toEqual([
        [
          CREATOR.id,
          'REFUND_ISSUED',
          '“Abe Applicant” cancelled “Mural”: you were refunded in full (C$463.50). The dispute is closed.',
        ],
        [
          APPLICANT.id,
          'DISPUTE_RESOLVED',
          'The dispute on “Mural” is closed: you cancelled the work and “Cora Creator” was refunded in full (C$463.50)',
        ],
      ]);
  });

  it('zero-budget work has no money to dispute: either side cancels it instead', () => {
    const free = app('IN_PROGRESS', { finalBudget: 0, paymentConfirmedAt: null });
    expect(run(CREATOR, free, { type: 'OPEN_DISPUTE', reason: 'x' }).ok).toBe(false);
    expect(run(CREATOR, free, { type: 'CANCEL' })).toMatchObject({ ok: true, changes: { status: 'CANCELLED' } });
    expect(run(APPLICANT, free, { type: 'CANCEL' })).toMatchObject({
      ok: true,
      notifications: [{ userId: CREATOR.id, type: 'WORK_CANCELLED' }],
    });
  });

  it('withdrawing: the freelancer their application (→ WITHDRAWN), the buyer an unanswered offer (→ PENDING)', () => {
    expect(run(APPLICANT, app('PENDING'), { type: 'WITHDRAW_APPLICATION' })).toMatchObject({
      ok: true,
      changes: { status: 'WITHDRAWN' },
      notifications: [{ userId: CREATOR.id, type: 'APPLICATION_WITHDRAWN' }],
    });
    expect(run(CREATOR, app('PENDING_ACCEPTANCE'), { type: 'WITHDRAW_OFFER' })).toMatchObject({
      ok: true,
      changes: { status: 'PENDING', finalBudget: null },
      notifications: [{ userId: APPLICANT.id, type: 'OFFER_WITHDRAWN' }],
    });
  });

  it('finished and withdrawn applications take no new offer', () => {
    for (const status of ['WITHDRAWN', 'CANCELLED', 'REFUNDED', 'SPLIT'] as const)
      expect(run(CREATOR, app(status), { type: 'SEND_OFFER', finalBudget: 100 }).ok).toBe(false);
  });
});

describe('[issue 15] pushed documents: which move each is', () => {
  const sub = { note: 'First cut', submittedAt: 100 };
  it.each([
    [
      'IN_PROGRESS',
      {
        status: 'DELIVERED',
        submissions: [{ note: 'Hi', link: 'https://x.example', submittedAt: 1 }],
        deliveredAt: 1,
        autoReleaseAt: 2,
      },
      { type: 'SUBMIT_WORK', note: 'Hi', link: 'https://x.example' },
    ],
    ['DELIVERED', { submissions: [sub, { note: 'Again', submittedAt: 1 }] }, { type: 'SUBMIT_WORK', note: 'Again' }],
    [
      'DELIVERED',
      {
        status: 'IN_PROGRESS',
        submissions: [{ ...sub, changesRequested: { note: 'Redo', at: 1 } }],
        autoReleaseAt: null,
      },
      { type: 'REQUEST_CHANGES', note: 'Redo' },
    ],
    ['PENDING', { status: 'WITHDRAWN' }, { type: 'WITHDRAW_APPLICATION' }],
    ['PENDING_ACCEPTANCE', { status: 'PENDING', finalBudget: null }, { type: 'WITHDRAW_OFFER' }],
    ['PENDING_PAYMENT', { status: 'CANCELLED' }, { type: 'CANCEL' }],
    [
      'IN_PROGRESS',
      { status: 'CANCELLATION_REQUESTED', cancellation: { note: 'Stop', requestedAt: 1 } },
      { type: 'REQUEST_CANCELLATION', note: 'Stop' },
    ],
    [
      'CANCELLATION_REQUESTED',
      { status: 'IN_PROGRESS', cancellation: { requestedAt: 50, refusedAt: 1 } },
      { type: 'REFUSE_CANCELLATION' },
    ],
    [
      'DELIVERED',
      { status: 'DISPUTED', dispute: { by: 'buyer', reason: 'Late', openedAt: 1 }, autoReleaseAt: null },
      { type: 'OPEN_DISPUTE', reason: 'Late' },
    ],
  ] as const)('%s with %j is %j', (from, change, event) => {
    expect(eventFromChange(app(from), { ...app(from), ...change } as Application)).toEqual({ ok: true, event });
  });

  it.each([
    [
      'DELIVERED',
      {
        submissions: [
          { note: 'Rewritten history', submittedAt: 100 },
          { note: 'New', submittedAt: 1 },
        ],
      },
    ],
    [
      'DELIVERED',
      { status: 'IN_PROGRESS', submissions: [{ note: 'Changed', changesRequested: { note: 'x', at: 1 } }] },
    ],
    ['IN_PROGRESS', { status: 'DELIVERED' }],
    ['DELIVERED', { status: 'SETTLING' }],
    ['DISPUTED', { status: 'REFUNDED' }],
    ['IN_PROGRESS', { status: 'COMPLETED' }],
    ['PENDING', { status: 'WITHDRAWN', dispute: { by: 'buyer', reason: 'x', openedAt: 1 } }],
    ['IN_PROGRESS', { settlement: startSettlement(app('IN_PROGRESS'), 'refund', 'freelancer', 0, 1).settlement }],
  ] as const)('%s with %j is refused', (from, change) => {
    expect(eventFromChange(app(from), { ...app(from), ...change } as Application).ok).toBe(false);
  });

  it('a move made offline against a status that moved on is refused with the reason of where it is now', () => {
    expect(lateMoveRefusal('COMPLETED')).toBe('This work is completed and can no longer change.');
    expect(lateMoveRefusal('DISPUTED')).toBe(M.disputed);
    expect(lateMoveRefusal('IN_PROGRESS')).toBeUndefined();
  });
});
