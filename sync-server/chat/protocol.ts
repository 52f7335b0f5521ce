import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';

/** y-websocket's message types (y-websocket/src/y-websocket.js). */
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_AUTH = 2;
export const MESSAGE_QUERY_AWARENESS = 3;

/**
 * Close codes of the chat socket. y-websocket 3 does not reconnect after a code in 4400–4499,
 * so a refused client stops instead of looping; 1001 (the server is going away) reconnects.
 */
export const CLOSE_CODES = {
  /** A message that is not the y-websocket protocol. */
  malformed: 4400,
  /** The session was revoked (logout): 'Please log in to start a conversation'. */
  signedOut: 4401,
  /** An update the server refused; the reason says why. */
  refused: 4403,
  /** The room reached its size limit: 'This conversation is full'. */
  full: 4413,
  /** Too many sockets, sockets opened too fast, or too much sent unread (decision 011). */
  tooMany: 4429,
  goingAway: 1001,
  /** Something failed on the server; the client reconnects. */
  internalError: 1011,
  /**
   * Try again later (the client reconnects): it left too much of what it was sent unread, or the
   * store was out of reach and what it sent was not saved (sent again on reconnect).
   */
  overloaded: 1013,
} as const;

/** Close reasons the client shows (at most 123 bytes each). */
export const CLOSE_REASONS = {
  full: 'This conversation is full',
  tooManySockets: 'Too many chat connections are open; close one and reload',
  tooFast: 'Chat connections are being opened too fast; reload in a moment',
  inboxFull: 'Too many messages at once',
  overloaded: 'The connection is too slow to keep up',
  unavailable: 'The chat is briefly unavailable; reconnecting',
  internalError: 'Something went wrong. Please try again.',
} as const;

/** What a client sent, decoded just far enough for the room to judge it. */
export type ClientMessage =
  | { kind: 'sync-step1'; stateVector: Uint8Array }
  | { kind: 'update'; update: Uint8Array }
  | { kind: 'awareness'; update: Uint8Array }
  | { kind: 'query-awareness' }
  | { kind: 'ignored' };

/** Throws on anything that is not a y-websocket message. */
export function decodeClientMessage(data: Uint8Array): ClientMessage {
  const decoder = decoding.createDecoder(data);
  const type = decoding.readVarUint(decoder);
  switch (type) {
    case MESSAGE_SYNC: {
      const step = decoding.readVarUint(decoder);
      if (step === syncProtocol.messageYjsSyncStep1) {
        const stateVector = decoding.readVarUint8Array(decoder);
        Y.decodeStateVector(stateVector); // throws on a garbage state vector, so it is refused as malformed
        return { kind: 'sync-step1', stateVector };
      }
      // Step 2 and update both carry a Yjs update; the server judges them alike.
      if (step === syncProtocol.messageYjsSyncStep2 || step === syncProtocol.messageYjsUpdate) {
        return { kind: 'update', update: decoding.readVarUint8Array(decoder) };
      }
      throw new Error(`unknown sync step ${step}`);
    }
    case MESSAGE_AWARENESS:
      return { kind: 'awareness', update: decoding.readVarUint8Array(decoder) };
    case MESSAGE_QUERY_AWARENESS:
      return { kind: 'query-awareness' };
    case MESSAGE_AUTH:
      // Only the server sends auth messages (permission denied); a client's is meaningless.
      return { kind: 'ignored' };
    default:
      throw new Error(`unknown message type ${type}`);
  }
}

function frame(type: number, write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoding.toUint8Array(encoder);
}

export const syncStep1Message = (stateVector: Uint8Array) =>
  frame(MESSAGE_SYNC, (e) => {
    encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep1);
    encoding.writeVarUint8Array(e, stateVector);
  });

export const syncStep2Message = (update: Uint8Array) =>
  frame(MESSAGE_SYNC, (e) => {
    encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep2);
    encoding.writeVarUint8Array(e, update);
  });

export const updateMessage = (update: Uint8Array) => frame(MESSAGE_SYNC, (e) => syncProtocol.writeUpdate(e, update));

export const awarenessMessage = (update: Uint8Array) =>
  frame(MESSAGE_AWARENESS, (e) => encoding.writeVarUint8Array(e, update));
