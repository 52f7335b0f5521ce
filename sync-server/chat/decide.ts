import * as Y from 'yjs';
import { CHAT_STAMPS_MAP, type ChatDocMessage } from '../../shared/chat-doc';
import type { ChatDecision } from '../store/store';
import { judgeUpdate, type JudgeRules, type Verdict } from './judge';
import { CHAT_LIMITS } from './limits';
import { CLOSE_CODES, CLOSE_REASONS } from './protocol';
import type { StampedMessage } from './record';
import { stampUpdate } from './stamps';

/** An update a peer sent, waiting for its room's next decision. */
export type Arrival<P> = { peer: P; update: Uint8Array };

/** What a decision reads of its room: the document and what the room remembers of it. It changes none of it. */
export type RoomState = {
  doc: Y.Doc;
  /** Message ids in the room. */
  knownIds: { has(id: string): boolean };
  /** Who writes with a Yjs client id ('' for the server), if anyone does. */
  ownerOf(client: number): string | undefined;
  /** Bytes in the room's log. */
  logBytes: number;
  /** The newest stamp in the room. */
  lastStamp: number;
  /** The Yjs client id this room object writes its stamps with. */
  serverClient: number;
  now: number;
};

export type BatchOutcome<P> = {
  /** Each peer whose updates (all, or the first ones) are appended, as one update, with their new messages. */
  accepted: { peer: P; update: Uint8Array; clients: number[]; messages: ChatDocMessage[] }[];
  /** Peers to close, and why (the updates after their last accepted one are dropped). */
  refused: { peer: P; code: number; reason: string }[];
  /** Messages stamped, in stamp order. */
  stamped: StampedMessage[];
  /** Their stamps, as one update (appended after the accepted updates). */
  stamps?: Uint8Array;
};

type Check =
  { ok: true; update: Uint8Array; clients: number[]; messages: ChatDocMessage[] } | Extract<Verdict, { ok: false }>;

/**
 * Decides a room's waiting updates together, against the room as it is: log entries appended
 * together, every accepted update and the stamps of their messages (and of `leftovers`, messages
 * the log holds unstamped), so a message is never in the log without its stamp and the stamps follow
 * the room's newest one whatever instance wrote it. A pure function of the room's state and
 * the batch: a store may take it again after another instance appended.
 *
 * A peer's updates are judged merged into one (an update may lean on the same peer's previous
 * one, not yet in the room); other peers' updates cannot lean on them (nothing is relayed before
 * its entries are logged), but message ids and Yjs client ids are checked across the whole batch.
 * When a peer's updates are refused, the longest run of its first updates that passes is kept
 * (found by halving: a few merges of at most the batch), and the peer is closed.
 */
export function decideBatch<P extends { userId: string; otherId: string }>(
  room: RoomState,
  arrivals: readonly Arrival<P>[],
  leftovers: readonly ChatDocMessage[],
): ChatDecision<BatchOutcome<P>> {
  const byPeer = new Map<P, Uint8Array[]>();
  for (const { peer, update } of arrivals) {
    const list = byPeer.get(peer);
    if (list) list.push(update);
    else byPeer.set(peer, [update]);
  }

  const claimed = new Map<number, string>();
  const newIds = new Set<string>();
  let bytes = room.logBytes;
  const outcome: BatchOutcome<P> = { accepted: [], refused: [], stamped: [] };
  const toStamp: ChatDocMessage[] = [];

  for (const [peer, updates] of byPeer) {
    const rules: JudgeRules = {
      userId: peer.userId,
      otherId: peer.otherId,
      knownIds: { has: (id) => room.knownIds.has(id) || newIds.has(id) },
      ownerOf: (client) => room.ownerOf(client) ?? claimed.get(client),
    };
    const check = (count: number): Check => {
      let update: Uint8Array;
      try {
        update = count === 1 ? updates[0]! : Y.mergeUpdates(updates.slice(0, count));
      } catch {
        return { ok: false, reason: 'The update could not be read' };
      }
      const verdict = judgeUpdate(room.doc, update, rules);
      if (!verdict.ok) return verdict;
      if (verdict.clients.length === 0) return { ...verdict, update };
      const logged = verdict.repeats ? withoutKnown(room.doc, update) : update;
      if (bytes + logged.byteLength > CHAT_LIMITS.roomMaxBytes) return { ok: false, reason: CLOSE_REASONS.full };
      return { ...verdict, update: logged };
    };
    let passed = check(updates.length);
    if (!passed.ok) {
      const refusal = passed.reason;
      // The longest run of first updates that passes (its length in lo), by halving.
      let lo = 0;
      let kept: Check | undefined;
      let hi = updates.length - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        const c = check(mid);
        if (c.ok) {
          lo = mid;
          kept = c;
        } else hi = mid - 1;
      }
      const code = refusal === CLOSE_REASONS.full ? CLOSE_CODES.full : CLOSE_CODES.refused;
      outcome.refused.push({ peer, code, reason: refusal });
      if (!kept?.ok) continue;
      passed = kept;
    }
    if (passed.clients.length === 0) continue; // nothing the room did not have
    bytes += passed.update.byteLength;
    for (const client of passed.clients) claimed.set(client, peer.userId);
    for (const m of passed.messages) newIds.add(m.id);
    outcome.accepted.push({ peer, update: passed.update, clients: passed.clients, messages: passed.messages });
    toStamp.push(...[...passed.messages].sort((a, b) => a.clientTime - b.clientTime));
  }

  const stamps = room.doc.getMap<number>(CHAT_STAMPS_MAP);
  for (const m of leftovers) if (!stamps.has(m.id) && !newIds.has(m.id)) toStamp.push(m);
  if (toStamp.length > 0) {
    let last = room.lastStamp;
    const pairs: [string, number][] = [];
    for (const m of toStamp) {
      // Strictly increasing: every message has its own place in the room's order.
      last = Math.max(room.now, last + 1);
      pairs.push([m.id, last]);
      outcome.stamped.push({ ...m, timestamp: last });
    }
    outcome.stamps = stampUpdate(room.serverClient, Y.getState(room.doc.store, room.serverClient), pairs);
  }
  // Entries of their own, appended together: merging them into one would cost more than the rest.
  const append = outcome.accepted.map((a) => a.update);
  if (outcome.stamps) append.push(outcome.stamps);
  return { append, value: outcome };
}

/**
 * An accepted update without the parts the room already has (a client sending again what it
 * sent before, which the judge saw): the log keeps only what is new, as the document would. In
 * proportion to the update: the state it is cut at names only the update's own clients.
 */
function withoutKnown(doc: Y.Doc, update: Uint8Array): Uint8Array {
  const { from } = Y.parseUpdateMeta(update);
  const have = new Map<number, number>();
  let repeats = false;
  for (const [client, clock] of from) {
    const state = Y.getState(doc.store, client);
    have.set(client, state);
    if (clock < state) repeats = true;
  }
  return repeats ? Y.diffUpdate(update, Y.encodeStateVector(have)) : update;
}
