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

/** A log's newest small entries (each under segmentBytes): how many, and their bytes. */
export type SmallTail = { count: number; bytes: number };

export function smallTail(log: readonly Uint8Array[]): SmallTail {
  let from = log.length;
  let bytes = 0;
  while (from > 0 && log[from - 1]!.byteLength < CHAT_LIMITS.segmentBytes) bytes += log[--from]!.byteLength;
  return { count: log.length - from, bytes };
}

/** The tail after one more entry is appended to the log. */
export function tailAfter(tail: SmallTail, entry: Uint8Array): SmallTail {
  return entry.byteLength < CHAT_LIMITS.segmentBytes
    ? { count: tail.count + 1, bytes: tail.bytes + entry.byteLength }
    : { count: 0, bytes: 0 };
}

/** Whether a tail is to be merged (see compactLogTail). */
export function tailDue(tail: SmallTail, { compactAfter, force }: { compactAfter: number; force: boolean }): boolean {
  return tail.count >= 2 && (force || tail.count > compactAfter || tail.bytes >= CHAT_LIMITS.segmentBytes);
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
  const tail = smallTail(log);
  if (!tailDue(tail, { compactAfter, force })) return undefined;
  const from = log.length - tail.count;
  let merged: Uint8Array;
  try {
    merged = Y.mergeUpdates(log.slice(from));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  return store.compactChat(room, merged, { from, to: log.length });
}
