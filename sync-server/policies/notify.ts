import crypto from 'node:crypto';
import type { NotificationDraft } from '../../shared/application-machine';
import { newId } from '../../shared/ids';
import type { DocWrite } from '../store/store';

/** Turns the domain's notification drafts into stored notification documents. */
export function notificationWrites(drafts: NotificationDraft[], now: number): DocWrite[] {
  return drafts.map((draft) => {
    const doc: Record<string, unknown> = { id: newId((n) => crypto.randomBytes(n)), read: false, createdAt: now, updatedAt: now, _deleted: false };
    for (const [k, v] of Object.entries(draft)) if (v !== undefined) doc[k] = v;
    return { collection: 'notifications', doc: doc as DocWrite['doc'] };
  });
}
