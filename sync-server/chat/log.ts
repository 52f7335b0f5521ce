import * as Y from 'yjs';
import type { Store } from '../store/store';
import { CHAT_LIMITS } from './limits';

export const sum = (list: Uint8Array[]) => list.reduce((n, u) => n + u.byteLength, 0);

/**
 * How many values (messages, stamps) `doc` has that a client with `stateVector` lacks, counted
 * only up to just past `upTo`: the cost of this count is bounded whatever the room's size.
 */
export function valuesBehind(doc: Y.Doc, stateVector: Uint8Array, upTo: number): number {
  const theirs = Y.decodeStateVector(stateVector);
  let missing = 0;
  for (const [client, structs] of doc.store.clients) {
    const from = theirs.get(client) ?? 0;
    if (from >= Y.getState(doc.store, client)) continue;
    for (let i = Y.findIndexSS(structs, from); i < structs.length; i++) {
      const s = structs[i]!;
      missing += s.length - Math.max(0, from - s.id.clock);
      if (missing > upTo) return missing;
    }
  }
  return missing;
}

/**
 * Merges a room log's newest small entries (each under segmentBytes) into one, once there are
 * more than `compactAfter` of them or they add up to a segment, or with `force` whenever there
 * are two or more. The merge replaces exactly the entries it read (a range of the store's log),
 * in the same turn it read them: it costs at most about two segments however big the room, and
 * never drops an append made meanwhile or by anyone else. Returns the durable write, or
 * undefined when nothing was due.
 */
export function compactLogTail(
  store: Store,
  room: string,
  { compactAfter, force }: { compactAfter: number; force: boolean },
): Promise<void> | undefined {
  const log = store.chatUpdates(room);
  let from = log.length;
  let bytes = 0;
  while (from > 0 && log[from - 1]!.byteLength < CHAT_LIMITS.segmentBytes) bytes += log[--from]!.byteLength;
  const count = log.length - from;
  if (count < 2 || (!force && count <= compactAfter && bytes < CHAT_LIMITS.segmentBytes)) return undefined;
  let merged: Uint8Array;
  try {
    merged = Y.mergeUpdates(log.slice(from));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  return store.compactChat(room, merged, { from, to: log.length });
}
