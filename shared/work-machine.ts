import { DAY_MS, DEFAULT_AUTO_RELEASE_DAYS, LIMITS, type ApplicationStatus } from './constants';
import {
  normalizeStatus,
  refuse,
  type Actor,
  type GigRef,
  type NotificationDraft,
  type TransitionResult,
} from './machine-types';
import { buyerCheckout, formatMoney, payoutSplit, settlementAmounts } from './money';
import type { Application, Settlement, SettlementKind } from './schemas/application';
import { quoted } from './text';
import {
  cancellationNoteError,
  changeRequestError,
  disputeReasonError,
  submissionErrors,
  WORK_MESSAGES,
} from './validation/work';

/**
 * The application machine from accepted work on (issue 15, docs/decisions/031-money-nobody-strands.md):
 * delivery, cancellation before and after payment, disputes, and the settlement of the buyer's
 * money. Pure: shared/application-machine.ts's `transition` hands these events here.
 *
 *   IN_PROGRESS ──SUBMIT_WORK──▶ DELIVERED ──SUBMIT_WORK (again)──▶ DELIVERED
 *        ▲                          │──REQUEST_CHANGES──▶ IN_PROGRESS
 *        │                          │──COMPLETE ("Approve and pay") ───┐
 *        │                          └──AUTO_RELEASE (server, on autoReleaseAt) ─┐
 *        ├──REQUEST_CANCELLATION──▶ CANCELLATION_REQUESTED                       │
 *        └──────REFUSE_CANCELLATION──────┘     │──CANCEL_PAID (freelancer) ──────┤
 *   IN_PROGRESS ──COMPLETE / CANCEL_PAID──────────────────────────────────────────┤
 *   DISPUTED, nothing ever submitted ──CANCEL_PAID (freelancer; closes the dispute)┤
 *   IN_PROGRESS, DELIVERED, CANCELLATION_REQUESTED ──OPEN_DISPUTE──▶ DISPUTED     │
 *   DISPUTED ──RESOLVE (operator: refund | release | split)──────────────────────▶ SETTLING
 *   CANCELLED ──REFUND_LATE_PAYMENT (server: a payment confirmed after cancelling)─▶ SETTLING
 *   SETTLING ──SETTLED──▶ COMPLETED (release) | REFUNDED (refund) | SPLIT (split)
 *   SETTLING ──SETTLEMENT_REFUSED──▶ SETTLEMENT_FAILED ──RETRY_SETTLEMENT──▶ SETTLING
 *            (a release the buyer asked for returns to where it was instead)
 *   PENDING, CLOSED ──WITHDRAW_APPLICATION──▶ WITHDRAWN
 *   PENDING_ACCEPTANCE ──WITHDRAW_OFFER──▶ PENDING
 *   PENDING_PAYMENT (and unpaid zero-budget work) ──CANCEL──▶ CANCELLED
 *
 * SETTLING is the claim on the money: whoever moves an application there owns its outcome, so an
 * approval, the automatic release and a dispute racing on one application end in exactly one of
 * them. Work with a final budget of 0 holds no money: it completes or is cancelled at once.
 */

export type WorkEvent =
  | { type: 'SUBMIT_WORK'; note: string; link?: string }
  | { type: 'REQUEST_CHANGES'; note: string }
  | { type: 'WITHDRAW_APPLICATION' }
  | { type: 'WITHDRAW_OFFER' }
  | { type: 'CANCEL' }
  | { type: 'REQUEST_CANCELLATION'; note?: string }
  | { type: 'REFUSE_CANCELLATION' }
  | { type: 'OPEN_DISPUTE'; reason: string }
  | { type: 'AUTO_RELEASE' }
  | { type: 'CANCEL_PAID' }
  | { type: 'RESOLVE'; outcome: SettlementKind; freelancerBase?: number }
  | { type: 'REFUND_LATE_PAYMENT' }
  | { type: 'SETTLED'; payoutHeld?: boolean }
  /** `refunded`: the buyer's refund of this settlement went out before the refusal (a split's payout refused). */
  | { type: 'SETTLEMENT_REFUSED'; failure: string; refunded?: boolean }
  | { type: 'RETRY_SETTLEMENT' };

