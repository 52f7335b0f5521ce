import type { ApplicationStatus } from './constants';
import { applicationIdFor } from './ids';
import {
  normalizeStatus,
  refuse,
  type Actor,
  type GigRef,
  type NotificationDraft,
  type TransitionResult,
} from './machine-types';
import type { Application } from './schemas/application';
import { quoted } from './text';
import {
  isPaid,
  startSettlement,
  stateRefusal,
  workTransition,
  type WorkEvent,
  type WorkSettings,
} from './work-machine';

export { normalizeStatus, SYSTEM_ACTOR } from './machine-types';
export type { Actor, GigRef, NotificationDraft, TransitionResult } from './machine-types';
export { WORK_MACHINE_MESSAGES, type WorkEvent, type WorkSettings } from './work-machine';

/**
 * The application state machine (docs/product.md §4 and docs/product.md §10), as a pure function:
 * (actor, application, gig, event, now) → the changed fields and the notifications to emit, or
 * the reason the move is refused.
 *
 *   PENDING ──SEND_OFFER──▶ PENDING_ACCEPTANCE ──ACCEPT, budget > 0──▶ PENDING_PAYMENT ──CONFIRM_PAYMENT──▶ IN_PROGRESS ──COMPLETE──▶ SETTLING ─▶ COMPLETED
 *                                  │            ──ACCEPT, budget = 0──────────────────────────────────▶ IN_PROGRESS ──COMPLETE (budget 0)──▶ COMPLETED
 *          ▲                       └──DECLINE──▶ REJECTED ──SEND_OFFER (a new offer)──▶ PENDING_ACCEPTANCE
 *          └──(the server, when the gig is filled)──▶ CLOSED ──SEND_OFFER (after openings are added)──▶ PENDING_ACCEPTANCE
 *
 * From accepted work on (delivery, cancellation, disputes, and how the buyer's money is settled)
 * the moves are shared/work-machine.ts's, with its own diagram (docs/decisions/031-…). How many
 * offers a gig may have out and when it is filled are rules of the gig, not of one application:
 * shared/hiring.ts.
 */

export type ApplicationEvent =
  | { type: 'SEND_OFFER'; finalBudget: number }
  | { type: 'ACCEPT' }
  | { type: 'DECLINE' }
  | { type: 'CONFIRM_PAYMENT' }
  | { type: 'COMPLETE' }
  | WorkEvent;

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

