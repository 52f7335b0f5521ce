import { describe, expect, it } from 'vitest';
import {
  closeForFilledGig,
  eventFromChange,
  isSelectable,
  MESSAGES,
  newApplicationNotification,
  normalizeStatus,
  SYSTEM_ACTOR,
  transition,
  type ApplicationEvent,
} from './application-machine';
import type { ApplicationStatus } from './constants';
import type { Application } from './schemas/application';

const CREATOR = { id: 'creator-1', name: 'Cora Creator' };
const APPLICANT = { id: 'applicant-1', name: 'Abe Applicant' };
const STRANGER = { id: 'stranger-1', name: 'Stan Stranger' };
const GIG = { id: 'gig-00001', createdBy: CREATOR.id, title: 'Mural' };
const NOW = 1_800_000_000_000;

function app(status: ApplicationStatus, overrides: Partial<Application> = {}): Application {
  return {
    id: `${GIG.id}.${APPLICANT.id}`,
    gigId: GIG.id,
    gigTitle: 'Mural',
    gigCategory: 'Visual Art',
    creatorId: CREATOR.id,
    creatorName: CREATOR.name,
    creatorEmail: 'c@example.com',
    applicantId: APPLICANT.id,
    applicantName: APPLICANT.name,
    applicantEmail: 'a@example.com',
    applicantPortfolioLink: 'https://a.example',
    budget: 50000,
    currency: 'CAD',
    status,
    appliedAt: 1,
    finalBudget: status === 'PENDING' || status === 'REJECTED' ? null : 45000,
    startedAt: null,
    completedAt: null,
    paymentConfirmedAt: null,
    updatedAt: 1,
    ...overrides,
  };
}

const OFFER: ApplicationEvent = { type: 'SEND_OFFER', finalBudget: 45000 };

describe('docs/product.md §4 transitions, by the right actor', () => {
  it('Buyer moves forward: PENDING → PENDING_ACCEPTANCE, finalBudget set, applicant gets FINAL_BUDGET_OFFER', () => {
    const r = transition({ actor: CREATOR, application: app('PENDING'), gig: GIG, event: OFFER, now: NOW });
    expect(r).toMatchObject({ ok: true, changes: { status: 'PENDING_ACCEPTANCE', finalBudget: 45000 } });
    if (r.ok)
      expect(r.notifications).toEqual([
        expect.objectContaining({
          userId: APPLICANT.id,
          type: 'FINAL_BUDGET_OFFER',
          finalBudget: 45000,
          currency: 'CAD',
        }),
      ]);
  });

  it('Seller taps Start Working on a paid offer: → PENDING_PAYMENT and the buyer gets payment_needed (docs/architecture.md)', () => {
    const r = transition({
      actor: APPLICANT,
      application: app('PENDING_ACCEPTANCE'),
      gig: GIG,
      event: { type: 'ACCEPT' },
      now: NOW,
    });
    expect(r).toMatchObject({ ok: true, changes: { status: 'PENDING_PAYMENT' } });
    if (r.ok) expect(r.notifications[0]).toMatchObject({ userId: CREATOR.id, type: 'payment_needed' });
  });

  it('Seller taps Start Working on a zero offer: → IN_PROGRESS with startedAt; the buyer gets GIG_STARTED', () => {
    const r = transition({
      actor: APPLICANT,
      application: app('PENDING_ACCEPTANCE', { finalBudget: 0 }),
      gig: GIG,
      event: { type: 'ACCEPT' },
      now: NOW,
    });
    expect(r).toMatchObject({ ok: true, changes: { status: 'IN_PROGRESS', startedAt: NOW } });
    if (r.ok) expect(r.notifications[0]).toMatchObject({ userId: CREATOR.id, type: 'GIG_STARTED' });
  });

  it('Seller taps Decline: → REJECTED, finalBudget cleared; the buyer gets OFFER_REJECTED', () => {
    const r = transition({
      actor: APPLICANT,
      application: app('PENDING_ACCEPTANCE'),
      gig: GIG,
      event: { type: 'DECLINE' },
      now: NOW,
    });
    expect(r).toMatchObject({ ok: true, changes: { status: 'REJECTED', finalBudget: null } });
    if (r.ok) expect(r.notifications[0]).toMatchObject({ userId: CREATOR.id, type: 'OFFER_REJECTED' });
  });

  it("Payment confirmed: only from PENDING_PAYMENT → IN_PROGRESS with paymentConfirmedAt; else 'Invalid application status'", () => {
    const r = transition({
      actor: CREATOR,
      application: app('PENDING_PAYMENT'),
      gig: GIG,
      event: { type: 'CONFIRM_PAYMENT' },
      now: NOW,
    });
    expect(r).toMatchObject({ ok: true, changes: { status: 'IN_PROGRESS', paymentConfirmedAt: NOW, startedAt: NOW } });
    if (r.ok) expect(r.notifications[0]).toMatchObject({ userId: APPLICANT.id, type: 'PAYMENT_CONFIRMED' });
    for (const s of ['PENDING', 'PENDING_ACCEPTANCE', 'IN_PROGRESS', 'COMPLETED', 'REJECTED'] as const) {
      expect(
        transition({ actor: CREATOR, application: app(s), gig: GIG, event: { type: 'CONFIRM_PAYMENT' }, now: NOW }),
      ).toMatchObject({ ok: false, error: 'Invalid application status' });
    }
  });

  it('Mark as Complete on paid work in progress: the money is claimed (SETTLING); once paid out → COMPLETED with completedAt and GIG_COMPLETED with 90% (decision 031)', () => {
    const paid = app('IN_PROGRESS', { paymentConfirmedAt: 5 });
    const r = transition({ actor: CREATOR, application: paid, gig: GIG, event: { type: 'COMPLETE' }, now: NOW });
    expect(r).toMatchObject({
      ok: true,
      changes: { status: 'SETTLING', settlement: { kind: 'release', by: 'buyer' } },
    });
    const settled = transition({
      actor: SYSTEM_ACTOR,
      application: { ...paid, ...(r.ok ? r.changes : {}) },
      gig: GIG,
      event: { type: 'SETTLED' },
      now: NOW + 1,
    });
    expect(settled).toMatchObject({ ok: true, changes: { status: 'COMPLETED', completedAt: NOW + 1 } });
    if (settled.ok)
      expect(settled.notifications[0]).toMatchObject({ userId: APPLICANT.id, type: 'GIG_COMPLETED', amount: 40500 });
  });
});

