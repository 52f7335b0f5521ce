import { gigContent } from '../../../shared/gig-content';
import { newId } from '../../../shared/ids';
import type { User } from '../../../shared/schemas/user';
import type { GigFormValues } from '../../../shared/validation/gig';
import type { DataContextValue } from '../../data/data-provider';

/**
 * Writes a new gig to the local database; replication takes it to the server, which validates it
 * again and has the last word. Returns the new id.
 */
export async function createGig(
  { local, userId }: DataContextValue,
  values: GigFormValues,
  me: User | undefined,
): Promise<string> {
  const id = newId((n) => crypto.getRandomValues(new Uint8Array(n)));
  const now = Date.now();
  await local.insert('gigs', {
    id,
    ...gigContent(values),
    openings: Number(values.openings),
    createdAt: now,
    createdBy: userId,
    creatorName: me?.name ?? '',
    status: 'active',
    filledAt: null,
    updatedAt: now,
  });
  return id;
}

/** Edits one's own gig with the create rules (the server refuses once an offer on it is accepted). */
export async function editGig({ local }: DataContextValue, gigId: string, values: GigFormValues): Promise<void> {
  const found = await local.modify('gigs', gigId, (g) => {
    // Fields the new location type does not carry go away: the content replaces the old one whole.
    const { country: _country, city: _city, projectDeadline: _deadline, projectDate: _date, ...rest } = g;
    return { ...rest, ...gigContent(values), openings: Number(values.openings) };
  });
  if (!found) throw new Error('Gig not found.');
}

/**
 * Changes how many people one's gig hires, the one change allowed once work on it is accepted:
 * adding openings reopens a filled gig. The server settles `filledAt` and refuses fewer openings
 * than the offers already out or accepted.
 */
export async function setOpenings({ local }: DataContextValue, gigId: string, openings: number): Promise<void> {
  if (!(await local.patch('gigs', gigId, { openings }))) throw new Error('Gig not found.');
}

/** Deletes one's own gig (after the caller's confirmation). */
export async function deleteGig({ local }: DataContextValue, gigId: string): Promise<void> {
  if (!(await local.remove('gigs', gigId))) throw new Error('Gig not found.');
}
