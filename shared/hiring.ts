import { isAcceptedOffer } from './constants';
import type { Application } from './schemas/application';
import type { Gig } from './schemas/gig';

/**
 * How many people a gig hires and when it is filled (docs/decisions/014-openings-and-filled-gigs.md).
 * A gig has `openings` (1 when absent: gigs written before openings existed hire one person).
 * Accepted offers (PENDING_PAYMENT, IN_PROGRESS, COMPLETED) fill openings; an offer still waiting
 * for its answer (PENDING_ACCEPTANCE) holds one, so the buyer can never have more people hired or
 * asked than openings. The gig is filled once accepted offers reach its openings.
 */

export const OPENINGS = { min: 1, max: 50, default: 1 } as const;

export const HIRING_MESSAGES = {
  filled: 'This gig is no longer accepting applications',
  noOpeningLeft: 'Every opening on this gig has an offer sent or accepted. Add openings to send more offers.',
  openingsInvalid: `Openings must be a whole number from ${OPENINGS.min} to ${OPENINGS.max}`,
  openingsBelowTaken: 'Openings cannot be fewer than the offers already sent or accepted',
  positionFilled: 'Position filled',
} as const;

type Status = Pick<Application, 'status'>;

export function openingsOf(gig: Pick<Gig, 'openings'>): number {
  return typeof gig.openings === 'number' ? gig.openings : OPENINGS.default;
}

export function isAccepted(a: Status): boolean {
  return isAcceptedOffer(a.status);
}

/** Openings held: accepted offers plus offers waiting for an answer. */
export function takenOpenings(applications: Status[]): number {
  return applications.filter((a) => isAccepted(a) || a.status === 'PENDING_ACCEPTANCE').length;
}

export function acceptedCount(applications: Status[]): number {
  return applications.filter(isAccepted).length;
}

/** Filled: accepted offers reached the openings. */
export function isFilled(gig: Pick<Gig, 'openings'>, applications: Status[]): boolean {
  return acceptedCount(applications) >= openingsOf(gig);
}

/** How many more offers the buyer may send now. */
export function offersLeft(gig: Pick<Gig, 'openings'>, applications: Status[]): number {
  return Math.max(0, openingsOf(gig) - takenOpenings(applications));
}

/** Openings as the form holds it (text) or a pushed document has it (a number): the message when it is not allowed. */
export function openingsError(value: unknown, applications: Status[] = []): string | undefined {
  const n = typeof value === 'string' ? (/^\s*\d+\s*$/.test(value) ? Number(value) : NaN) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < OPENINGS.min || n > OPENINGS.max)
    return HIRING_MESSAGES.openingsInvalid;
  if (n < takenOpenings(applications)) return HIRING_MESSAGES.openingsBelowTaken;
  return undefined;
}

/**
 * Whether a user sees a gig on the All Gigs board: a filled gig is shown only to its creator and
 * to those who applied to it. The server stores `filledAt`, so this needs no application of others.
 */
export function onBoardFor(
  gig: Pick<Gig, 'id' | 'filledAt' | 'createdBy'>,
  userId: string,
  appliedTo: ReadonlySet<string>,
): boolean {
  return !gig.filledAt || gig.createdBy === userId || appliedTo.has(gig.id);
}
