import crypto from 'node:crypto';
import type { NotificationDraft } from '../../shared/application-machine';
import { newId } from '../../shared/ids';
import { sanitizeText } from '../../shared/text';
import type { DocWrite } from '../store/store';

/**
 * Turns the domain's notification drafts into stored notification documents. Their texts carry
 * names and titles copied from stored records: sanitised again, for records older than the rule.
 */
export function notificationWrites(drafts: NotificationDraft[], now: number): DocWrite[] {
  return drafts.map((draft) =>
    notificationWrite(
      draft,
      now,
      newId((n) => crypto.randomBytes(n)),
    ),
  );
}

/**
 * A notification whose id says what it is about, so that writing it twice writes it once: a timer
 * that fires again finds it there (sync-server/reviews/timers.ts). The id is `<kind>-` and a digest
 * of the parts, which never reads as a built-in name (decision 010).
 */
export function notificationIdFor(kind: string, ...parts: string[]): string {
  return `${kind}-${crypto.createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 40)}`;
}

/** One notification draft as a stored document with the given id. */
export function notificationWrite(draft: NotificationDraft, now: number, id: string): DocWrite {
  const doc: Record<string, unknown> = { id, read: false, createdAt: now, updatedAt: now, _deleted: false };
  for (const [k, v] of Object.entries(draft)) if (v !== undefined) doc[k] = typeof v === 'string' ? sanitizeText(v) : v;
  return { collection: 'notifications', doc: doc as DocWrite['doc'] };
}
