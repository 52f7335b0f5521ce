import {
  APPLICATION_STATUSES,
  STATUS_ALIASES,
  type ApplicationStatus,
  type CurrencyCode,
  type NotificationType,
} from './constants';
import { applicationIdFor } from './ids';
import type { Application } from './schemas/application';
import { quoted } from './text';

/**
 * The application state machine (docs/product.md §4 and docs/product.md §10), as a pure function:
 * (actor, application, gig, event, now) → the changed fields and the notifications to emit, or
 * the reason the move is refused.
 *
 *   PENDING ──SEND_OFFER──▶ PENDING_ACCEPTANCE ──ACCEPT, budget > 0──▶ PENDING_PAYMENT ──CONFIRM_PAYMENT──▶ IN_PROGRESS ──COMPLETE──▶ COMPLETED
 *                                  │            ──ACCEPT, budget = 0──────────────────────────────────▶ IN_PROGRESS
 *          ▲                       └──DECLINE──▶ REJECTED ──SEND_OFFER (a new offer)──▶ PENDING_ACCEPTANCE
 *          └──(the server, when the gig is filled)──▶ CLOSED ──SEND_OFFER (after openings are added)──▶ PENDING_ACCEPTANCE
 *
 * How many offers a gig may have out and when it is filled are rules of the gig, not of one
 * application: shared/hiring.ts.
 */

export type ApplicationEvent =
  | { type: 'SEND_OFFER'; finalBudget: number }
  | { type: 'ACCEPT' }
  | { type: 'DECLINE' }
  | { type: 'CONFIRM_PAYMENT' }
  | { type: 'COMPLETE' };

export type NotificationDraft = {
  userId: string;
  type: NotificationType;
  message: string;
  senderId?: string;
  senderName?: string;
  recipientName?: string;
  gigId?: string;
  gigTitle?: string;
  applicationId?: string;
  conversationId?: string;
  finalBudget?: number;
  currency?: CurrencyCode;
  amount?: number;
};

export type Actor = { id: string; name: string };
export type GigRef = { id: string; createdBy: string; title: string };

export type TransitionResult =
  | { ok: true; changes: Partial<Application>; notifications: NotificationDraft[] }
  | { ok: false; error: string; code: 'forbidden' | 'invalid' };

export const MESSAGES = {
  onlyCreatorOffers: 'Only the creator of this gig can send offers.',
  onlyApplicantAnswers: 'Only the applicant can accept or decline this offer.',
  onlyCreatorCompletes: 'Only the creator of this gig can mark the work complete.',
  alreadySelected: 'This applicant has already been selected.',
  rejected: 'This application was declined and can no longer change.',
  closed: 'This application was closed when the gig was filled.',
  completed: 'This work is completed and can no longer change.',
  noOffer: 'There is no offer waiting for an answer.',
  invalidBudget: 'Please set final budgets for all selected applicants',
  gigGone: 'Gig not found.',
  invalidStatus: 'Invalid application status',
  notInProgress: 'Only work in progress can be marked complete.',
  unpaid: 'This work has not been paid yet.',
} as const;

/** SELECTED is read as PENDING_ACCEPTANCE (docs/product.md §10). */
export function normalizeStatus(status: string): ApplicationStatus | undefined {
  const s = STATUS_ALIASES[status] ?? status;
  return (APPLICATION_STATUSES as readonly string[]).includes(s) ? (s as ApplicationStatus) : undefined;
}

/** Statuses an offer can be sent from: a plain application, a declined offer (a new offer) and one closed when the gig filled. */
const OFFERABLE: readonly (ApplicationStatus | undefined)[] = ['PENDING', 'REJECTED', 'CLOSED'];

/**
 * Applicants already SELECTED, PENDING_ACCEPTANCE, PENDING_PAYMENT, IN_PROGRESS or COMPLETED cannot
 * be selected again (docs/product.md §4); one who declined an offer, or whose application closed when the
 * gig filled, can get a new offer.
 */
export function isSelectable(application: Pick<Application, 'status'>): boolean {
  return OFFERABLE.includes(normalizeStatus(application.status));
}

const refuse = (error: string, code: 'forbidden' | 'invalid' = 'invalid'): TransitionResult => ({
  ok: false,
  error,
  code,
});

function terminal(status: ApplicationStatus | undefined): TransitionResult | undefined {
  if (status === 'COMPLETED') return refuse(MESSAGES.completed);
  if (status === 'REJECTED') return refuse(MESSAGES.rejected);
  if (status === 'CLOSED') return refuse(MESSAGES.closed);
  return undefined;
}

/** The freelancer's share of a budget in minor units: 90%, the platform keeps 10% (docs/product.md §9). */
function freelancerShare(minor: number): number {
  return minor - Math.round(minor * 0.1);
}