describe('forbidden moves are refused with a clear message', () => {
  const events: [string, ApplicationEvent][] = [
    ['SEND_OFFER', OFFER],
    ['ACCEPT', { type: 'ACCEPT' }],
    ['DECLINE', { type: 'DECLINE' }],
    ['CONFIRM_PAYMENT', { type: 'CONFIRM_PAYMENT' }],
    ['COMPLETE', { type: 'COMPLETE' }],
  ];
  const statuses: ApplicationStatus[] = [
    'PENDING',
    'PENDING_ACCEPTANCE',
    'PENDING_PAYMENT',
    'IN_PROGRESS',
    'COMPLETED',
    'REJECTED',
    'CLOSED',
  ];
  /** The only allowed (status, event, actor) triples; everything else in the table is refused. */
  const allowed = new Set([
    'PENDING/SEND_OFFER/creator',
    'REJECTED/SEND_OFFER/creator',
    'CLOSED/SEND_OFFER/creator',
    'PENDING_ACCEPTANCE/ACCEPT/applicant',
    'PENDING_ACCEPTANCE/DECLINE/applicant',
    'PENDING_PAYMENT/CONFIRM_PAYMENT/creator',
    'IN_PROGRESS/COMPLETE/creator',
  ]);
  const cases = statuses.flatMap((s) =>
    events.flatMap(([name, e]) =>
      (['creator', 'applicant', 'stranger'] as const).map((who) => [s, name, who, e] as const),
    ),
  );

  it.each(cases)('%s + %s by the %s', (status, name, who, event) => {
    const actor = who === 'creator' ? CREATOR : who === 'applicant' ? APPLICANT : STRANGER;
    const r = transition({
      actor,
      application: app(status, { paymentConfirmedAt: 5, finalBudget: status === 'PENDING' ? null : 100 }),
      gig: GIG,
      event,
      now: NOW,
    });
    if (allowed.has(`${status}/${name}/${who}`)) expect(r.ok).toBe(true);
    else {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.length).toBeGreaterThan(5);
    }
  });

  it('completing unpaid work is refused', () => {
    expect(
      transition({
        actor: CREATOR,
        application: app('IN_PROGRESS', { finalBudget: 100 }),
        gig: GIG,
        event: { type: 'COMPLETE' },
        now: NOW,
      }),
    ).toMatchObject({ ok: false, error: MESSAGES.unpaid });
  });

  it('an offer or acceptance on a deleted gig is refused', () => {
    expect(
      transition({ actor: CREATOR, application: app('PENDING'), gig: undefined, event: OFFER, now: NOW }),
    ).toMatchObject({ ok: false, error: 'Gig not found.' });
    expect(
      transition({
        actor: APPLICANT,
        application: app('PENDING_ACCEPTANCE'),
        gig: undefined,
        event: { type: 'ACCEPT' },
        now: NOW,
      }),
    ).toMatchObject({ ok: false });
  });

  it.each([[-1], [1.5], [Number.NaN]])('a final budget of %s is refused', (finalBudget) => {
    expect(
      transition({
        actor: CREATOR,
        application: app('PENDING'),
        gig: GIG,
        event: { type: 'SEND_OFFER', finalBudget },
        now: NOW,
      }).ok,
    ).toBe(false);
  });
});

