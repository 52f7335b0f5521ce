import type { AppContext } from '../context';
import type { DocWrite, StoredDoc } from '../store/store';

export type PolicyInput = {
  ctx: AppContext;
  /** The signed-in user's stored record. */
  actor: StoredDoc;
  /** The server's current document with that id, if any (tombstones included). */
  current: StoredDoc | undefined;
  /** The pushed document without RxDB's bookkeeping fields. */
  incoming: Record<string, unknown>;
  /** The push deletes the document. */
  deleting: boolean;
  now: number;
};

export type PolicyResult = { ok: true; writes: DocWrite[] } | { ok: false; reason: string };

export type Policy = (input: PolicyInput) => PolicyResult;

export const refuse = (reason: string): PolicyResult => ({ ok: false, reason });

/** A server timestamp that is also a version: strictly after the document's (or ledger entry's) previous one. */
export function stamp(now: number, previous?: StoredDoc | { updatedAt: number }): number {
  const prev = typeof previous?.updatedAt === 'number' ? previous.updatedAt : 0;
  return Math.max(now, prev + 1);
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
