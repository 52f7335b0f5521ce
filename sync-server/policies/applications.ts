import {
  eventFromChange,
  newApplication,
  newApplicationNotification,
  transition,
} from '../../shared/application-machine';
import { HIRING_MESSAGES, acceptedCount, isFilled, offersLeft, openingsOf } from '../../shared/hiring';
import { applicationIdFor } from '../../shared/ids';
import { isProfileComplete } from '../../shared/profile-complete';
import { validateApplication } from '../../shared/validation/apply';
import type { DocWrite } from '../store/store';
import { applicationsOf, hiringWrites, reopenings } from './hiring';
import { stamp } from '../domain/documents';
import { gigRefOf } from '../domain/links';
import { notificationWrites } from '../domain/notifications';
import { refuse, type Policy, type PolicyInput, type PolicyResult } from './types';

const MAX_BUDGET_MINOR = 1_000_000_000_00;

export const applicationPolicy: Policy<'applications'> = (input): PolicyResult => {
  const { read, actor, current, incoming, deleting, now, settings } = input;
  if (deleting) return refuse('Applications cannot be deleted.');
  if (!current) return create(input);

  const next = { ...current, ...incoming };
  const inferred = eventFromChange(current, next);
  if (!inferred.ok) return refuse(inferred.error);
  const result = transition({
    actor: { id: actor.id, name: actor.name },
    application: current,
    gig: gigRefOf(read, current.gigId),
    event: inferred.event,
    now,
    ...(settings ? { settings } : {}),
  });
  if (!result.ok) return refuse(result.error);
  const updated = { ...current, ...result.changes, updatedAt: stamp(now, current) };
  const writes: DocWrite[] = [
    { collection: 'applications', doc: updated },
    ...notificationWrites(result.notifications, now),
  ];
  // An accepted offer cancelled before payment gives its opening back (decision 031).
  if (inferred.event.type === 'CANCEL') return { ok: true, writes: [...writes, ...reopenings(read, updated, now)] };

  // The gig's openings bound the offers out and the people hired (docs/decisions/014-…).
  const gig = read.get('gigs', current.gigId);
  if (!gig || gig._deleted) return { ok: true, writes };
  const others = applicationsOf(read, gig.id).filter((a) => a.id !== current.id);
  const statuses = others;
  if (inferred.event.type === 'SEND_OFFER' && offersLeft(gig, statuses) === 0)
    return refuse(HIRING_MESSAGES.noOpeningLeft);
  if (inferred.event.type === 'ACCEPT') {
    // Offers sent before openings existed may outnumber them: the first to accept fills the gig.
    if (acceptedCount(statuses) >= openingsOf(gig)) return refuse(HIRING_MESSAGES.filled);
    const settled = hiringWrites(gig, [...others, updated], now);
    if (settled.gig !== gig) writes.push({ collection: 'gigs', doc: { ...settled.gig, updatedAt: stamp(now, gig) } });
    writes.push(...settled.writes);
  }
  return { ok: true, writes };
};

function create({ read, actor, incoming, now }: PolicyInput<'applications'>): PolicyResult {
  const gigId = incoming.gigId ?? '';
  const gig = read.get('gigs', gigId);
  const budget = incoming.budget;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 0 || budget > MAX_BUDGET_MINOR) {
    return refuse('Please enter a valid budget offer');
  }
  const alreadyApplied = Boolean(read.get('applications', applicationIdFor(gigId, actor.id)));
  const live = gig && !gig._deleted ? gig : undefined;
  const message = validateApplication({
    rate: (budget / 100).toFixed(2),
    actor: { id: actor.id },
    profile: { complete: isProfileComplete(actor) },
    gig: live ? { createdBy: live.createdBy || undefined } : null,
    alreadyApplied,
  });
  if (message || !live) return refuse(message ?? 'Gig not found.');
  if (incoming.id !== applicationIdFor(gigId, actor.id)) return refuse('Invalid application id');
  // The server's own count, not the gig's stamp: a device offline may push after the gig filled.
  if (isFilled(live, applicationsOf(read, gigId))) return refuse(HIRING_MESSAGES.filled);
  const creator = read.get('users', live.createdBy);
  if (!creator) return refuse('Unable to process application: Invalid gig data (missing creator)');

  const application = newApplication({
    gig: { id: gigId, title: live.title, category: live.category, currency: live.currency },
    creator: { id: creator.id, name: creator.name, email: creator.email ?? '' },
    applicant: {
      id: actor.id,
      name: actor.name,
      email: actor.email ?? '',
      portfolioLink: actor.portfolioLink ?? '',
      location: actor.location || undefined,
    },
    budget,
    now,
  });
  return {
    ok: true,
    writes: [
      { collection: 'applications', doc: { ...application, _deleted: false } },
      ...notificationWrites([newApplicationNotification(application)], now),
      // The application links the two users: re-stamping both profiles makes each reach the
      // other on their next pull or stream event, though neither profile changed.
      { collection: 'users', doc: actor },
      { collection: 'users', doc: creator },
    ],
  };
}