export type WorkSettings = { autoReleaseMs: number };
export const DEFAULT_WORK_SETTINGS: WorkSettings = { autoReleaseMs: DEFAULT_AUTO_RELEASE_DAYS * DAY_MS };

export const WORK_MACHINE_MESSAGES = {
  onlyApplicantSubmits: 'Only the freelancer on this work can submit it.',
  notSubmittable: 'Work can be submitted only while it is in progress.',
  onlyCreatorAnswersDelivery: 'Only the buyer of this gig can approve the work or request changes.',
  notDelivered: 'There is no delivered work waiting for an answer.',
  onlyApplicantWithdraws: 'Only the applicant can withdraw this application.',
  notWithdrawable: 'This application can no longer be withdrawn.',
  onlyCreatorWithdrawsOffer: 'Only the creator of this gig can withdraw the offer.',
  onlyPartiesCancel: 'Only the buyer or the freelancer can cancel this work.',
  paidCancel: 'This work is paid: the freelancer can cancel it with a full refund, or either side can open a dispute.',
  notCancellable: 'This work can no longer be cancelled.',
  onlyCreatorRequestsCancellation: 'Only the buyer of this gig can ask to cancel the work.',
  notCancellationRequestable: 'A cancellation can be requested only for paid work in progress.',
  onlyApplicantAnswersCancellation: 'Only the freelancer can accept or refuse a cancellation request.',
  noCancellationRequest: 'There is no cancellation request waiting for an answer.',
  onlyApplicantCancelsPaid: 'Only the freelancer can cancel paid work.',
  notPaidCancellable: 'Paid work can be cancelled only before it is delivered.',
  onlyPartiesDispute: 'Only the buyer or the freelancer can open a dispute.',
  notDisputable: 'A dispute can be opened only on paid work that is not finished yet.',
  onlyOperatorsResolve: 'Only an operator can resolve a dispute.',
  partyCannotResolve: 'An operator cannot resolve a dispute they take part in.',
  noDispute: 'There is no open dispute on this work.',
  invalidSplit: 'A split gives each side part of the final budget.',
  notDue: 'This work is not due for automatic release.',
  onlyServer: 'Only the server can do this.',
  notSettling: 'No payment is being settled on this work.',
  noFailedSettlement: 'There is no refused payment to try again.',
  onlyPartiesRetry: 'Only the buyer, the freelancer or an operator can try the payment again.',
  settling: 'The payment for this work is being settled.',
  disputed: 'This work is under dispute: an operator will resolve it.',
  notLate: 'There is no payment to refund on this application.',
} as const;
const M = WORK_MACHINE_MESSAGES;

export type WorkInput = {
  actor: Actor;
  application: Application;
  gig: GigRef | undefined;
  event: WorkEvent;
  now: number;
  settings?: WorkSettings;
};

/** Paid work: a final budget above 0 whose payment the server confirmed. */
export function isPaid(a: Pick<Application, 'finalBudget' | 'paymentConfirmedAt'>): boolean {
  return (a.finalBudget ?? 0) > 0 && a.paymentConfirmedAt !== null && a.paymentConfirmedAt !== undefined;
}

/** Where the money of each settlement kind goes, given the freelancer's part of the base. */
function freelancerBaseOf(kind: SettlementKind, base: number, split?: number): number | undefined {
  if (kind === 'refund') return 0;
  if (kind === 'release') return base;
  return typeof split === 'number' && Number.isSafeInteger(split) && split > 0 && split < base ? split : undefined;
}

