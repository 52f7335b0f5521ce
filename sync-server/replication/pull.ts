import type { CollectionName, Store } from '../store/store';
import { documentsJson, viewJson, viewKindFor } from './visibility';

/**
 * The documents of one collection that `userId` may see, changed after the checkpoint, in
 * sequence order. The sequence is global; the store's change log per collection holds only this
 * collection's, and the scan skips what the user may not see; the returned checkpoint is the last
 * sequence scanned (or, caught up, the durable end), so nothing is scanned twice. It stops early
 * only when the batch is full, so a short batch means "caught up". Returns the answer (the
 * protocol's PullAnswer) as JSON text, made of each document's view as JSON (`viewJson`).
 */
export function pullChanges(
  store: Store,
  userId: string,
  collection: CollectionName,
  after: number,
  limit: number,
): string {
  const documents: string[] = [];
  let cursor = after;
  const end = store.durableSeq();
  scan: while (cursor < end) {
    const batch = store.changesSince(cursor, 2000, collection);
    if (batch.length === 0) break;
    for (const change of batch) {
      cursor = change.doc._seq;
      const kind = viewKindFor(store, userId, collection, change.doc);
      if (!kind) continue;
      documents.push(viewJson(kind, collection, change.doc));
      if (documents.length >= limit) break scan;
    }
  }
  if (documents.length < limit) cursor = Math.max(cursor, end);
  return documentsJson(documents, { seq: cursor });
}
