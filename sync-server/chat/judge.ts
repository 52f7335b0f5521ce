import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, checkChatDocMessage, type ChatDocMessage } from '../../shared/chat-doc';

export type JudgeRules = {
  /** The signed-in user who sent the update, and the other participant. */
  userId: string;
  otherId: string;
  /** Message ids already in the room: an id is used once. */
  knownIds: ReadonlySet<string>;
  /** Who has written with a Yjs client id before ('' for the server), if anyone. */
  ownerOf(client: number): string | undefined;
};

/** `messages` are the new messages, in no particular order (order comes from the server's stamps). */
export type Verdict = { ok: true; messages: ChatDocMessage[]; clients: number[] } | { ok: false; reason: string };

const refuse = (reason: string): Verdict => ({ ok: false, reason });

/**
 * Applies a client's update to `shadow`, a copy of the room's document, and judges what it did.
 * Accepted: it only inserted valid messages (plain objects, ContentAny) into `messages`, written
 * by the signed-in user under a Yjs client id nobody else writes with, and nothing is left waiting
 * for missing changes. Anything else (a deletion, another shared type, `stamps`, a pending part,
 * a malformed update) is refused. After a refusal the shadow is no longer a copy: rebuild it.
 *
 * The new structs are read in `afterTransaction`, before Yjs merges them into their neighbours:
 * by then they are integrated (their parent is resolved, which the raw update does not say for an
 * item inserted after another) and each client's new ones start exactly at its old clock.
 */
export function judgeUpdate(shadow: Y.Doc, update: Uint8Array, rules: JudgeRules): Verdict {
  const messages = shadow.getArray(CHAT_MESSAGES_ARRAY);
  shadow.getMap(CHAT_STAMPS_MAP);
  const verdicts: Verdict[] = [];
  const onTransaction = (tr: Y.Transaction) => {
    verdicts.push(inspect(shadow, messages, tr, rules));
  };
  shadow.on('afterTransaction', onTransaction);
  try {
    Y.applyUpdate(shadow, update, 'judge');
  } catch {
    return refuse('The update could not be read');
  } finally {
    shadow.off('afterTransaction', onTransaction);
  }
  if (shadow.store.pendingStructs !== null || shadow.store.pendingDs !== null) {
    return refuse('The update depends on changes the server does not have');
  }
  const accepted: { messages: ChatDocMessage[]; clients: number[] } = { messages: [], clients: [] };
  for (const v of verdicts) {
    if (!v.ok) return v;
    accepted.messages.push(...v.messages);
    accepted.clients.push(...v.clients);
  }
  const ids = new Set(accepted.messages.map((m) => m.id));
  if (ids.size !== accepted.messages.length) return refuse('Each message needs its own id');
  return { ok: true, ...accepted };
}

function inspect(shadow: Y.Doc, messages: Y.Array<unknown>, tr: Y.Transaction, rules: JudgeRules): Verdict {
  for (const [type, keys] of tr.changed) {
    if (type !== messages) {
      return refuse((type as unknown) === shadow.getMap(CHAT_STAMPS_MAP) ? 'Only the server writes stamps' : 'Only messages can be added');
    }
    if ([...keys].some((k) => k !== null)) return refuse('Only messages can be added');
  }
  if (tr.deleteSet.clients.size > 0) return refuse('Messages cannot be deleted or changed');
  const found: ChatDocMessage[] = [];
  const clients: number[] = [];
  for (const [client, after] of tr.afterState) {
    const before = tr.beforeState.get(client) ?? 0;
    if (after === before) continue;
    const owner = rules.ownerOf(client);
    if (owner !== undefined && owner !== rules.userId) return refuse('That Yjs client id belongs to someone else');
    clients.push(client);
    const structs = shadow.store.clients.get(client) ?? [];
    for (let i = Y.findIndexSS(structs, before); i < structs.length; i++) {
      const struct = structs[i]!;
      if (!(struct instanceof Y.Item) || struct.parent !== messages || struct.parentSub !== null || struct.deleted) {
        return refuse('Only messages can be added');
      }
      if (!(struct.content instanceof Y.ContentAny)) return refuse('A message must be a plain object');
      for (const value of struct.content.getContent()) {
        const check = checkChatDocMessage(value, { senderId: rules.userId, receiverId: rules.otherId });
        if (!check.ok) return refuse(check.reason);
        if (rules.knownIds.has(check.message.id)) return refuse('Each message needs its own id');
        found.push(check.message);
      }
    }
  }
  return { ok: true, messages: found, clients };
}
