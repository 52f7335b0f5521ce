import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, checkChatDocMessage, type ChatDocMessage } from '../../shared/chat-doc';

export type JudgeRules = {
  /** The signed-in user who sent the update, and the other participant. */
  userId: string;
  otherId: string;
  /** Message ids already in the room: an id is used once. */
  knownIds: { has(id: string): boolean };
  /** Who has written with a Yjs client id before ('' for the server), if anyone. */
  ownerOf(client: number): string | undefined;
};

/**
 * `messages` are the new messages, in no particular order (order comes from the server's stamps);
 * `repeats`: the update also brings parts the room has (a client sending again what it sent).
 */
export type Verdict =
  { ok: true; messages: ChatDocMessage[]; clients: number[]; repeats: boolean } | { ok: false; reason: string };

const refuse = (reason: string): Verdict => ({ ok: false, reason });
const UNREADABLE = 'The update could not be read';
const PENDING = 'The update depends on changes the server does not have';
const ONLY_MESSAGES = 'Only messages can be added';

type Struct = Y.Item | Y.GC | Y.Skip;
type ID = { client: number; clock: number };
/** What `Y.decodeUpdate` returns: the structs, and the deletions as ranges by client. */
type Decoded = ReturnType<typeof Y.decodeUpdate>;

/** The part of an update's item the room does not have yet: clocks `start`..`end`, and what it leans on. */
type NewPart = { item: Y.Item; client: number; start: number; end: number; deps: ID[]; onStack: boolean };

/**
 * Judges a client's update against the room's document WITHOUT applying it, at a cost in
 * proportion to the update (never to the room): the update is decoded, and each item it brings
 * that the room lacks is checked against the room's items it leans on. Accepted: it only inserts
 * valid messages (plain objects, ContentAny) into `messages`, written by the signed-in user under
 * a Yjs client id nobody else writes with, deletes nothing, and every item it leans on is in the
 * room or in the update itself (nothing would be left pending). The room applies an accepted
 * update itself; a refused one leaves no trace.
 *
 * Yjs integrates an item next to its left origin (or, without one, its right origin) and takes
 * its parent from there; an item with neither names its parent. So an item lands in `messages`
 * exactly when its named parent is that root array, or the item it leans on is in it.
 */
export function judgeUpdate(doc: Y.Doc, update: Uint8Array, rules: JudgeRules): Verdict {
  let decoded: Decoded;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    return refuse(UNREADABLE);
  }
  const messages = doc.getArray(CHAT_MESSAGES_ARRAY);
  const known = (client: number) => Y.getState(doc.store, client);

  const read = readNewParts(decoded.structs, known);
  if (typeof read === 'string') return refuse(read);
  const { parts, repeats } = read;

  /** Refusal reason if the room's item holding `id` is not a message of `messages`. */
  const roomItemProblem = (id: ID): string | undefined => {
    const struct = Y.getItem(doc.store, id as Y.ID) as Struct;
    return struct instanceof Y.Item && struct.parent === messages && struct.parentSub === null
      ? undefined
      : ONLY_MESSAGES;
  };
  const stamps = () => doc.getMap(CHAT_STAMPS_MAP);

  const found: ChatDocMessage[] = [];
  const ids = new Set<string>();
  for (const [client, list] of parts) {
    const owner = rules.ownerOf(client);
    if (owner !== undefined && owner !== rules.userId) return refuse('That Yjs client id belongs to someone else');
    for (const part of list) {
      const { item } = part;
      const offset = part.start - item.id.clock;
      // Where Yjs will put it: after the part's own known start, after its origin, before its right origin, or in the parent it names.
      if (offset > 0) {
        const problem = roomItemProblem({ client, clock: part.start - 1 });
        if (problem) return refuse(problem);
      }
      if (item.origin === null && item.rightOrigin === null) {
        // A decoded item names its parent by root name (a string), or by the item of a nested type.
        const parent = item.parent as unknown;
        if (item.parentSub !== null || parent !== CHAT_MESSAGES_ARRAY) {
          return refuse(parent === CHAT_STAMPS_MAP ? 'Only the server writes stamps' : ONLY_MESSAGES);
        }
      }
      for (const dep of [item.origin, item.rightOrigin]) {
        if (dep === null) continue;
        if (dep.client === client && dep.clock >= item.id.clock) return refuse(UNREADABLE);
        if (dep.clock < known(dep.client)) {
          const problem = roomItemProblem(dep);
          if (problem)
            return refuse(
              problem === ONLY_MESSAGES && stampsHold(doc, dep, stamps()) ? 'Only the server writes stamps' : problem,
            );
        }
        // Otherwise the update brings it: checked as a part of its own, and ordered below.
      }
      if (!(item.content instanceof Y.ContentAny)) return refuse('A message must be a plain object');
      for (const value of item.content.getContent().slice(offset)) {
        const check = checkChatDocMessage(value, { senderId: rules.userId, receiverId: rules.otherId });
        if (!check.ok) return refuse(check.reason);
        if (rules.knownIds.has(check.message.id) || ids.has(check.message.id))
          return refuse('Each message needs its own id');
        ids.add(check.message.id);
        found.push(check.message);
      }
    }
  }
  for (const ranges of decoded.ds.clients.values()) {
    if (ranges.some((r) => r.len > 0)) return refuse('Messages cannot be deleted or changed');
  }
  if (!integrable(parts, known)) return refuse(PENDING);
  return { ok: true, messages: found, clients: [...parts.keys()], repeats };
}