/** The claim on the money: SETTLING with what was decided, computed from the stored final budget. */
export function startSettlement(
  a: Application,
  kind: SettlementKind,
  by: Settlement['by'],
  freelancerBase: number,
  now: number,
): Partial<Application> {
  const base = a.finalBudget ?? 0;
  const amounts = settlementAmounts(buyerCheckout(base), freelancerBase);
  const from = normalizeStatus(a.status) ?? 'IN_PROGRESS';
  return {
    status: 'SETTLING',
    settlement: {
      kind,
      by,
      from,
      freelancerBase,
      toFreelancer: amounts.toFreelancer,
      refund: amounts.refund,
      decidedAt: now,
      settledAt: null,
      failure: null,
    },
  };
}

const FINAL: Record<SettlementKind, ApplicationStatus> = { release: 'COMPLETED', refund: 'REFUNDED', split: 'SPLIT' };

/** Days between delivery and the automatic release, as the application stored them. */
export function autoReleaseDays(a: Pick<Application, 'deliveredAt' | 'autoReleaseAt'>, settings: WorkSettings): number {
  const span =
    typeof a.autoReleaseAt === 'number' && typeof a.deliveredAt === 'number'
      ? a.autoReleaseAt - a.deliveredAt
      : settings.autoReleaseMs;
  return Math.max(1, Math.round(span / DAY_MS));
}

const preview = (text: string) => (text.length > 100 ? `${text.slice(0, 99)}…` : text);

