import * as random from 'lib0/random';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, type ChatDocMessage } from '../../shared/chat-doc';
import type { StampedMessage } from './record';

/** Owner of a Yjs client id the server writes with: nobody may write as it. */
export const SERVER_OWNER = '';

/**
 * What a room remembers of its document, so that judging an update costs the update and never
 * the room: the message ids in it, who writes with each Yjs client id, the newest stamp, and the
 * client id this room object writes its stamps with. Filled from the whole document once at load,
 * then entry by entry: the room's own (from their decision) and other instances' (read from the
 * entry, in proportion to it).
 */
export class RoomIndex {
  readonly ids = new Set<string>();
  private readonly owners = new Map<number, string>();
  lastStamp = 0;
  /** A fresh id per room object, never one anybody wrote with (changed if another instance's entry ever uses it). */
  serverClient: number;
  /** Items this room object wrote with its stamp client id, as far as it knows. */
  private ownClock = 0;

  constructor(private readonly doc: Y.Doc) {
    this.owners.set(doc.clientID, SERVER_OWNER);
    this.serverClient = this.freshClient();
  }

  ownerOf(client: number): string | undefined {
    return this.owners.get(client);
  }

  /**
   * Indexes the loaded document (the room's size, once). Returns the messages the log holds
   * without a stamp (see ChatRoom) and the newest stamped message.
   */
  indexAll(): { leftovers: ChatDocMessage[]; newest?: StampedMessage } {
    const messages = this.doc.getArray(CHAT_MESSAGES_ARRAY);
    const stamps = this.doc.getMap<number>(CHAT_STAMPS_MAP);
    for (const [client, structs] of this.doc.store.clients) {
      for (const struct of structs) {
        if (!(struct instanceof Y.Item)) continue;
        if (struct.parent === stamps) this.owners.set(client, SERVER_OWNER);
        else if (struct.parent === messages && struct.content instanceof Y.ContentAny) {
          const first = struct.content.getContent()[0] as Partial<ChatDocMessage> | undefined;
          if (first?.senderId && !this.owners.has(client)) this.owners.set(client, first.senderId);
        }
      }
    }
    const found = this.scan((id) => this.ids.add(id));
    for (const t of stamps.values()) if (t > this.lastStamp) this.lastStamp = t;
    this.avoidTakenServerClient();
    return found;
  }

  /**
   * One pass over the document's messages: those without a stamp and the newest stamped one,
   * each message's id handed to `seen`. Costs the room: at load, and for a record left behind.
   */
  scan(seen?: (id: string) => void): { leftovers: ChatDocMessage[]; newest?: StampedMessage } {
    const stamps = this.doc.getMap<number>(CHAT_STAMPS_MAP);
    const leftovers: ChatDocMessage[] = [];
    let newest: StampedMessage | undefined;
    for (const m of this.doc.getArray(CHAT_MESSAGES_ARRAY).toArray() as ChatDocMessage[]) {
      if (typeof m?.id !== 'string') continue;
      seen?.(m.id);
      const t = stamps.get(m.id);
      if (t === undefined) leftovers.push(m);
      else if (!newest || t > newest.timestamp) newest = { ...m, timestamp: t };
    }
    return { leftovers, newest };
  }

  /** Indexes what this room's own decision appended, as the decision found it. */
  indexDecided(
    accepted: { userId: string; clients: number[]; messages: ChatDocMessage[] }[],
    stamped: StampedMessage[],
  ): void {
    for (const { userId, clients, messages } of accepted) {
      for (const client of clients) this.owners.set(client, userId);
      for (const m of messages) this.ids.add(m.id);
    }
    for (const m of stamped) if (m.timestamp > this.lastStamp) this.lastStamp = m.timestamp;
  }

  /** Indexes an entry another instance appended, once applied to the document: in proportion to the entry. */
  indexEntry(update: Uint8Array): void {
    const messages = this.doc.getArray(CHAT_MESSAGES_ARRAY);
    const stamps = this.doc.getMap<number>(CHAT_STAMPS_MAP);
    for (const struct of Y.decodeUpdate(update).structs) {
      if (!(struct instanceof Y.Item)) continue;
      const { client } = struct.id;
      let item: unknown;
      try {
        item = Y.getItem(this.doc.store, struct.id);
      } catch {
        continue; // not integrated (cannot happen for a log read in order)
      }
      if (!(item instanceof Y.Item)) continue;
      const values = struct.content.getContent() as unknown[];
      if (item.parent === stamps) {
        this.owners.set(client, SERVER_OWNER);
        for (const t of values) if (typeof t === 'number' && t > this.lastStamp) this.lastStamp = t;
      } else if (item.parent === messages) {
        for (const m of values as Partial<ChatDocMessage>[]) {
          if (typeof m?.id === 'string') this.ids.add(m.id);
          if (typeof m?.senderId === 'string' && !this.owners.has(client)) this.owners.set(client, m.senderId);
        }
      }
    }
    this.avoidTakenServerClient();
  }

  /** Someone else's items under this room's stamp client id (a user picked it first elsewhere): take another. */
  private avoidTakenServerClient(): void {
    if (Y.getState(this.doc.store, this.serverClient) === this.ownClock) return;
    this.serverClient = this.freshClient();
  }

  /** Called once the room's own stamps are in the document. */
  stampsApplied(): void {
    this.ownClock = Y.getState(this.doc.store, this.serverClient);
  }

  private freshClient(): number {
    let client: number;
    do client = random.uint32();
    while (this.owners.has(client) || Y.getState(this.doc.store, client) > 0);
    this.owners.set(client, SERVER_OWNER);
    this.ownClock = 0;
    return client;
  }
}
