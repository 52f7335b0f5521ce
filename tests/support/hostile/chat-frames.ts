import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP } from '../../../shared/chat-doc';
import { Rng } from '../rng';
import { updateFrame } from '../yjs-client';
import { hostileString, hostileValue, tooLong } from './values';

// ---------------------------------------------------------------------------------------------
// Chat socket frames (y-websocket protocol: varuint message type, then its payload)

export type ChatRoomContext = {
  userId: string;
  otherId: string;
  /** The room's stored updates, to build updates on top of what the server has. */
  serverState: () => Uint8Array[];
};

export type HostileFrame = {
  defect: string;
  data: Uint8Array | string;
  /** A frame the server may ignore (dropped presence, an auth message); others must close the socket. */
  mayBeIgnored: boolean;
};

export function frame(write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  write(e);
  return encoding.toUint8Array(e);
}

export const randomBytes = (r: Rng, max: number) =>
  new Uint8Array(Array.from({ length: r.int(0, max) }, () => r.int(0, 255)));

/** A Yjs update made by a fresh client doc on top of the server's state. */
export function craftUpdate(r: Rng, room: ChatRoomContext, change: (doc: Y.Doc) => void): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = r.int(1, 2 ** 31);
  const stored = room.serverState();
  if (stored.length) Y.applyUpdate(doc, Y.mergeUpdates(stored));
  const before = Y.encodeStateVector(doc);
  change(doc);
  const update = Y.encodeStateAsUpdate(doc, before);
  doc.destroy();
  return update;
}

export function message(
  r: Rng,
  room: ChatRoomContext,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: `m-${r.int(0, 2 ** 30).toString(36)}`,
    content: 'hello',
    senderId: room.userId,
    receiverId: room.otherId,
    clientTime: Date.now(),
    ...overrides,
  };
}

/** One hostile frame for an open chat socket. */
export function hostileChatFrame(r: Rng, room: ChatRoomContext): HostileFrame {
  const closes = (defect: string, data: Uint8Array | string): HostileFrame => ({ defect, data, mayBeIgnored: false });
  const push = (defect: string, value: Record<string, unknown> | unknown) =>
    closes(defect, updateFrame(craftUpdate(r, room, (d) => d.getArray(CHAT_MESSAGES_ARRAY).push([value]))));
  switch (r.int(0, 21)) {
    case 0:
      return closes('random bytes', randomBytes(r, 80));
    case 1:
      return closes('empty frame', new Uint8Array());
    case 2:
      return closes('text frame', hostileString(r).slice(0, 500) || 'x');
    case 3:
      return closes(
        'unknown message type',
        frame((e) => {
          encoding.writeVarUint(e, r.int(4, 2 ** 31));
          encoding.writeUint8Array(e, randomBytes(r, 20));
        }),
      );
    case 4:
      return closes(
        'unknown sync step',
        frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, r.int(3, 1000));
        }),
      );
    case 5:
      return {
        defect: 'sync step 1 with a garbage state vector',
        data: frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint8Array(e, randomBytes(r, 40));
        }),
        mayBeIgnored: true,
      };
    case 6:
      return closes('update of random bytes', updateFrame(randomBytes(r, 120)));
    case 7:
      return closes(
        'sync step 2 of random bytes',
        frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, 1);
          encoding.writeVarUint8Array(e, randomBytes(r, 120));
        }),
      );
    case 8:
      return closes(
        'write to another shared type',
        updateFrame(
          craftUpdate(r, room, (d) => d.getMap(r.pick(['evil', 'users', 'messages2'])).set('x', hostileString(r))),
        ),
      );
    case 9:
      return closes(
        'write to stamps',
        updateFrame(craftUpdate(r, room, (d) => d.getMap(CHAT_STAMPS_MAP).set(`m-${r.int(0, 1e6)}`, 1))),
      );
    case 10:
      return push(
        'message in the other user’s name',
        message(r, room, { senderId: room.otherId, receiverId: room.userId }),
      );
    case 11:
      return push('message to someone else', message(r, room, { receiverId: r.pick(['someone-else-1', room.userId]) }));
    case 12:
      return push('empty or blank message', message(r, room, { content: r.pick(['', ' ', '\n\t ', '\u00a0']) }));
    case 13:
      return push('message over 5000 characters', message(r, room, { content: tooLong(r) }));
    case 14:
      return push(
        'message with a wrong field',
        r.pick<Record<string, unknown>>([
          message(r, room, { content: hostileValue(r) === null ? 5 : [hostileString(r)] }),
          message(r, room, { id: r.pick(['__proto__', 'constructor', 'a b', '', 'x'.repeat(65)]) }),
          message(r, room, { clientTime: r.pick(['now', -1, null]) }),
          message(r, room, { extra: true }),
          { id: 'm-1', content: 'hi' },
        ]),
      );
    case 15:
      return push('a value that is not a message', hostileValue(r));
    case 16: {
      // The second of two messages alone: it depends on a change the server never saw (pending).
      const a = new Y.Doc();
      a.clientID = r.int(1, 2 ** 31);
      const stored = room.serverState();
      if (stored.length) Y.applyUpdate(a, Y.mergeUpdates(stored));
      a.getArray(CHAT_MESSAGES_ARRAY).push([message(r, room)]);
      const sv = Y.encodeStateVector(a);
      a.getArray(CHAT_MESSAGES_ARRAY).push([message(r, room)]);
      const update = Y.encodeStateAsUpdate(a, sv);
      a.destroy();
      return closes('update depending on unknown changes', updateFrame(update));
    }
    case 17: {
      const data = updateFrame(
        craftUpdate(r, room, (d) => {
          const messages = d.getArray(CHAT_MESSAGES_ARRAY);
          if (messages.length > 0) messages.delete(r.int(0, messages.length - 1), 1);
          else d.getMap(CHAT_STAMPS_MAP).set('x', 1);
        }),
      );
      return closes('delete a message', data);
    }
    case 18:
      return closes(
        'truncated varuint',
        new Uint8Array(Array.from({ length: r.int(1, 12) }, () => 0x80 | r.int(0, 127))),
      );
    case 19:
      return closes(
        'length prefix beyond the frame',
        frame((e) => {
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint(e, 2);
          encoding.writeVarUint(e, r.int(100, 2 ** 30));
          encoding.writeUint8Array(e, randomBytes(r, 10));
        }),
      );
    case 20: {
      // Presence in another user's name, or with fields the room does not carry: dropped.
      const state = r.pick<unknown>([
        { user: { id: room.otherId, name: 'x' } },
        { user: { id: room.userId }, admin: true },
        { typing: 'yes' },
        hostileValue(r),
      ]);
      const update = frame((e) => {
        encoding.writeVarUint(e, 1);
        encoding.writeVarUint(e, r.int(1, 2 ** 31));
        encoding.writeVarUint(e, r.int(0, 10));
        encoding.writeVarString(e, JSON.stringify(state) ?? 'null');
      });
      return {
        defect: 'awareness for someone else',
        data: frame((e) => {
          encoding.writeVarUint(e, 1);
          encoding.writeVarUint8Array(e, update);
        }),
        mayBeIgnored: true,
      };
    }
    default:
      return {
        defect: 'awareness of random bytes',
        data: frame((e) => {
          encoding.writeVarUint(e, 1);
          encoding.writeVarUint8Array(e, randomBytes(r, 60));
        }),
        mayBeIgnored: true,
      };
  }
}