export function workTransition(input: WorkInput): TransitionResult {
  const { actor, application: a, gig, event, now } = input;
  const settings = input.settings ?? DEFAULT_WORK_SETTINGS;
  const status = normalizeStatus(a.status);
  const isCreator = !actor.system && actor.id === a.creatorId && (!gig || gig.createdBy === actor.id);
  const isApplicant = !actor.system && actor.id === a.applicantId;
  const isParty = isCreator || isApplicant;
  const gigTitle = gig?.title ?? a.gigTitle;
  const title = quoted(gigTitle);
  const who = quoted(actor.name);
  const common = {
    gigId: a.gigId,
    gigTitle,
    applicationId: a.id,
    ...(actor.system ? {} : { senderId: actor.id, senderName: actor.name }),
  };
  const toBuyer = (
    type: NotificationDraft['type'],
    message: string,
    extra: Partial<NotificationDraft> = {},
  ): NotificationDraft => ({
    ...common,
    userId: a.creatorId,
    recipientName: a.creatorName,
    type,
    message,
    ...extra,
  });
  const toFreelancer = (
    type: NotificationDraft['type'],
    message: string,
    extra: Partial<NotificationDraft> = {},
  ): NotificationDraft => ({
    ...common,
    userId: a.applicantId,
    recipientName: a.applicantName,
    type,
    message,
    ...extra,
  });
  const base = a.finalBudget ?? 0;
  const money = (minor: number) => formatMoney(minor, a.currency);
  const ok = (changes: Partial<Application>, notifications: NotificationDraft[]): TransitionResult => ({
    ok: true,
    changes,
    notifications,
  });

  switch (event.type) {
    case 'SUBMIT_WORK': {
      if (!isApplicant) return refuse(M.onlyApplicantSubmits, 'forbidden');
      if (status !== 'IN_PROGRESS' && status !== 'DELIVERED') return refuse(stateRefusal(status) ?? M.notSubmittable);
      const errors = submissionErrors(event);
      if (errors.note || errors.link) return refuse((errors.note ?? errors.link)!);
      const earlier = a.submissions ?? [];
      if (earlier.length >= LIMITS.submissionsMax) return refuse(WORK_MESSAGES.tooManySubmissions);
      const link = event.link?.trim();
      const submission = { note: event.note.trim(), ...(link ? { link } : {}), submittedAt: now };
      const again = status === 'DELIVERED';
      return ok(
        {
          status: 'DELIVERED',
          submissions: [...earlier, submission],
          deliveredAt: now,
          autoReleaseAt: now + settings.autoReleaseMs,
        },
        [
          toBuyer(
            'WORK_DELIVERED',
            `${again ? 'New version of the work' : 'Work'} delivered by ${who} for ${title}. Approve it or request changes: it is released automatically after ${Math.round(settings.autoReleaseMs / DAY_MS)} days.`,
          ),
        ],
      );
    }
    case 'REQUEST_CHANGES': {
      if (!isCreator) return refuse(M.onlyCreatorAnswersDelivery, 'forbidden');
      if (status !== 'DELIVERED') return refuse(stateRefusal(status) ?? M.notDelivered);
      const error = changeRequestError(event.note);
      if (error) return refuse(error);
      const submissions = [...(a.submissions ?? [])];
      const last = submissions.at(-1);
      if (!last) return refuse(M.notDelivered);
      const note = event.note.trim();
      submissions[submissions.length - 1] = { ...last, changesRequested: { note, at: now } };
      return ok({ status: 'IN_PROGRESS', submissions, autoReleaseAt: null }, [
        toFreelancer('CHANGES_REQUESTED', `Changes requested by ${who} on ${title}: ${preview(note)}`),
      ]);
    }
    case 'WITHDRAW_APPLICATION': {
      if (!isApplicant) return refuse(M.onlyApplicantWithdraws, 'forbidden');
      if (status !== 'PENDING' && status !== 'CLOSED') return refuse(stateRefusal(status) ?? M.notWithdrawable);
      return ok({ status: 'WITHDRAWN', finalBudget: null }, [
        toBuyer('APPLICATION_WITHDRAWN', `Application withdrawn by ${who} for ${title}`),
      ]);
    }
    case 'WITHDRAW_OFFER': {
      if (!isCreator) return refuse(M.onlyCreatorWithdrawsOffer, 'forbidden');
      if (status !== 'PENDING_ACCEPTANCE')
        return refuse(stateRefusal(status) ?? 'There is no offer waiting for an answer.');
      return ok({ status: 'PENDING', finalBudget: null }, [
        toFreelancer('OFFER_WITHDRAWN', `Offer withdrawn by ${who} for ${title}`),
      ]);
    }
    case 'CANCEL': {
      if (!isParty) return refuse(M.onlyPartiesCancel, 'forbidden');
      const unpaidWork =
        base === 0 && (status === 'IN_PROGRESS' || status === 'DELIVERED' || status === 'CANCELLATION_REQUESTED');
      if (status !== 'PENDING_PAYMENT' && !unpaidWork) {
        if (status && isMoneyHeld(status)) return refuse(M.paidCancel);
        return refuse(stateRefusal(status) ?? M.notCancellable);
      }
      const message =
        status === 'PENDING_PAYMENT'
          ? `${who} cancelled the accepted offer for ${title} before payment`
          : `${who} cancelled the work on ${title}`;
      const notify = isCreator ? toFreelancer('WORK_CANCELLED', message) : toBuyer('WORK_CANCELLED', message);
      return ok({ status: 'CANCELLED', autoReleaseAt: null }, [notify]);
    }
    case 'REQUEST_CANCELLATION': {
      if (!isCreator) return refuse(M.onlyCreatorRequestsCancellation, 'forbidden');
      if (status !== 'IN_PROGRESS' || !isPaid(a)) return refuse(stateRefusal(status) ?? M.notCancellationRequestable);
      const error = cancellationNoteError(event.note);
      if (error) return refuse(error);
      const note = event.note?.trim();
      return ok(
        {
          status: 'CANCELLATION_REQUESTED',
          cancellation: { ...(note ? { note } : {}), requestedAt: now, refusedAt: null },
        },
        [
          toFreelancer(
            'CANCELLATION_REQUESTED',
            `${who} asked to cancel ${title}. Accept to refund them in full, or refuse.${note ? ` Their note: ${preview(note)}` : ''}`,
          ),
        ],
      );
    }
    case 'REFUSE_CANCELLATION': {
      if (!isApplicant) return refuse(M.onlyApplicantAnswersCancellation, 'forbidden');
      if (status !== 'CANCELLATION_REQUESTED') return refuse(stateRefusal(status) ?? M.noCancellationRequest);
      return ok(
        { status: 'IN_PROGRESS', cancellation: { ...(a.cancellation ?? { requestedAt: now }), refusedAt: now } },
        [toBuyer('CANCELLATION_REFUSED', `${who} refused to cancel ${title}. Either of you may open a dispute.`)],
      );
    }
    case 'OPEN_DISPUTE': {
      if (!isParty) return refuse(M.onlyPartiesDispute, 'forbidden');
      const open = status === 'IN_PROGRESS' || status === 'DELIVERED' || status === 'CANCELLATION_REQUESTED';
      if (!open || !isPaid(a)) return refuse(stateRefusal(status) ?? M.notDisputable);
      const error = disputeReasonError(event.reason);
      if (error) return refuse(error);
      const message = `Dispute opened by ${who} on ${title}. Automatic release is paused until an operator resolves it.`;
      return ok(
        {
          status: 'DISPUTED',
          autoReleaseAt: null,
          dispute: { by: isCreator ? 'buyer' : 'freelancer', reason: event.reason.trim(), openedAt: now },
        },
        [toBuyer('DISPUTE_OPENED', message), toFreelancer('DISPUTE_OPENED', message)],
      );
    }
    case 'AUTO_RELEASE': {
      if (!actor.system) return refuse(M.onlyServer, 'forbidden');
      if (status !== 'DELIVERED' || typeof a.autoReleaseAt !== 'number' || a.autoReleaseAt > now)
        return refuse(stateRefusal(status) ?? M.notDue);
      if (base > 0 && !isPaid(a)) return refuse('This work has not been paid yet.');
      if (base === 0) {
        const message = `Work on ${title} completed automatically after ${autoReleaseDays(a, settings)} days`;
        return ok({ status: 'COMPLETED', completedAt: now, autoReleaseAt: null }, [
          toBuyer('PAYMENT_RELEASED', message),
          toFreelancer('PAYMENT_RELEASED', message),
        ]);
      }
      return ok(startSettlement(a, 'release', 'automatic', base, now), []);
    }
    case 'CANCEL_PAID': {
      if (!isApplicant) return refuse(M.onlyApplicantCancelsPaid, 'forbidden');
      // Before delivery, at any time: a dispute over work never submitted included (the refund closes it).
      const neverDelivered = (a.submissions ?? []).length === 0;
      const beforeDelivery =
        status === 'IN_PROGRESS' || status === 'CANCELLATION_REQUESTED' || (status === 'DISPUTED' && neverDelivered);
      if (!beforeDelivery || !isPaid(a)) return refuse(stateRefusal(status) ?? M.notPaidCancellable);
      return ok(startSettlement(a, 'refund', 'freelancer', 0, now), []);
    }
    case 'RESOLVE': {
      if (!actor.operator || actor.system) return refuse(M.onlyOperatorsResolve, 'forbidden');
      if (actor.id === a.creatorId || actor.id === a.applicantId) return refuse(M.partyCannotResolve, 'forbidden');
      if (status !== 'DISPUTED') return refuse(stateRefusal(status) ?? M.noDispute);
      const freelancerBase = freelancerBaseOf(event.outcome, base, event.freelancerBase);
      if (freelancerBase === undefined) return refuse(M.invalidSplit);
      return ok(startSettlement(a, event.outcome, 'operator', freelancerBase, now), []);
    }
    case 'REFUND_LATE_PAYMENT': {
      if (!actor.system) return refuse(M.onlyServer, 'forbidden');
      if (status !== 'CANCELLED' || base === 0 || a.paymentConfirmedAt) return refuse(M.notLate);
      return ok({ ...startSettlement(a, 'refund', 'server', 0, now), paymentConfirmedAt: now }, []);
    }
    case 'SETTLED': {
      if (!actor.system) return refuse(M.onlyServer, 'forbidden');
      const s = a.settlement;
      if (status !== 'SETTLING' || !s) return refuse(M.notSettling);
      // The release date goes only now: a refused release returns to delivered work that keeps it.
      const changes: Partial<Application> = {
        status: FINAL[s.kind],
        autoReleaseAt: null,
        settlement: { ...s, settledAt: now, failure: null },
        ...(s.kind === 'refund' ? {} : { completedAt: now }),
      };
      return ok(
        changes,
        settledNotices(a, s, event.payoutHeld === true, { toBuyer, toFreelancer, title, money, settings }),
      );
    }
    case 'SETTLEMENT_REFUSED': {
      if (!actor.system) return refuse(M.onlyServer, 'forbidden');
      const s = a.settlement;
      if (status !== 'SETTLING' || !s) return refuse(M.notSettling);
      // The buyer's own Mark as Complete or approval: nothing moved, the work stays as it was and
      // they may try again (docs/product.md §4.2, 'Payment transfer was not successful').
      if (s.kind === 'release' && s.by === 'buyer') return ok({ status: s.from, settlement: undefined }, []);
      const refundedAt = event.refunded === true && s.refund > 0 ? (s.refundedAt ?? now) : (s.refundedAt ?? null);
      const what = s.kind === 'release' ? 'the payout' : s.kind === 'refund' ? 'the refund' : 'the split';
      // Say exactly what moved: a split's refund may have gone out before its payout was refused.
      const message = refundedAt
        ? `The payment provider refused the freelancer’s payout of ${money(s.toFreelancer)} for ${title}. The buyer’s refund of ${money(s.refund)} went out; only the payout is left, and it can be tried again from My Gigs.`
        : `The payment provider refused ${what} for ${title}. Nothing was marked paid; it can be tried again from My Gigs.`;
      return ok(
        { status: 'SETTLEMENT_FAILED', settlement: { ...s, failure: event.failure.slice(0, 500), refundedAt } },
        [toBuyer('PAYMENT_PROBLEM', message), toFreelancer('PAYMENT_PROBLEM', message)],
      );
    }
    case 'RETRY_SETTLEMENT': {
      if (!isParty && !(actor.operator && !actor.system)) return refuse(M.onlyPartiesRetry, 'forbidden');
      const s = a.settlement;
      if (status !== 'SETTLEMENT_FAILED' || !s) return refuse(stateRefusal(status) ?? M.noFailedSettlement);
      return ok({ status: 'SETTLING', settlement: { ...s, failure: null } }, []);
    }
  }
}

