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
  return drafts.map((draft) => {
    const doc: Record<string, unknown> = {
      id: newId((n) => crypto.randomBytes(n)),
      read: false,
      createdAt: now,
      updatedAt: now,
      _deleted: false,
    };
    for (const [k, v] of Object.entries(draft))
      if (v !== undefined) doc[k] = typeof v === 'string' ? sanitizeText(v) : v;
    return { collection: 'notifications', doc: doc as DocWrite['doc'] };
  });
}
