import type * as Y from 'yjs';
import type { ChatDocMessage } from '../../../shared/chat-doc';
import type { TestClient } from '../http-client';
import { chatMessage, openChat, type ChatClient } from '../yjs-client';
import type { Ledger } from './ledger';

let sent = 0;

/**
 * One participant's chat client on one room, kept across every kill of the server like an open
 * tab: the same Y.Doc, and a y-websocket provider that reconnects by itself to the same port.
 * A stamp arriving for one of its own messages is the server's acknowledgement of it.
 */
export class CrashChat {
  readonly chat: ChatClient;
  private readonly mine = new Map<string, string>();

  constructor(
    readonly http: TestClient,
    readonly room: string,
    readonly userId: string,
    readonly otherId: string,
    ledger: Ledger,
  ) {
    this.chat = openChat(http, room, { maxBackoffTime: 100 });
    this.chat.stamps.observe((event) => {
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
    return this.chat.messages;
  }

  get stamps(): Y.Map<number> {
    return this.chat.stamps;
  }

  /** Set once the server closed this client's socket with a refusal. */
  refused(): { code: number; reason: string } | undefined {
    return this.chat.closedWith();
  }

  /** Connected and in sync with the server. */
  inSync(): boolean {
    return this.chat.provider.wsconnected && this.chat.provider.synced;
  }

  send(): void {
    sent += 1;
    const message = chatMessage(this.userId, this.otherId, `message ${sent} in ${this.room.slice(0, 6)}`);
    this.mine.set(message.id, message.content);
    this.chat.send(message);
  }

  destroy(): void {
    this.chat.destroy();
  }
}

/** A fresh reader of a room: what the server serves from it now. */
export async function readRoom(
  http: TestClient,
  room: string,
  timeoutMs: number,
): Promise<{ messages: ChatDocMessage[]; stamps: Map<string, number> }> {
  const chat = openChat(http, room);
  try {
    await chat.synced(timeoutMs);
    return { messages: chat.messages.toArray(), stamps: new Map(chat.stamps.entries()) };
  } finally {
    chat.destroy();
  }
}