function terminal(status: ApplicationStatus | undefined): TransitionResult | undefined {
  if (status === 'COMPLETED') return refuse(MESSAGES.completed);
  if (status === 'REJECTED') return refuse(MESSAGES.rejected);
  if (status === 'CLOSED') return refuse(MESSAGES.closed);
  const other = stateRefusal(status);
  return other ? refuse(other) : undefined;
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
  /** AUTO_RELEASE_DAYS as the server has it; devices use the default (the server's answer wins). */
  settings?: WorkSettings;
}): TransitionResult {
  const { actor, application: a, gig, event, now } = input;
  switch (event.type) {
    case 'SEND_OFFER':
    case 'ACCEPT':
    case 'DECLINE':
    case 'CONFIRM_PAYMENT':
    case 'COMPLETE':
      break;
    default:
      return workTransition({ ...input, event });
  }
  const status = normalizeStatus(a.status);
  const isCreator = !actor.system && actor.id === a.creatorId && (!gig || gig.createdBy === actor.id);
  const isApplicant = !actor.system && actor.id === a.applicantId;
  const gigTitle = gig?.title ?? a.gigTitle;
  const common = { gigId: a.gigId, gigTitle, applicationId: a.id, senderId: actor.id, senderName: actor.name };

  switch (event.type) {
    case 'SEND_OFFER': {
      if (!isCreator) return refuse(MESSAGES.onlyCreatorOffers, 'forbidden');
      if (!gig) return refuse(MESSAGES.gigGone);
      if (status === 'COMPLETED') return refuse(MESSAGES.completed);
      if (status === 'WITHDRAWN' || status === 'CANCELLED' || status === 'REFUNDED' || status === 'SPLIT')
        return refuse(stateRefusal(status)!);
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
      // "Mark as Complete" on work in progress, "Approve and pay" on delivered work.
      if (!isCreator) return refuse(MESSAGES.onlyCreatorCompletes, 'forbidden');
      const done = terminal(status);
      if (done) return done;
      if (status !== 'IN_PROGRESS' && status !== 'DELIVERED') return refuse(MESSAGES.notInProgress);
      const budget = a.finalBudget ?? 0;
      if (budget > 0 && !isPaid(a)) return refuse(MESSAGES.unpaid);
      // Paid work: the claim on the money; the release is recorded once the provider has paid it.
      if (budget > 0)
        return {
          ok: true,
          changes: startSettlement(a, 'release', 'buyer', budget, now),
          notifications: [],
        };
      return {
        ok: true,
        changes: { status: 'COMPLETED', completedAt: now, autoReleaseAt: null },
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
 * Fields of delivered, questioned or disputed work a device writes with its move (the server
 * rebuilds them from the move, with its own times): each only with the moves named here.
 */
const WORK_FIELDS: Record<string, readonly WorkEvent['type'][]> = {
  submissions: ['SUBMIT_WORK', 'REQUEST_CHANGES'],
  deliveredAt: ['SUBMIT_WORK'],
  autoReleaseAt: ['SUBMIT_WORK', 'REQUEST_CHANGES', 'OPEN_DISPUTE', 'CANCEL'],
  cancellation: ['REQUEST_CANCELLATION', 'REFUSE_CANCELLATION'],
  dispute: ['OPEN_DISPUTE'],
};

type Inferred = { ok: true; event: ApplicationEvent } | { ok: false; error: string };
const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
const cannotChange = (key: string): Inferred => ({ ok: false, error: `The field ${key} cannot be changed.` });

/** A new submission appended after the ones the server has (their notes and links unchanged). */
function submissionOf(before: Application, after: Application): Inferred {
  const b = before.submissions ?? [];
  const x = after.submissions ?? [];
  const kept = b.every((s, i) => x[i] !== undefined && x[i]!.note === s.note && x[i]!.link === s.link);
  const added = x.at(-1);
  if (x.length !== b.length + 1 || !kept || !added) return cannotChange('submissions');
  return { ok: true, event: { type: 'SUBMIT_WORK', note: added.note, ...(added.link ? { link: added.link } : {}) } };
}

/** The buyer's change request, written on the latest submission. */
function changeRequestOf(before: Application, after: Application): Inferred {
  const b = before.submissions ?? [];
  const x = after.submissions ?? [];
  const last = x.at(-1);
  const kept = x.length === b.length && b.every((s, i) => i === b.length - 1 || same(s, x[i]));
  if (!kept || !last || last.note !== b.at(-1)?.note || !last.changesRequested) return cannotChange('submissions');
  return { ok: true, event: { type: 'REQUEST_CHANGES', note: last.changesRequested.note } };
}

/** The move itself, from the statuses before and after. */
function moveOf(before: Application, after: Application): Inferred {
  const from = normalizeStatus(before.status);
  const to = normalizeStatus(after.status);
  if (!to) return { ok: false, error: MESSAGES.invalidStatus };
  if (to === 'DELIVERED' && (from === 'IN_PROGRESS' || from === 'DELIVERED')) return submissionOf(before, after);
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
  if (from === 'DELIVERED' && to === 'IN_PROGRESS') return changeRequestOf(before, after);
  if (from === 'PENDING_ACCEPTANCE' && to === 'PENDING') return { ok: true, event: { type: 'WITHDRAW_OFFER' } };
  if (to === 'WITHDRAWN') return { ok: true, event: { type: 'WITHDRAW_APPLICATION' } };
  if (to === 'CANCELLED') return { ok: true, event: { type: 'CANCEL' } };
  if (to === 'CANCELLATION_REQUESTED') {
    const note = after.cancellation?.note;
    return { ok: true, event: { type: 'REQUEST_CANCELLATION', ...(note ? { note } : {}) } };
  }
  if (from === 'CANCELLATION_REQUESTED' && to === 'IN_PROGRESS')
    return { ok: true, event: { type: 'REFUSE_CANCELLATION' } };
  if (to === 'DISPUTED') return { ok: true, event: { type: 'OPEN_DISPUTE', reason: after.dispute?.reason ?? '' } };
  // Work that is finished, disputed or being paid out: say so (a move made offline arriving late).
  // A declined application is not finished: the buyer may still send a new offer.
  const ended = from === 'REJECTED' ? undefined : stateRefusal(from);
  return { ok: false, error: ended ?? `An application cannot move from ${from ?? before.status} to ${to} here.` };
}

/**
 * Which single event a pushed document represents. Replication sends whole documents; only the
 * moves a user makes by hand can arrive this way: send an offer, Start Working, Decline, withdraw
 * an application or an offer, cancel before payment, submit work, request changes, ask to cancel,
 * refuse a cancellation, open a dispute. Money moves (completion, refunds, resolutions) are server
 * calls.
 */
export function eventFromChange(before: Application, after: Application): Inferred {
  const changedWork: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (MOVABLE.has(key)) continue;
    const b = (before as Record<string, unknown>)[key];
    const x = (after as Record<string, unknown>)[key];
    if (x === undefined || same(b, x)) continue;
    if (key in WORK_FIELDS) changedWork.push(key);
    else return cannotChange(key);
  }
  const move = moveOf(before, after);
  if (!move.ok) return move;
  const type = move.event.type;
  const stray = changedWork.find((key) => !(WORK_FIELDS[key] as readonly string[]).includes(type));
  return stray ? cannotChange(stray) : move;
}

/**
 * Why a move made on a device was not taken when the server's copy moved on first (the device
 * pushed against an older state): the reason the machine gives for the status the work is in
 * now, e.g. 'This work is completed and can no longer change.' after an automatic release.
 */
export function lateMoveRefusal(serverStatus: string): string | undefined {
  const status = normalizeStatus(serverStatus);
  if (status === 'CLOSED') return MESSAGES.closed;
  return stateRefusal(status);
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