describe('already selected applicants cannot be selected again (docs/product.md §4)', () => {
  it.each([['SELECTED'], ['PENDING_ACCEPTANCE'], ['PENDING_PAYMENT'], ['IN_PROGRESS'], ['COMPLETED']])(
    '%s is not selectable',
    (status) => {
      expect(isSelectable({ status: status as ApplicationStatus })).toBe(false);
    },
  );
  it('[decision 014] a declined offer and an application closed by a filled gig can get a new offer', () => {
    expect(isSelectable({ status: 'REJECTED' })).toBe(true);
    expect(isSelectable({ status: 'CLOSED' })).toBe(true);
  });
  it('PENDING is selectable; SELECTED reads as PENDING_ACCEPTANCE', () => {
    expect(isSelectable({ status: 'PENDING' })).toBe(true);
    expect(normalizeStatus('SELECTED')).toBe('PENDING_ACCEPTANCE');
    expect(normalizeStatus('BOGUS')).toBeUndefined();
  });
});

describe('[decision 014] a new offer after a decline; closing when the gig fills', () => {
  it('REJECTED → PENDING_ACCEPTANCE with the new budget; the FINAL_BUDGET_OFFER says it is a new offer', () => {
    const r = transition({
      actor: CREATOR,
      application: app('REJECTED'),
      gig: GIG,
      event: { type: 'SEND_OFFER', finalBudget: 60000 },
      now: NOW,
    });
    expect(r).toMatchObject({ ok: true, changes: { status: 'PENDING_ACCEPTANCE', finalBudget: 60000 } });
    if (r.ok) {
      expect(r.notifications).toEqual([
        expect.objectContaining({ userId: APPLICANT.id, type: 'FINAL_BUDGET_OFFER', finalBudget: 60000 }),
      ]);
      expect(r.notifications[0]!.message).toBe('New offer from “Cora Creator” for “Mural”');
    }
  });
  it('a first offer is not called new', () => {
    const r = transition({ actor: CREATOR, application: app('PENDING'), gig: GIG, event: OFFER, now: NOW });
    if (r.ok) expect(r.notifications[0]!.message).toBe('Offer from “Cora Creator” for “Mural”');
  });
  it('the applicant cannot answer a declined or closed application', () => {
    expect(
      transition({ actor: APPLICANT, application: app('CLOSED'), gig: GIG, event: { type: 'ACCEPT' }, now: NOW }),
    ).toMatchObject({ ok: false, error: MESSAGES.closed });
    expect(
      transition({ actor: APPLICANT, application: app('REJECTED'), gig: GIG, event: { type: 'ACCEPT' }, now: NOW }),
    ).toMatchObject({ ok: false, error: MESSAGES.rejected });
  });
  it('a waiting applicant is closed and told with application_status; any other status is left alone', () => {
    const closed = closeForFilledGig(app('PENDING'), 'Mural');
    expect(closed).toMatchObject({
      changes: { status: 'CLOSED', finalBudget: null },
      notification: {
        userId: APPLICANT.id,
        type: 'application_status',
        gigId: GIG.id,
        applicationId: app('PENDING').id,
      },
    });
    expect(closed?.notification.message).toBe('“Mural” has been filled. Your application is closed.');
    for (const s of [
      'PENDING_ACCEPTANCE',
      'PENDING_PAYMENT',
      'IN_PROGRESS',
      'COMPLETED',
      'REJECTED',
      'CLOSED',
    ] as const)
      expect(closeForFilledGig(app(s), 'Mural')).toBeUndefined();
  });
  it('a pushed REJECTED → PENDING_ACCEPTANCE is a SEND_OFFER; a pushed CLOSED is refused (only the server closes)', () => {
    expect(
      eventFromChange(app('REJECTED'), { ...app('REJECTED'), status: 'PENDING_ACCEPTANCE', finalBudget: 100 }),
    ).toMatchObject({ ok: true, event: { type: 'SEND_OFFER', finalBudget: 100 } });
    expect(eventFromChange(app('PENDING'), { ...app('PENDING'), status: 'CLOSED' }).ok).toBe(false);
  });
});

