import { newApplication } from '../../../shared/application-machine';
import type { Application } from '../../../shared/schemas/application';
import type { Gig } from '../../../shared/schemas/gig';
import type { User } from '../../../shared/schemas/user';
import type { DataContextValue } from '../../data/data-provider';

/**
 * Every application write the screens make. Each goes to the local database first (so it works
 * offline and shows as waiting); the server validates the transition again when it arrives and
 * writes the notifications. Statuses are the docs/product.md §4 values.
 */

export async function applyToGig({ db, outbox, userId }: DataContextValue, gig: Gig, me: User, rateMinor: number): Promise<string> {
  // The creator's email is not public: the server stores it and shares it once an offer is accepted.
  const doc = newApplication({
    gig,
    creator: { id: gig.createdBy, name: gig.creatorName },
    applicant: { ...me, id: userId },
    budget: rateMinor,
    now: Date.now(),
  });
  outbox.track('applications', doc.id);
  await db.applications.insert(doc);
  return doc.id;
}

async function patch({ db, outbox }: DataContextValue, applicationId: string, change: Partial<Application>): Promise<void> {
  const doc = await db.applications.findOne(applicationId).exec();
  if (!doc) throw new Error('Application not found');
  outbox.track('applications', applicationId);
  await doc.incrementalPatch({ ...change, updatedAt: Date.now() });
}

/** Buyer: final-budget offers, one per selected application (PENDING → PENDING_ACCEPTANCE). */
export async function sendOffers(data: DataContextValue, budgets: Record<string, number>): Promise<void> {
  for (const [applicationId, finalBudget] of Object.entries(budgets)) {
    await patch(data, applicationId, { status: 'PENDING_ACCEPTANCE', finalBudget });
  }
}

/**
 * Seller: Start Working. An offer above zero waits for the buyer's payment first
 * (PENDING_PAYMENT); a zero offer starts at once. The server decides the same way.
 */
export async function acceptOffer(data: DataContextValue, application: Application): Promise<void> {
  await patch(data, application.id, { status: (application.finalBudget ?? 0) > 0 ? 'PENDING_PAYMENT' : 'IN_PROGRESS' });
}

/** Seller: Decline (→ REJECTED, final budget cleared). */
export async function declineOffer(data: DataContextValue, applicationId: string): Promise<void> {
  await patch(data, applicationId, { status: 'REJECTED', finalBudget: null });
}