/** Whether the room item `id` leans on is one of the server's stamps (for a clearer refusal). */
function stampsHold(doc: Y.Doc, id: ID, stamps: unknown): boolean {
  const struct = Y.getItem(doc.store, id as Y.ID) as Struct;
  return struct instanceof Y.Item && struct.parent === stamps;
}

/**
 * The new parts of the update's items, by client, each client's in clock order and without gaps
 * from the room's state on, and whether the update starts below the room's state for any client
 * (it repeats what the room has). Returns a refusal reason for a gap (something missing), a client
 * listed twice, or a struct that is not an item (a deletion's leftover).
 */
function readNewParts(
  structs: Struct[],
  known: (client: number) => number,
): { parts: Map<number, NewPart[]>; repeats: boolean } | string {
  const parts = new Map<number, NewPart[]>();
  let repeats = false;
  const nextClock = new Map<number, number>();
  const endOf = new Map<number, number>();
  let current: number | undefined;
  for (const struct of structs) {
    const client = struct.id.client;
    const start = struct.id.clock;
    const end = start + struct.length;
    if (struct.length <= 0) return UNREADABLE;
    // Yjs keeps only the last run of a client's structs: a client listed again is refused, unless
    // the run goes on exactly where the last ended (then what Yjs drops leaves the rest pending,
    // which the room checks after applying).
    if (endOf.has(client) && (client !== current || start !== endOf.get(client))) return UNREADABLE;
    if (!endOf.has(client)) {
      const state = known(client);
      nextClock.set(client, state);
      if (start < state) repeats = true;
    }
    current = client;
    endOf.set(client, end);
    const next = nextClock.get(client)!;
    if (end <= next) continue; // the room has all of it
    if (start > next) return PENDING;
    if (struct instanceof Y.Skip) return PENDING; // anything after it would wait for what it skips
    if (!(struct instanceof Y.Item)) return ONLY_MESSAGES;
    let list = parts.get(client);
    if (!list) parts.set(client, (list = []));
    const deps = [struct.origin, struct.rightOrigin].filter((d): d is Y.ID => d !== null && d.client !== client);
    list.push({ item: struct, client, start: next, end, deps, onStack: false });
    nextClock.set(client, end);
  }
  return { parts, repeats };
}

/**
 * Whether Yjs can integrate every new part now: each leans only on clocks the room has or the
 * update brings, without a cycle. Integrates client by client as Yjs does, with a stack: linear
 * in the number of parts.
 */
function integrable(parts: Map<number, NewPart[]>, known: (client: number) => number): boolean {
  const state = new Map<number, number>();
  const stateOf = (client: number) => state.get(client) ?? known(client);
  const index = new Map<number, number>();
  for (const [client, list] of parts) {
    while ((index.get(client) ?? 0) < list.length) {
      const stack: NewPart[] = [list[index.get(client) ?? 0]!];
      stack[0]!.onStack = true;
      while (stack.length > 0) {
        const top = stack.at(-1)!;
        const missing = top.deps.find((d) => d.clock >= stateOf(d.client));
        if (!missing) {
          state.set(top.client, top.end);
          index.set(top.client, (index.get(top.client) ?? 0) + 1);
          top.onStack = false;
          stack.pop();
          continue;
        }
        const next = parts.get(missing.client)?.[index.get(missing.client) ?? 0];
        if (!next || next.onStack) return false; // missing from the update, or a cycle
        next.onStack = true;
        stack.push(next);
      }
    }
  }
  return true;
}
