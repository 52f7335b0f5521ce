import * as encoding from 'lib0/encoding';
import { WebSocket } from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import {
  CHAT_MESSAGES_ARRAY,
  CHAT_STAMPS_MAP,
  orderChatMessages,
  type ChatDocMessage,
  type ShownChatMessage,
} from '../../shared/chat-doc';
import type { TestClient } from './http-client';
import { waitFor } from './wait';

/** waitFor lives in wait.ts; the bench/ scripts import it from here. */
export { waitFor };

export const chatSocketBase = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/api/chat`;

type SocketHeaders = { cookie?: string; origin?: string | null };

/** The browser's `new WebSocket(url)`: its cookie and the page's origin go with the handshake. */
function socketClass({ cookie, origin }: SocketHeaders): typeof globalThis.WebSocket {
  class BrowserLikeSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: cookie ? { cookie } : {}, ...(origin ? { origin } : {}) });
    }
  }
  return BrowserLikeSocket as unknown as typeof globalThis.WebSocket;
}

export type ChatClient = {
  doc: Y.Doc;
  provider: WebsocketProvider;
  messages: Y.Array<ChatDocMessage>;
  stamps: Y.Map<number>;
  /** Messages as the chat screen shows them: stamped ones by server time, then pending ones. */
  shown(): ShownChatMessage[];
  /** Pushes a message object at the end, as the chat client does. */
  send(message: ChatDocMessage): void;
  /** Set once the server closes the socket with a code it means (4400–4499: no reconnect). */
  closedWith(): { code: number; reason: string } | undefined;
  /** Resolves once the provider is in sync with the server (fails after `timeoutMs`, 5 s by default). */
  synced(timeoutMs?: number): Promise<void>;
  destroy(): void;
};

/**
 * The socket's headers (default: `http`'s session cookie and the app's origin), y-websocket's
 * longest wait between reconnects, and the document to go on with (a tab whose server went away
 * moving to another; default: a new one).
 */
export type ChatOptions = SocketHeaders & { maxBackoffTime?: number; doc?: Y.Doc };

/** A y-websocket client on a room, signed in as `http`'s user, sending the app's origin. */
export function openChat(
  http: TestClient,
  room: string,
  { maxBackoffTime = 200, doc = new Y.Doc(), ...headers }: ChatOptions = {},
): ChatClient {
  let closed: { code: number; reason: string } | undefined;
  const provider = new WebsocketProvider(chatSocketBase(http.baseUrl), room, doc, {
    WebSocketPolyfill: socketClass({
      cookie: http.cookieHeader(),
      origin: http.originHeader ?? http.baseUrl,
      ...headers,
    }),
    disableBc: true,
    maxBackoffTime,
  });
  provider.on('closed', (event) => (closed = { code: event.code, reason: event.reason }));
  const messages = doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY);
  const stamps = doc.getMap<number>(CHAT_STAMPS_MAP);
  return {
    doc,
    provider,
    messages,
    stamps,
    shown: () => orderChatMessages(messages.toArray(), new Map(stamps.entries())),
    send: (message) => messages.push([message]),
    closedWith: () => closed,
    synced: (timeoutMs) => waitFor(`sync with ${room}`, () => provider.synced, timeoutMs).then(() => undefined),
    destroy: () => {
      provider.destroy();
      doc.destroy();
    },
  };
}

let sequence = 0;
/** A message object the way the chat client writes one. */
export function chatMessage(
  senderId: string,
  receiverId: string,
  content: string,
  overrides: Partial<ChatDocMessage> = {},
): ChatDocMessage {
  sequence += 1;
  return {
    id: `msg-${Date.now().toString(36)}-${sequence}`,
    content,
    senderId,
    receiverId,
    clientTime: Date.now(),
    ...overrides,
  };
}

/** A y-websocket sync "update" message carrying `update` as is, for sending on a raw socket. */
export function updateFrame(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0); // messageSync
  syncProtocol.writeUpdate(e, update);
  return encoding.toUint8Array(e);
}

export type UpgradeResult = { status: number; body: Record<string, unknown> } | { status: 101; socket: WebSocket };

/** Tries to open a chat socket and reports the HTTP answer when the server refuses to upgrade. */
export function tryChatSocket(baseUrl: string, room: string, headers: SocketHeaders): Promise<UpgradeResult> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${chatSocketBase(baseUrl)}/${room}`, {
      headers: headers.cookie ? { cookie: headers.cookie } : {},
      ...(headers.origin ? { origin: headers.origin } : {}),
    });
    socket.on('open', () => resolve({ status: 101, socket }));
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = { text };
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    socket.on('error', (err) => reject(err));
  });
}

/** The room as the server stored it: its chat log merged into one document. */
export function storedRoom(updates: Uint8Array[]): {
  messages: ChatDocMessage[];
  stamps: Map<string, number>;
  types: string[];
} {
  const doc = new Y.Doc();
  if (updates.length > 0) Y.applyUpdate(doc, Y.mergeUpdates(updates));
  const types = [...doc.share.keys()];
  const result = {
    messages: doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY).toArray(),
    stamps: new Map(doc.getMap<number>(CHAT_STAMPS_MAP).entries()),
    types,
  };
  doc.destroy();
  return result;
}