type NoticeTools = {
  toBuyer: (type: NotificationDraft['type'], message: string, extra?: Partial<NotificationDraft>) => NotificationDraft;
  toFreelancer: (
    type: NotificationDraft['type'],
    message: string,
    extra?: Partial<NotificationDraft>,
  ) => NotificationDraft;
  title: string;
  money: (minor: number) => string;
  settings: WorkSettings;
};

/** Who hears what once the money has moved as decided. */
function settledNotices(a: Application, s: Settlement, payoutHeld: boolean, t: NoticeTools): NotificationDraft[] {
  const held = payoutHeld ? '. Set up payouts in Settings to receive your payment.' : '';
  const currency = { currency: a.currency };
  if (s.by === 'operator') {
    const outcome =
      s.kind === 'refund'
        ? `refunded to the buyer in full (${t.money(s.refund)})`
        : s.kind === 'release'
          ? `paid to the freelancer in full (${t.money(s.toFreelancer)})`
          : `split: ${t.money(s.toFreelancer)} to the freelancer, ${t.money(s.refund)} refunded to the buyer`;
    const message = `The dispute on ${t.title} was resolved: ${outcome}`;
    return [
      t.toBuyer('DISPUTE_RESOLVED', message, { amount: s.refund, ...currency }),
      t.toFreelancer('DISPUTE_RESOLVED', `${message}${held}`, { amount: s.toFreelancer, ...currency }),
    ];
  }
  if (s.kind === 'release' && s.by === 'automatic') {
    const message = `Payment released automatically after ${autoReleaseDays(a, t.settings)} days for ${t.title}`;
    return [
      t.toBuyer('PAYMENT_RELEASED', message),
      t.toFreelancer('PAYMENT_RELEASED', `${message}${held}`, { amount: s.toFreelancer, ...currency }),
    ];
  }
  if (s.kind === 'release') {
    // The buyer's Mark as Complete or "Approve and pay": the notice completion always sent.
    return [
      t.toFreelancer('GIG_COMPLETED', `Work on ${t.title} marked complete by ${quoted(a.creatorName)}${held}`, {
        amount: s.toFreelancer,
        ...currency,
      }),
    ];
  }
  // Refunds in full: the freelancer cancelled, or a payment arrived after the offer was cancelled.
  if (s.by === 'freelancer' && s.from === 'DISPUTED') {
    // The freelancer cancelled work under dispute that was never delivered: the refund closes it.
    return [
      t.toBuyer(
        'REFUND_ISSUED',
        `${quoted(a.applicantName)} cancelled ${t.title}: you were refunded in full (${t.money(s.refund)}). The dispute is closed.`,
        { amount: s.refund, ...currency },
      ),
      t.toFreelancer(
        'DISPUTE_RESOLVED',
        `The dispute on ${t.title} is closed: you cancelled the work and ${quoted(a.creatorName)} was refunded in full (${t.money(s.refund)})`,
      ),
    ];
  }
  const message =
    s.by === 'server'
      ? `Your payment for ${t.title} arrived after the offer was cancelled: it was refunded in full (${t.money(s.refund)})`
      : `${quoted(a.applicantName)} cancelled ${t.title}: you were refunded in full (${t.money(s.refund)})`;
  return [t.toBuyer('REFUND_ISSUED', message, { amount: s.refund, ...currency })];
}

