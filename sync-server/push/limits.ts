/**
 * What web push may cost, per user and in all (docs/decisions/030-installed-app.md, "Revised"):
 * no single user's notifications, devices or push services can slow or crowd out anyone else's.
 */

/**
 * A notification older than this when its change arrives is not news: it was marked read, or a
 * restart replays it, or an old one was rewritten. Only fresh notifications are pushed.
 */
export const FRESH_MS = 10 * 60_000;

/**
 * How long a push's claim is kept: a claim stops mattering once its notification is no longer
 * fresh (no instance would push it again); the second window covers server clocks that differ.
 */
export const CLAIM_KEPT_MS = 2 * FRESH_MS;

export type SenderLimits = {
  /** Claims kept per user at once: past that, that user's newer notifications are not pushed until older ones age out. */
  claimsPerUser: number;
  /** Pushes in flight at once, in all and for one user (whose push service may be slow). */
  inFlight: number;
  inFlightPerUser: number;
  /** Pushes waiting, in all and for one user: past either, that user's newest are dropped (and logged). */
  queued: number;
  queuedPerUser: number;
};

export const SENDER_LIMITS: SenderLimits = {
  claimsPerUser: 100,
  inFlight: 8,
  inFlightPerUser: 2,
  queued: 10_000,
  queuedPerUser: 100,
};
