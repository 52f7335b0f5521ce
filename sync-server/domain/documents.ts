import type { Application } from '../../shared/schemas/application';
import type { User } from '../../shared/schemas/user';
import type { StoredDoc } from '../store/store';

/**
 * Helpers over stored documents for every server module (policies, payments, chat, replication).
 * The store keeps documents as untyped records; every one of them was written by a policy or a
 * server module that validated it, so the typed views below read them as their domain types. This
 * is the one place that says so.
 */

/** A server timestamp that is also a version: strictly after the document's (or ledger entry's) previous one. */
export function stamp(now: number, previous?: StoredDoc | { updatedAt: number }): number {
  const prev = typeof previous?.updatedAt === 'number' ? previous.updatedAt : 0;
  return Math.max(now, prev + 1);
}

/** A field that should be text: its value, or '' when it is anything else. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A stored application as the domain type (the store keeps the same fields plus bookkeeping). */
export const asApplication = (doc: StoredDoc): Application => doc as unknown as Application;

/** A stored user record as the domain type (credentials live elsewhere). */
export const asUser = (doc: StoredDoc): User => doc as unknown as User;