describe('eventFromChange: which move a pushed document represents', () => {
  it.each([
    ['PENDING', { status: 'PENDING_ACCEPTANCE', finalBudget: 100 }, 'SEND_OFFER'],
    ['PENDING', { status: 'SELECTED', finalBudget: 100 }, 'SEND_OFFER'],
    ['PENDING_ACCEPTANCE', { status: 'IN_PROGRESS', startedAt: 5 }, 'ACCEPT'],
    ['PENDING_ACCEPTANCE', { status: 'PENDING_PAYMENT' }, 'ACCEPT'],
    ['PENDING_ACCEPTANCE', { status: 'REJECTED', finalBudget: null }, 'DECLINE'],
  ] as const)('%s with %j is %s', (from, change, type) => {
    const r = eventFromChange(app(from), { ...app(from), ...change } as Application);
    expect(r).toMatchObject({ ok: true, event: { type } });
  });

  it.each([
    ['IN_PROGRESS', { status: 'COMPLETED', completedAt: 5 }],
    ['PENDING_PAYMENT', { status: 'IN_PROGRESS', paymentConfirmedAt: 5 }],
    ['PENDING', { budget: 1 }],
    ['PENDING', { applicantId: 'someone-else' }],
    ['PENDING_ACCEPTANCE', { finalBudget: 1 }],
    ['PENDING', { status: 'BOGUS' }],
    ['PENDING', {}],
  ] as const)('%s with %j is refused', (from, change) => {
    expect(eventFromChange(app(from), { ...app(from), ...change } as Application).ok).toBe(false);
  });
});

it('a new application notifies the gig creator (new_application)', () => {
  expect(newApplicationNotification(app('PENDING'))).toMatchObject({
    userId: CREATOR.id,
    type: 'new_application',
    senderId: APPLICANT.id,
    gigId: GIG.id,
  });
});

describe('[decision 013] notification texts name users as names, after the platform’s own words', () => {
  it('a new application names the applicant in quotation marks', () => {
    const note = newApplicationNotification(app('PENDING', { applicantName: 'Support', gigTitle: 'Mural' }));
    expect(note.message).toBe('New application from “Support” for “Mural”');
  });

  it.each([
    ['SEND_OFFER', 'PENDING', CREATOR, OFFER, `Offer from “${CREATOR.name}” for “Mural”`],
    [
      'ACCEPT',
      'PENDING_ACCEPTANCE',
      APPLICANT,
      { type: 'ACCEPT' },
      `Offer accepted by “${APPLICANT.name}” for “Mural”. Pay to start the work.`,
    ],
    [
      'DECLINE',
      'PENDING_ACCEPTANCE',
      APPLICANT,
      { type: 'DECLINE' },
      `Offer declined by “${APPLICANT.name}” for “Mural”`,
    ],
  ] as const)('%s: the message starts with the platform’s words', (_name, status, actor, event, message) => {
    const result = transition({
      actor,
      application: app(status),
      gig: GIG,
      event: event as ApplicationEvent,
      now: NOW,
    });
    expect(result.ok && result.notifications[0]!.message).toBe(message);
  });
});