export function transition(input: {
  actor: Actor;
  application: Application;
  gig: GigRef | undefined;
  event: ApplicationEvent;
  now: number;
}): TransitionResult {
  const { actor, application: a, gig, event, now } = input;
  const status = normalizeStatus(a.status);
  const isCreator = actor.id === a.creatorId && (!gig || gig.createdBy === actor.id);
  const isApplicant = actor.id === a.applicantId;
  const gigTitle = gig?.title ?? a.gigTitle;
  const common = { gigId: a.gigId, gigTitle, applicationId: a.id, senderId: actor.id, senderName: actor.name };

  switch (event.type) {
    case 'SEND_OFFER': {
      if (!isCreator) return refuse(MESSAGES.onlyCreatorOffers, 'forbidden');
      if (!gig) return refuse(MESSAGES.gigGone);
      if (status === 'COMPLETED') return refuse(MESSAGES.completed);
      if (!OFFERABLE.includes(status)) return refuse(MESSAGES.alreadySelected);
      if (!Number.isInteger(event.finalBudget) || event.finalBudget < 0) return refuse(MESSAGES.invalidBudget);
      // A declined or closed application getting an offer again: the applicant is told it is a new one.
      const again = status !== 'PENDING';
      return {
        ok: true,
        changes: { status: 'PENDING_ACCEPTANCE', finalBudget: event.finalBudget },
        notifications: [
          {
            ...common,
            userId: a.applicantId,
            type: 'FINAL_BUDGET_OFFER',
            recipientName: a.applicantName,
            message: again
              ? `New offer from ${quoted(actor.name)} for ${quoted(gigTitle)}`
              : `Offer from ${quoted(actor.name)} for ${quoted(gigTitle)}`,
            finalBudget: event.finalBudget,
            currency: a.currency,
          },
        ],
      };
    }
    case 'ACCEPT':
    case 'DECLINE': {
      if (!isApplicant) return refuse(MESSAGES.onlyApplicantAnswers, 'forbidden');
      const done = terminal(status);
      if (done) return done;
      if (status !== 'PENDING_ACCEPTANCE') return refuse(MESSAGES.noOffer);
      if (event.type === 'DECLINE') {
        return {
          ok: true,
          changes: { status: 'REJECTED', finalBudget: null },
          notifications: [
            {
              ...common,
              userId: a.creatorId,
              type: 'OFFER_REJECTED',
              recipientName: a.creatorName,
              message: `Offer declined by ${quoted(actor.name)} for ${quoted(gigTitle)}`,
            },
          ],
        };
      }
      if (!gig) return refuse(MESSAGES.gigGone);
      const budget = a.finalBudget ?? 0;
      // Work never starts on an unpaid offer (docs/architecture.md): a paid offer waits for payment.
      if (budget > 0) {
        return {
          ok: true,
          changes: { status: 'PENDING_PAYMENT' },
          notifications: [
            {
              ...common,
              userId: a.creatorId,
              type: 'payment_needed',
              recipientName: a.creatorName,
              message: `Offer accepted by ${quoted(actor.name)} for ${quoted(gigTitle)}. Pay to start the work.`,
              finalBudget: budget,
              currency: a.currency,
            },
          ],
        };
      }
      return {
        ok: true,
        changes: { status: 'IN_PROGRESS', startedAt: now },
        notifications: [
          {
            ...common,
            userId: a.creatorId,
            type: 'GIG_STARTED',
            recipientName: a.creatorName,
            message: `Work started by ${quoted(actor.name)} on ${quoted(gigTitle)}`,
          },
        ],
      };
    }
    case 'CONFIRM_PAYMENT': {
      if (!isCreator) return refuse(MESSAGES.invalidStatus, 'forbidden');
      if (status !== 'PENDING_PAYMENT') return refuse(MESSAGES.invalidStatus);
      return {
        ok: true,
        changes: { status: 'IN_PROGRESS', paymentConfirmedAt: now, startedAt: now },
        notifications: [
          {
            ...common,
            userId: a.applicantId,
            type: 'PAYMENT_CONFIRMED',
            recipientName: a.applicantName,
            message: `Payment received from ${quoted(actor.name)} for ${quoted(gigTitle)}. You can start working.`,
            amount: a.finalBudget ?? 0,
            currency: a.currency,
          },
        ],
      };
    }
    case 'COMPLETE': {
      if (!isCreator) return refuse(MESSAGES.onlyCreatorCompletes, 'forbidden');
      const done = terminal(status);
      if (done) return done;
      if (status !== 'IN_PROGRESS') return refuse(MESSAGES.notInProgress);
      if ((a.finalBudget ?? 0) > 0 && !a.paymentConfirmedAt) return refuse(MESSAGES.unpaid);
      return {
        ok: true,
        changes: { status: 'COMPLETED', completedAt: now },
        notifications: [
          {
            ...common,
            userId: a.applicantId,
            type: 'GIG_COMPLETED',
            recipientName: a.applicantName,
            message: `Work on ${quoted(gigTitle)} marked complete by ${quoted(actor.name)}`,
            amount: freelancerShare(a.finalBudget ?? 0),
            currency: a.currency,
          },
        ],
      };
    }
  }
}

