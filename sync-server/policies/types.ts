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
