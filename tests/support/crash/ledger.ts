import type { ApplicationStatus } from '../../../shared/constants';

/**
 * What the crash test's clients were told succeeded, kept in the test process across every kill:
 * an HTTP 200 whose row was not refused and came back as written, or a chat message whose server
 * stamp reached a client. After each kill the store must hold all of it.
 */
export type Ledger = {
  /** Acknowledged sign-ups (201): user id → email. */
  signups: Map<string, string>;
  /** Acknowledged gig creations, with the newest acknowledged edit and whether a deletion was acknowledged. */
  gigs: Map<string, { owner: string; updatedAt: number; title: string; deleted: boolean }>;
  /** Acknowledged applications with the furthest status a move of theirs was acknowledged at. */
  applications: Map<string, { gigId: string; creatorId: string; applicantId: string; status: ApplicationStatus }>;
  /** Newest acknowledged bio per user. */
  bios: Map<string, { updatedAt: number; bio: string }>;
  /** Notifications whose "read" was acknowledged. */
  read: Set<string>;
  /** Stamped chat messages: room → message id → content. */
  chat: Map<string, Map<string, string>>;
  counts: { requests: number; acknowledged: number; refused: number; failed: number; stamped: number };
};

export function newLedger(): Ledger {
  return {
    signups: new Map(),
    gigs: new Map(),
    applications: new Map(),
    bios: new Map(),
    read: new Set(),
    chat: new Map(),
    counts: { requests: 0, acknowledged: 0, refused: 0, failed: 0, stamped: 0 },
  };
}

/**
 * Statuses an application may be found in once a move to `acked` was acknowledged: that one or a
 * later one (docs/product.md §4 transitions; shared/application-machine.ts).
 */
export const AT_OR_AFTER: Record<ApplicationStatus, readonly ApplicationStatus[]> = {
  PENDING: ['PENDING', 'PENDING_ACCEPTANCE', 'PENDING_PAYMENT', 'IN_PROGRESS', 'COMPLETED', 'REJECTED', 'CLOSED'],
  PENDING_ACCEPTANCE: ['PENDING_ACCEPTANCE', 'PENDING_PAYMENT', 'IN_PROGRESS', 'COMPLETED', 'REJECTED'],
  PENDING_PAYMENT: ['PENDING_PAYMENT', 'IN_PROGRESS', 'COMPLETED'],
  IN_PROGRESS: ['IN_PROGRESS', 'COMPLETED'],
  COMPLETED: ['COMPLETED'],
  // A declined or closed application can get a new offer.
  REJECTED: ['REJECTED', 'PENDING_ACCEPTANCE', 'PENDING_PAYMENT', 'IN_PROGRESS', 'COMPLETED'],
  CLOSED: ['CLOSED', 'PENDING_ACCEPTANCE', 'PENDING_PAYMENT', 'IN_PROGRESS', 'COMPLETED', 'REJECTED'],
  // Delivery, cancellation and disputes (decision 031): this suite's writers make none of these
  // moves; each is listed with where its money can still go.
  DELIVERED: ['DELIVERED', 'IN_PROGRESS', 'DISPUTED', 'SETTLING', 'COMPLETED'],
  CANCELLATION_REQUESTED: ['CANCELLATION_REQUESTED', 'IN_PROGRESS', 'DISPUTED', 'SETTLING', 'REFUNDED'],
  DISPUTED: ['DISPUTED', 'SETTLING', 'COMPLETED', 'REFUNDED', 'SPLIT'],
  SETTLING: ['SETTLING', 'SETTLEMENT_FAILED', 'COMPLETED', 'REFUNDED', 'SPLIT'],
  SETTLEMENT_FAILED: ['SETTLEMENT_FAILED', 'SETTLING', 'COMPLETED', 'REFUNDED', 'SPLIT'],
  REFUNDED: ['REFUNDED'],
  SPLIT: ['SPLIT'],
  WITHDRAWN: ['WITHDRAWN'],
  CANCELLED: ['CANCELLED', 'SETTLING', 'REFUNDED'],
};

/** Records a status only if it is further along than the one already acknowledged. */
export function ackStatus(ledger: Ledger, id: string, status: ApplicationStatus): void {
  const entry = ledger.applications.get(id);
  if (!entry) return;
  if (entry.status !== status && AT_OR_AFTER[entry.status].includes(status)) entry.status = status;
}
