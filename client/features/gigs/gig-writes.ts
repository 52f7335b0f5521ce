import { newId } from '../../../shared/ids';
import type { Gig } from '../../../shared/schemas/gig';
import type { User } from '../../../shared/schemas/user';
import type { GigFormValues } from '../../../shared/validation/gig';
import type { DataContextValue } from '../../data/data-provider';
import { gigFields } from './gig-form';

/**
 * Writes a new gig to the local database; replication takes it to the server, which validates it
 * again and has the last word. Returns the new id.
 */
export async function createGig({ db, outbox, userId }: DataContextValue, values: GigFormValues, me: User | undefined): Promise<string> {
  const id = newId((n) => crypto.getRandomValues(new Uint8Array(n)));
  const now = Date.now();
  const doc: Gig = {
    id,
    ...gigFields(values),
    createdAt: now,
    createdBy: userId,
    creatorName: me?.name ?? '',
    status: 'active',
    filledAt: null,
    updatedAt: now,
  };
  outbox.track('gigs', id);
  await db.gigs.insert(doc);
  return id;
}

/** Edits one's own gig with the create rules (the server refuses once an offer on it is accepted). */
export async function editGig({ db, outbox }: DataContextValue, gigId: string, values: GigFormValues): Promise<void> {
  const doc = await db.gigs.findOne(gigId).exec();
  if (!doc) throw new Error('Gig not found.');
  outbox.track('gigs', gigId);
  await doc.incrementalModify((g) => {
    const next: Gig = { ...g, ...gigFields(values), updatedAt: Date.now() };
    // Fields the new location type does not carry go away.
    if (values.locationType !== 'remote') delete next.projectDeadline;
    if (!(values.locationType !== 'remote' && values.projectDate)) delete next.projectDate;
    if (!values.country) delete next.country;
    if (!values.city) delete next.city;
    return next;
  });
}

/**
 * Changes how many people one's gig hires, the one change allowed once work on it is accepted:
 * adding openings reopens a filled gig. The server settles `filledAt` and refuses fewer openings
 * than the offers already out or accepted.
 */
export async function setOpenings({ db, outbox }: DataContextValue, gigId: string, openings: number): Promise<void> {
  const doc = await db.gigs.findOne(gigId).exec();
  if (!doc) throw new Error('Gig not found.');
  outbox.track('gigs', gigId);
  await doc.incrementalPatch({ openings, updatedAt: Date.now() });
}

/** Deletes one's own gig (after the caller's confirmation). */
export async function deleteGig({ db, outbox }: DataContextValue, gigId: string): Promise<void> {
  const doc = await db.gigs.findOne(gigId).exec();
  if (!doc) throw new Error('Gig not found.');
  outbox.track('gigs', gigId);
  await doc.remove();
}
