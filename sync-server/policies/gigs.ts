import { GIG_STATUS_ACTIVE } from '../../shared/constants';
import { contentOf, gigContent, gigFormFromRecord, sameGigContent, type GigContent } from '../../shared/gig-content';
import { isAccepted, OPENINGS, openingsError, openingsOf } from '../../shared/hiring';
import { ID_PATTERN } from '../../shared/ids';
import { isProfileComplete } from '../../shared/profile-complete';
import { checkDeleteGig } from '../../shared/validation/delete-gig';
import { normalizeGigForm, validateGigForm } from '../../shared/validation/gig';
import { firstError } from '../../shared/validation/types';
import type { DocWrite } from '../store/store';
import { applicationsOf, hiringWrites } from './hiring';
import { stamp } from '../domain/documents';
import { hasPostedGig } from '../domain/links';
import { refuse, type Policy, type PolicyResult } from './types';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The server cannot know the user's time zone; it accepts any day that is "today" somewhere on
 * Earth (UTC today minus one day). The form itself enforces the user's local today.
 */
export function serverToday(now: number): string {
  return new Date(now - DAY_MS).toISOString().slice(0, 10);
}

/** Validates the pushed fields with the create-gig rules and returns the gig's content fields. */
function content(
  incoming: Record<string, unknown>,
  now: number,
): { ok: true; fields: GigContent } | { ok: false; reason: string } {
  const form = normalizeGigForm(gigFormFromRecord(incoming));
  const message = firstError(validateGigForm(form, { today: serverToday(now), variant: 'page' }));
  if (message) return { ok: false, reason: message };
  return { ok: true, fields: gigContent(form) };
}

export const gigPolicy: Policy<'gigs'> = ({ read, actor, current, incoming, deleting, now }): PolicyResult => {
  if (deleting) {
    const live = current && !current._deleted ? current : undefined;
    const apps = live ? applicationsOf(read, live.id) : [];
    const check = checkDeleteGig(actor.id, live ? { createdBy: live.createdBy } : undefined, apps);
    if (!check.ok) return refuse(check.error);
    const writes: DocWrite[] = [
      { collection: 'gigs', doc: { ...current!, _deleted: true, updatedAt: stamp(now, current) } },
    ];
    // Applications stay readable to both parties, with the gig's title (docs/architecture.md).
    for (const app of apps)
      writes.push({ collection: 'applications', doc: { ...app, gigDeleted: true, updatedAt: stamp(now, app) } });
    return { ok: true, writes };
  }

  if (!current) {
    if (!ID_PATTERN.test(incoming.id ?? '')) return refuse('Invalid gig id');
    if (!isProfileComplete(actor)) return refuse('Please complete your profile before creating a gig');
    const checked = content(incoming, now);
    if (!checked.ok) return refuse(checked.reason);
    const openings = incoming.openings ?? OPENINGS.default;
    const openingsProblem = openingsError(typeof openings === 'number' ? openings : Number.NaN);
    if (openingsProblem) return refuse(openingsProblem);
    const gig = {
      id: incoming.id ?? '',
      ...checked.fields,
      createdAt: now,
      createdBy: actor.id,
      creatorName: actor.name,
      creatorEmail: actor.email ?? '',
      status: GIG_STATUS_ACTIVE,
      openings,
      filledAt: null,
      updatedAt: now,
      _deleted: false,
    };
    const writes: DocWrite[] = [{ collection: 'gigs', doc: gig }];
    // A first gig on the board makes its creator's public profile (their reputation as a buyer)
    // everyone's to see: written again, it reaches every reader's next pull or stream (decision 032).
    if (!hasPostedGig(read, actor.id)) writes.push({ collection: 'users', doc: actor });
    return { ok: true, writes };
  }

  if (current._deleted) return refuse('Gig not found.');
  if (current.createdBy !== actor.id) return refuse('You do not have permission to edit this gig.');
  const apps = applicationsOf(read, current.id);
  const statuses = apps;
  // Openings stay editable once work is accepted (that is how a filled gig reopens); the content does not.
  const unchanged = sameGigContent(incoming, current);
  if (!unchanged && statuses.some(isAccepted)) {
    return refuse('This gig can no longer be edited: an offer on it has been accepted.');
  }
  const openings = incoming.openings ?? openingsOf(current);
  const openingsProblem = openingsError(typeof openings === 'number' ? openings : Number.NaN, statuses);
  if (openingsProblem) return refuse(openingsProblem);
  // Unchanged content is kept as it is, not judged again: a deadline that has passed since must
  // not stop its creator from adding an opening.
  const checked = unchanged ? { ok: true as const, fields: contentOf(current) } : content(incoming, now);
  if (!checked.ok) return refuse(checked.reason);
  const settled = hiringWrites(
    {
      id: current.id,
      _seq: current._seq,
      ...checked.fields,
      createdAt: current.createdAt,
      createdBy: current.createdBy,
      creatorName: current.creatorName,
      creatorEmail: current.creatorEmail,
      status: current.status,
      openings,
      filledAt: current.filledAt ?? null,
      updatedAt: stamp(now, current),
      _deleted: false,
    },
    apps,
    now,
  );
  const { _seq: _ignored, ...next } = settled.gig;
  const writes: DocWrite[] = [{ collection: 'gigs', doc: next }, ...settled.writes];
  if (next.title !== current.title || next.category !== current.category) {
    for (const app of apps) {
      // An application closed in this same commit is written once, with the new title.
      const closed = settled.writes.find((w) => w.collection === 'applications' && w.doc.id === app.id);
      if (closed) Object.assign(closed.doc, { gigTitle: next.title, gigCategory: next.category });
      else
        writes.push({
          collection: 'applications',
          doc: { ...app, gigTitle: next.title, gigCategory: next.category, updatedAt: stamp(now, app) },
        });
    }
  }
  return { ok: true, writes };
};
