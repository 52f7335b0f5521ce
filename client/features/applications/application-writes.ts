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