/**
 * The server closes an applicant still waiting (PENDING) when the gig fills: the application goes
 * to CLOSED and the applicant is told. Not a user's move, so it is not a transition event.
 */
export function closeForFilledGig(
  a: Application,
  gigTitle: string,
): { changes: Partial<Application>; notification: NotificationDraft } | undefined {
  if (normalizeStatus(a.status) !== 'PENDING') return undefined;
  return {
    changes: { status: 'CLOSED', finalBudget: null },
    notification: {
      userId: a.applicantId,
      type: 'application_status',
      recipientName: a.applicantName,
      message: `${quoted(gigTitle)} has been filled. Your application is closed.`,
      gigId: a.gigId,
      gigTitle,
      applicationId: a.id,
    },
  };
}

/** Fields a user's move may change; every other field is the server's. */
const MOVABLE = new Set(['status', 'finalBudget', 'startedAt', 'updatedAt']);

/**
 * Which single event a pushed document represents. Replication sends whole documents; only the
 * moves a user makes by hand (send an offer, Start Working, Decline) can arrive this way.
 */
export function eventFromChange(
  before: Application,
  after: Application,
): { ok: true; event: ApplicationEvent } | { ok: false; error: string } {
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (MOVABLE.has(key)) continue;
    const b = (before as Record<string, unknown>)[key];
    const x = (after as Record<string, unknown>)[key];
    if (x !== undefined && JSON.stringify(b) !== JSON.stringify(x))
      return { ok: false, error: `The field ${key} cannot be changed.` };
  }
  const from = normalizeStatus(before.status);
  const to = normalizeStatus(after.status);
  if (!to) return { ok: false, error: MESSAGES.invalidStatus };
  if (from === to) {
    return JSON.stringify(before.finalBudget) === JSON.stringify(after.finalBudget)
      ? { ok: false, error: 'Nothing changed.' }
      : { ok: false, error: from === 'PENDING' ? MESSAGES.invalidStatus : MESSAGES.alreadySelected };
  }
  if (to === 'PENDING_ACCEPTANCE') {
    if (typeof after.finalBudget !== 'number') return { ok: false, error: MESSAGES.invalidBudget };
    return { ok: true, event: { type: 'SEND_OFFER', finalBudget: after.finalBudget } };
  }
  if (from === 'PENDING_ACCEPTANCE' && (to === 'IN_PROGRESS' || to === 'PENDING_PAYMENT'))
    return { ok: true, event: { type: 'ACCEPT' } };
  if (to === 'REJECTED') return { ok: true, event: { type: 'DECLINE' } };
  return { ok: false, error: `An application cannot move from ${from ?? before.status} to ${to} here.` };
}

/** Who applies, as their profile says (docs/product.md §3 User). */
export type Applicant = {
  id: string;
  name: string;
  email?: string;
  portfolioLink?: string;
  location?: Application['applicantCountry'];
};

/**
 * A new application in its first state, PENDING (docs/product.md §3 Application): written by the device
 * that applies and rebuilt by the server from its own records, so both hold the same document.
 * `budget` is the applicant's rate in minor units; its id is the one per gig and applicant.
 */
export function newApplication(input: {
  gig: { id: string; title: string; category: string; currency: Application['currency'] };
  /** The emails are stored when known; who may see them is the server's read filter's business. */
  creator: { id: string; name: string; email?: string };
  applicant: Applicant;
  budget: number;
  now: number;
}): Application {
  const { gig, creator, applicant, budget, now } = input;
  return {
    id: applicationIdFor(gig.id, applicant.id),
    gigId: gig.id,
    gigTitle: gig.title,
    gigCategory: gig.category,
    creatorId: creator.id,
    creatorName: creator.name,
    ...(creator.email ? { creatorEmail: creator.email } : {}),
    applicantId: applicant.id,
    applicantName: applicant.name,
    ...(applicant.email ? { applicantEmail: applicant.email } : {}),
    applicantPortfolioLink: applicant.portfolioLink ?? '',
    ...(applicant.location ? { applicantCountry: applicant.location } : {}),
    budget,
    currency: gig.currency,
    status: 'PENDING',
    appliedAt: now,
    finalBudget: null,
    startedAt: null,
    completedAt: null,
    paymentConfirmedAt: null,
    updatedAt: now,
  };
}

/** The gig creator hears about each new application. */
export function newApplicationNotification(a: Application): NotificationDraft {
  return {
    userId: a.creatorId,
    type: 'new_application',
    message: `New application from ${quoted(a.applicantName)} for ${quoted(a.gigTitle)}`,
    senderId: a.applicantId,
    senderName: a.applicantName,
    recipientName: a.creatorName,
    gigId: a.gigId,
    gigTitle: a.gigTitle,
    applicationId: a.id,
  };
}
