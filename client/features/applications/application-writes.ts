import { newApplication, transition, type ApplicationEvent } from '../../../shared/application-machine';
import type { Application } from '../../../shared/schemas/application';
import type { Gig } from '../../../shared/schemas/gig';
import type { User } from '../../../shared/schemas/user';
import type { DataContextValue } from '../../data/data-provider';

/**
 * Every application write the screens make. Each goes to the local database first (so it works
 * offline and shows as waiting); the moves are the shared state machine's (`transition`), the
 * same function the server runs again when the write arrives, before it writes the notifications.
 */

export async function applyToGig(
  { local, userId }: DataContextValue,
  gig: Gig,
  me: User,
  rateMinor: number,
): Promise<string> {
  // The creator's email is not public: the server stores it and shares it once an offer is accepted.
  const doc = newApplication({
    gig,
    creator: { id: gig.createdBy, name: gig.creatorName },
    applicant: { ...me, id: userId },
    budget: rateMinor,
    now: Date.now(),
  });
  await local.insert('applications', doc);
  return doc.id;
}

/** Moves one application by the state machine's rules, as this device knows them; throws the refusal's message. */
async function move(
  { local, userId }: DataContextValue,
  applicationId: string,
  event: ApplicationEvent,
): Promise<void> {
  const [application, me] = await Promise.all([local.get('applications', applicationId), local.get('users', userId)]);
  if (!application) throw new Error('Application not found');
  // The gig as the application names it: whether it still exists (and still has openings) is the
  // server's to judge when the write arrives; a refusal then is kept as a sync problem.
  const gig = { id: application.gigId, createdBy: application.creatorId, title: application.gigTitle };
  const result = transition({ actor: { id: userId, name: me?.name ?? '' }, application, gig, event, now: Date.now() });
  if (!result.ok) throw new Error(result.error);
  await local.patch('applications', applicationId, result.changes);
}

/** Buyer: final-budget offers, one per selected application (PENDING → PENDING_ACCEPTANCE). */
export async function sendOffers(data: DataContextValue, budgets: Record<string, number>): Promise<void> {
  for (const [applicationId, finalBudget] of Object.entries(budgets)) {
    await move(data, applicationId, { type: 'SEND_OFFER', finalBudget });
  }
}

/** Seller: Start Working: a paid offer waits for the buyer's payment (PENDING_PAYMENT), a zero offer starts at once. */
export async function acceptOffer(data: DataContextValue, application: Application): Promise<void> {
  await move(data, application.id, { type: 'ACCEPT' });
}

/** Seller: Decline (→ REJECTED, final budget cleared). */
export async function declineOffer(data: DataContextValue, applicationId: string): Promise<void> {
  await move(data, applicationId, { type: 'DECLINE' });
}

// Issue 15 (docs/decisions/031-money-nobody-strands.md): moves that hold no money replicate like
// the ones above, so they work offline and the server judges them when they arrive.

/** Freelancer: "Submit work" (IN_PROGRESS or DELIVERED → DELIVERED), the note and optional link kept in order. */
export async function submitWork(
  data: DataContextValue,
  applicationId: string,
  note: string,
  link: string,
): Promise<void> {
  await move(data, applicationId, { type: 'SUBMIT_WORK', note, ...(link.trim() ? { link: link.trim() } : {}) });
}

/** Buyer: "Request changes" on delivered work (→ IN_PROGRESS), with what needs to change. */
export async function requestChanges(data: DataContextValue, applicationId: string, note: string): Promise<void> {
  await move(data, applicationId, { type: 'REQUEST_CHANGES', note });
}

/** Freelancer: withdraw an application no offer was sent for (→ WITHDRAWN). */
export async function withdrawApplication(data: DataContextValue, applicationId: string): Promise<void> {
  await move(data, applicationId, { type: 'WITHDRAW_APPLICATION' });
}

/** Buyer: withdraw an offer not yet answered (→ PENDING). */
export async function withdrawOffer(data: DataContextValue, applicationId: string): Promise<void> {
  await move(data, applicationId, { type: 'WITHDRAW_OFFER' });
}

/** Either side: cancel an accepted offer before payment, or unpaid zero-budget work (→ CANCELLED). */
export async function cancelUnpaid(data: DataContextValue, applicationId: string): Promise<void> {
  await move(data, applicationId, { type: 'CANCEL' });
}

/** Buyer: ask to cancel paid work in progress (→ CANCELLATION_REQUESTED). */
export async function askToCancel(data: DataContextValue, applicationId: string, note: string): Promise<void> {
  await move(data, applicationId, { type: 'REQUEST_CANCELLATION', ...(note.trim() ? { note } : {}) });
}

/** Freelancer: refuse the buyer's cancellation request (→ IN_PROGRESS). */
export async function refuseCancellation(data: DataContextValue, applicationId: string): Promise<void> {
  await move(data, applicationId, { type: 'REFUSE_CANCELLATION' });
}

/** Either side: open a dispute on paid work with a reason (→ DISPUTED; the automatic release pauses). */
export async function openDispute(data: DataContextValue, applicationId: string, reason: string): Promise<void> {
  await move(data, applicationId, { type: 'OPEN_DISPUTE', reason });
}
