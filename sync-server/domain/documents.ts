/**
 * Helpers over stored documents for every server module (policies, payments, chat, replication).
 * (Reads are typed by the store itself: store/documents.ts.)
 */

/** A server timestamp that is also a version: strictly after the document's (or ledger entry's) previous one. */
export function stamp(now: number, previous?: object): number {
  const prev = previous && 'updatedAt' in previous && typeof previous.updatedAt === 'number' ? previous.updatedAt : 0;
  return Math.max(now, prev + 1);
}

/** A field that should be text: its value, or '' when it is anything else. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
