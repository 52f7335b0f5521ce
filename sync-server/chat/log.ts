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
 * Where a room's small tail begins in its document: the tail's first entry (its bytes, as the
 * log holds them) and the document's state vector just before it. The document holds the log
 * and nothing else, entry by entry, so what it holds past that state is exactly what the tail
 * holds: encoded from the document, the tail costs about a twentieth of decoding and merging
 * its entries (a busy room's 1,000; decision 008).
 */
export type TailCut = { first: Uint8Array; before: Uint8Array };

/**
 * The document a room keeps over its log, where its tail begins there (when known), and the tail
 * as the room counted it: a log whose tail differs was changed past the room (an append made
 * around it), and its entries are merged as they are.
 */
export type RoomDocument = { doc: Y.Doc; cut: TailCut | undefined; tail: SmallTail };

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;

/**
 * Merges a room log's newest small entries (each under segmentBytes) into one, once there are
 * more than `compactAfter` of them or they add up to a segment, or with `force` whenever there
 * are two or more. The merge replaces exactly the entries it read (a range of the store's log),
 * in the same turn it read them: it costs at most about two segments however big the room, and
 * never drops an append made meanwhile or by anyone else. With the room's document, in step with
 * the log, and the tail's cut in it, the merge is the document's own encoding past the cut;
 * otherwise (no cut known, or another instance reshaped the log) the entries are merged. Returns
 * the merged entry (none when the entries could not be merged), the first entry it replaces, and
 * its durable write, or undefined when nothing was due.
 */
export function compactLogTail(
  store: Store,
  room: string,
  { compactAfter, force }: { compactAfter: number; force: boolean },
  document?: RoomDocument,
): { merged?: Uint8Array; first: Uint8Array; done: Promise<void> } | undefined {
  const log = store.chatUpdates(room);
  const tail = smallTail(log);
  if (!tailDue(tail, { compactAfter, force })) return undefined;
  const from = log.length - tail.count;
  const first = log[from]!;
  let merged: Uint8Array;
  try {
    merged = encodedFromDocument(document, first, tail) ?? Y.mergeUpdates(log.slice(from));
  } catch (err) {
    return { first, done: Promise.reject(err instanceof Error ? err : new Error(String(err))) };
  }
  return { merged, first, done: store.compactChat(room, merged, { from, to: log.length }) };
}

/**
 * The tail starting at `first`, encoded from the document, when the cut is that entry's, the room
 * counted the same tail, and nothing waits in the document. The encoding carries the document's
 * deletions whole, wherever they are (chat never deletes, but an imported log may): when that
 * makes it larger than the entries it replaces, they are merged instead, so a compaction never
 * grows the log.
 */
function encodedFromDocument(
  document: RoomDocument | undefined,
  first: Uint8Array,
  tail: SmallTail,
): Uint8Array | undefined {
  if (!document?.cut || !sameBytes(first, document.cut.first)) return undefined;
  if (document.tail.count !== tail.count || document.tail.bytes !== tail.bytes) return undefined;
  const { store } = document.doc;
  if (store.pendingStructs !== null || store.pendingDs !== null) return undefined;
  const encoded = Y.encodeStateAsUpdate(document.doc, document.cut.before);
  return encoded.byteLength <= tail.bytes ? encoded : undefined;
}

/**
 * Where the tail begins once the log changed under it (a compaction, here or by another
 * instance): the same cut while the tail still starts with its entry; the cut's state with the
 * merged entry when that entry, merged from the cut's entry on, now starts the tail; the state
 * the document had when it was merged (`merged.stateAfter`) when the merged entry became a
 * segment and the tail starts after it. Unknown otherwise: the next merge then merges the
 * entries, until the tail starts anew.
 */
export function cutAfter(
  log: readonly Uint8Array[],
  tail: SmallTail,
  cut: TailCut | undefined,
  merged?: { entry: Uint8Array; first: Uint8Array; stateAfter: Uint8Array },
): TailCut | undefined {
  if (tail.count === 0) return undefined;
  const from = log.length - tail.count;
  const first = log[from]!;
  if (cut && sameBytes(first, cut.first)) return cut;
  if (!merged) return undefined;
  if (cut && sameBytes(first, merged.entry) && sameBytes(merged.first, cut.first)) return { first, before: cut.before };
  if (sameBytes(log[from - 1], merged.entry)) return { first, before: merged.stateAfter };
  return undefined;
}