/** Statuses in which the platform holds the buyer's money (nothing can be cancelled for free). */
function isMoneyHeld(status: ApplicationStatus): boolean {
  return ['IN_PROGRESS', 'DELIVERED', 'CANCELLATION_REQUESTED', 'DISPUTED', 'SETTLING', 'SETTLEMENT_FAILED'].includes(
    status,
  );
}

/**
 * Why nothing more can happen to an application in `status`, when that is the reason a move is
 * refused: it is finished, disputed, or its money is being settled. Undefined otherwise.
 */
export function stateRefusal(status: ApplicationStatus | undefined): string | undefined {
  switch (status) {
    case 'COMPLETED':
      return 'This work is completed and can no longer change.';
    case 'REJECTED':
      return 'This application was declined and can no longer change.';
    case 'CLOSED':
      return undefined;
    case 'REFUNDED':
      return 'This work was refunded and can no longer change.';
    case 'SPLIT':
      return 'This work was settled by an operator and can no longer change.';
    case 'WITHDRAWN':
      return 'This application was withdrawn and can no longer change.';
    case 'CANCELLED':
      return 'This offer was cancelled and can no longer change.';
    case 'DISPUTED':
      return M.disputed;
    case 'SETTLING':
    case 'SETTLEMENT_FAILED':
      return M.settling;
    default:
      return undefined;
  }
}

/** The freelancer's 90% of the final budget (what a release pays). */
export function releaseAmount(a: Pick<Application, 'finalBudget'>): number {
  return payoutSplit(a.finalBudget ?? 0).freelancer;
}
