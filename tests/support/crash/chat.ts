import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, type ChatDocMessage } from '../../../shared/chat-doc';
import type { TestClient } from '../http-client';
import { chatSocketBase } from '../yjs-client';
import type { Ledger } from './ledger';

/** The browser's WebSocket: the session cookie (read at each connection) and the app's origin. */
function browserSocket(http: TestClient): typeof globalThis.WebSocket {
  class BrowserLikeSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { cookie: http.cookieHeader() }, origin: http.baseUrl });
    }
  }
  return BrowserLikeSocket as unknown as typeof globalThis.WebSocket;
}

let sent = 0;

/**
 * One participant's chat client on one room, kept across every kill of the server like an open
 * tab: the same Y.Doc, and a y-websocket provider that reconnects by itself to the same port.
 * A stamp arriving for one of its own messages is the server's acknowledgement of it.
 */
export class CrashChat {
  readonly doc = new Y.Doc();
  readonly provider: WebsocketProvider;
  private readonly mine = new Map<string, string>();
  private closed: { code: number; reason: string } | undefined;

  constructor(
    readonly http: TestClient,
    readonly room: string,
    readonly userId: string,
    readonly otherId: string,
    ledger: Ledger,
  ) {
    this.provider = new WebsocketProvider(chatSocketBase(http.baseUrl), room, this.doc, {
      WebSocketPolyfill: browserSocket(http),
      disableBc: true,
      maxBackoffTime: 100,
    });
    // 4400–4499: the server refused this client, and y-websocket gives up on the room for good.
    this.provider.on('closed', (event) => (this.closed = { code: event.code, reason: event.reason }));
    this.doc.getMap<number>(CHAT_STAMPS_MAP).observe((event) => {
      for (const key of event.keysChanged) {
        const content = this.mine.get(key);
        if (content === undefined) continue;
        let acked = ledger.chat.get(room);
        if (!acked) ledger.chat.set(room, (acked = new Map()));
        if (!acked.has(key)) ledger.counts.stamped++;
        acked.set(key, content);
      }
    });
  }

  get messages(): Y.Array<ChatDocMessage> {
    return this.doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY);
  }

  get stamps(): Y.Map<number> {
    return this.doc.getMap<number>(CHAT_STAMPS_MAP);
  }

  /** Set once the server closed this client's socket with a refusal. */
  refused(): { code: number; reason: string } | undefined {
    return this.closed;
  }

  /** Connected and in sync with the server. */
  inSync(): boolean {
    return this.provider.wsconnected && this.provider.synced;
  }

  send(): void {
    sent += 1;
    const id = `m-${Date.now().toString(36)}-${sent}`;
    const content = `message ${sent} in ${this.room.slice(0, 6)}`;
    this.mine.set(id, content);
    this.messages.push([{ id, content, senderId: this.userId, receiverId: this.otherId, clientTime: Date.now() }]);
  }

  destroy(): void {
    this.provider.destroy();
    this.doc.destroy();
  }
}

/** A fresh reader of a room: what the server serves from it now. */
export async function readRoom(http: TestClient, room: string, timeoutMs: number): Promise<{ messages: ChatDocMessage[]; stamps: Map<string, number> }> {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(chatSocketBase(http.baseUrl), room, doc, { WebSocketPolyfill: browserSocket(http), disableBc: true });
  try {
    const deadline = Date.now() + timeoutMs;
    while (!provider.synced) {
      if (Date.now() > deadline) throw new Error(`a fresh reader of ${room} did not sync in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return {
      messages: doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY).toArray(),
      stamps: new Map(doc.getMap<number>(CHAT_STAMPS_MAP).entries()),
    };
  } finally {
    provider.destroy();
    doc.destroy();
  }
}
