import { closeForFilledGig } from '../../shared/application-machine';
import { isFilled } from '../../shared/hiring';
import type { DecisionReader, DocWrite, Store, Stored } from '../store/store';
import { notificationWrites } from '../domain/notifications';
import { stamp } from '../domain/documents';

/** A gig's live applications as the store has them. */
export function applicationsOf(store: DecisionReader, gigId: string): Stored<'applications'>[] {
  return store.byIndex('applications', 'gigId', gigId).filter((a) => !a._deleted);
}

/**
 * Keeps a gig's `filledAt` true to its applications after a change (docs/decisions/014-…): once
 * accepted offers reach its openings it is stamped filled and every applicant still waiting is
 * closed and told; when openings are added again it is open again. `gig` and `applications` are
 * the states after the change being judged; the writes go in the same commit.
 */
export function hiringWrites(
  gig: Stored<'gigs'>,
  applications: Stored<'applications'>[],
  now: number,
): { gig: Stored<'gigs'>; writes: DocWrite[] } {
  const filled = isFilled(gig, applications);
  if (!filled) return { gig: gig.filledAt ? { ...gig, filledAt: null } : gig, writes: [] };
  const writes: DocWrite[] = [];
  for (const app of applications) {
    const closed = closeForFilledGig(app, gig.title);
    if (!closed) continue;
    writes.push({
      collection: 'applications',
      doc: { ...app, ...closed.changes, updatedAt: stamp(now, app) } as DocWrite['doc'],
    });
    writes.push(...notificationWrites([closed.notification], now));
  }
  return { gig: gig.filledAt ? gig : { ...gig, filledAt: now }, writes };
}

/**
 * Gigs stored before openings existed carry no `filledAt`: at start-up, each gig whose accepted
 * offers already reach its openings (1 when absent) is stamped filled and its waiting applicants
 * closed, as an acceptance would have done. Writes nothing when every gig is already settled.
 */
export async function settleStoredGigs(store: Store, now: number): Promise<number> {
  let written = 0;
  for (const stored of store.all('gigs')) {
    if (stored._deleted || stored.filledAt) continue;
    if (hiringWrites(stored, applicationsOf(store, stored.id), now).gig === stored) continue;
    // Each gig as one decision: instances starting at once settle it once (one notice each).
    const { value } = await store.transaction((read) => {
      const gig = read.get('gigs', stored.id);
      if (!gig || gig._deleted || gig.filledAt) return { writes: [], value: 0 };
      const settled = hiringWrites(gig, applicationsOf(read, gig.id), now);
      if (settled.gig === gig) return { writes: [], value: 0 };
      const { _seq: _ignored, ...doc } = settled.gig;
      const writes: DocWrite[] = [
        { collection: 'gigs', doc: { ...doc, updatedAt: stamp(now, gig) } },
        ...settled.writes,
      ];
      return { writes, value: writes.length };
    });
    written += value;
  }
  return written;
}

/**
 * A gig's filled stamp and waiting applicants after one of its applications stopped holding an
 * opening (an offer cancelled before payment, work refunded: decision 031): the gig may be open
 * again. The writes join the commit of the application's change.
 */
export function reopenings(read: DecisionReader, updated: Stored<'applications'>, now: number): DocWrite[] {
  const gig = read.get('gigs', updated.gigId);
  if (!gig || gig._deleted) return [];
  const others = applicationsOf(read, gig.id).filter((a) => a.id !== updated.id);
  const settled = hiringWrites(gig, [...others, updated], now);
  const writes = [...settled.writes];
  if (settled.gig !== gig) {
    const { _seq: _ignored, ...doc } = settled.gig;
    writes.push({ collection: 'gigs', doc: { ...doc, updatedAt: stamp(now, gig) } });
  }
  return writes;
}
