import * as awarenessProtocol from 'y-protocols/awareness';
import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, type ChatDocMessage } from '../../shared/chat-doc';
import type { Store } from '../store/store';
import { readOwnAwareness } from './awareness-filter';
import { judgeUpdate } from './judge';
import { compactLogTail, sum, valuesBehind } from './log';
import { CHAT_LIMITS } from './limits';
import {
  awarenessMessage,
  CLOSE_CODES,
  CLOSE_REASONS,
  decodeClientMessage,
  syncStep1Message,
  syncStep2Message,
  updateMessage,
} from './protocol';
import type { StampedMessage } from './record';

/** One end of a chat socket, as a room sees it (the hub wraps a `ws` socket in one). */
export interface ChatPeer {
  readonly userId: string;
  readonly otherId: string;
  readonly sessionId: string;
  send(message: Uint8Array): void;
  close(code: number, reason: string): void;
}

export type RoomOptions = {
  store: Store;
  now: () => number;
  log: (message: string, err?: unknown) => void;
  /** Routine events worth a line at LOG_LEVEL=info only (a refused client is not a server error). */
  info: (message: string) => void;
  /** The log's newest small entries are merged into one once there are more than this many. */
  compactAfter: number;
  /** Called with stamped messages of one sender, in stamp order, in the same turn as the stamps. */
  onStamped: (room: string, messages: StampedMessage[]) => Promise<void>;
  /** Called when the last peer leaves. */
  onEmpty: (room: ChatRoom) => void;
};

const SERVER_ORIGIN = 'server';
/** Owner of a Yjs client id the server writes with: nobody may write as it. */
const SERVER_OWNER = '';

/** Messages grouped by sender, each group in the order given. */
function bySender<T extends { senderId: string }>(messages: T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const m of messages) {
    const group = groups.get(m.senderId);
    if (group) group.push(m);
    else groups.set(m.senderId, [m]);
  }
  return [...groups.values()];
}

/** An update with nothing in it: the end of a sync answered from the stored log. */
const EMPTY_UPDATE = Y.encodeStateAsUpdate(new Y.Doc());

/**
 * One conversation's Yjs document with its peers. Every client update is judged against the
 * document without touching it, at a cost in proportion to the update; an accepted one is applied,
 * appended to the store's chat log, sent to the other peers, and its messages stamped with server
 * time once the append is durable. Nothing a peer sends costs work in proportion to the room
 * (decision 011): a sync request far behind is answered with the stored log's own bytes, and
 * compaction merges only the log's newest small entries.
 */
export class ChatRoom {
  readonly doc = new Y.Doc();
  readonly awareness: awarenessProtocol.Awareness;
  private readonly peers = new Map<ChatPeer, Set<number>>();
  private readonly ids = new Set<string>();
  private readonly owners = new Map<number, string>();
  private lastStamp = 0;
  /** Bytes in the room's stored log, kept in step with it. */
  private logBytes: number;
  /** Presence changes waiting to go out, by peer (sent together every awarenessFlushMs). */
  private readonly presenceOut = new Map<ChatPeer, Set<number>>();
  private presenceTimer: NodeJS.Timeout | undefined;
  private readonly sentWholeRoom = new WeakSet<ChatPeer>();
  private appended: Promise<void> = Promise.resolve();
  private readonly work = new Set<Promise<unknown>>();
  /** Accepted messages waiting for their append to be durable before they are stamped, in arrival order. */
  private unstamped: { messages: ChatDocMessage[]; appended: Promise<void> }[] = [];
  private stamping = false;

  constructor(
    readonly name: string,
    private readonly options: RoomOptions,
  ) {
    const updates = options.store.chatUpdates(name);
    this.logBytes = sum(updates);
    // One entry at a time: merging them first would cost the room's size twice.
    this.doc.transact(() => {
      for (const u of updates) Y.applyUpdate(this.doc, u, 'load');
    }, 'load');
    this.indexLoaded();
    this.awareness = new awarenessProtocol.Awareness(this.doc);
    this.awareness.setLocalState(null);
    this.awareness.on('update', this.onAwarenessUpdate);
    this.doc.on('update', this.onDocUpdate);
    this.stampLeftovers();
  }

  /**
   * A crash can fall between a message's durable append and its stamp: such messages come back
   * from the log unstamped, and are stamped (and recorded, one sender at a time) now.
   */
  private stampLeftovers(): void {
    const stamps = this.doc.getMap<number>(CHAT_STAMPS_MAP);
    const messages = this.doc.getArray(CHAT_MESSAGES_ARRAY).toArray() as ChatDocMessage[];
    const left = messages.filter((m) => typeof m?.id === 'string' && !stamps.has(m.id));
    if (left.length > 0) this.queueStamp(left);
  }

  get size(): number {
    return this.peers.size;
  }

  peersOf(sessionId: string): ChatPeer[] {
    return [...this.peers.keys()].filter((p) => p.sessionId === sessionId);
  }

  join(peer: ChatPeer): void {
    this.peers.set(peer, new Set());
    peer.send(syncStep1Message(Y.encodeStateVector(this.doc)));
    const present = [...this.awareness.getStates().keys()];
    if (present.length > 0)
      peer.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, present)));
  }

  /** Forgets a peer and its presence. Safe to call more than once. */
  leave(peer: ChatPeer): void {
    const controlled = this.peers.get(peer);
    if (!controlled) return;
    this.peers.delete(peer);
    this.presenceOut.delete(peer);
    awarenessProtocol.removeAwarenessStates(this.awareness, [...controlled], null);
    if (this.peers.size === 0) this.options.onEmpty(this);
  }

  /** Closes a peer's socket after removing it from the room, so nothing more of it is heard. */
  dismiss(peer: ChatPeer, code: number, reason: string): void {
    this.leave(peer);
    peer.close(code, reason);
  }

  receive(peer: ChatPeer, data: Uint8Array): void {
    if (!this.peers.has(peer)) return;
    let message;
    try {
      message = decodeClientMessage(data);
    } catch {
      this.dismiss(peer, CLOSE_CODES.malformed, 'Malformed message');
      return;
    }
    switch (message.kind) {
      case 'sync-step1':
        void this.answerWhenDurable(peer, message.stateVector);
        return;
      case 'update':
        this.receiveUpdate(peer, message.update);
        return;
      case 'awareness':
        this.receiveAwareness(peer, message.update);
        return;
      case 'query-awareness':
        this.queuePresence(peer, [...this.awareness.getStates().keys()]);
        return;
      case 'ignored':
        return;
    }
  }

  private receiveUpdate(peer: ChatPeer, update: Uint8Array): void {
    const verdict = judgeUpdate(this.doc, update, {
      userId: peer.userId,
      otherId: peer.otherId,
      knownIds: this.ids,
      ownerOf: (client) => this.owners.get(client),
    });
    if (!verdict.ok) return this.refuse(peer, CLOSE_CODES.refused, verdict.reason);
    if (verdict.clients.length === 0) return; // nothing the room did not have
    if (this.logBytes + update.byteLength > CHAT_LIMITS.roomMaxBytes)
      return this.refuse(peer, CLOSE_CODES.full, CLOSE_REASONS.full);
    Y.applyUpdate(this.doc, update, peer);
    if (this.doc.store.pendingStructs !== null || this.doc.store.pendingDs !== null) {
      // The judge found everything it leans on, so this cannot happen; if it ever does, what is
      // pending has not been integrated nor logged, and dropping it leaves the room as it was.
      this.doc.store.pendingStructs = null;
      this.doc.store.pendingDs = null;
      return this.refuse(peer, CLOSE_CODES.refused, 'The update depends on changes the server does not have');
    }
    for (const client of verdict.clients) this.owners.set(client, peer.userId);
    for (const m of verdict.messages) this.ids.add(m.id);
    if (verdict.messages.length > 0) this.queueStamp(verdict.messages);
  }

  private refuse(peer: ChatPeer, code: number, reason: string): void {
    this.options.info(`chat: refused an update in ${this.name} from ${peer.userId}: ${reason}`);
    this.dismiss(peer, code, reason);
  }

  /** Queues messages whose append is the latest one for stamping (an update's own messages by their sender's clock). */
  private queueStamp(messages: ChatDocMessage[]): void {
    this.unstamped.push({
      messages: [...messages].sort((a, b) => a.clientTime - b.clientTime),
      appended: this.appended,
    });
    if (this.stamping) return;
    this.stamping = true;
    this.track(this.stampQueued());
  }

  /**
   * Stamps after the messages' append is durable, so a stamp never acknowledges a lost message.
   * Messages accepted while a sync is under way wait for it together and share one stamp update:
   * one journal line and one frame to each peer for the lot, instead of one per message.
   */
  private async stampQueued(): Promise<void> {
    try {
      while (this.unstamped.length > 0) {
        const batch = this.unstamped;
        this.unstamped = [];
        try {
          await batch.at(-1)!.appended; // appends become durable in order
        } catch (err) {
          this.options.log(`chat: messages of ${this.name} could not be saved; they stay unstamped`, err);
          continue;
        }
        const stamps = this.doc.getMap<number>(CHAT_STAMPS_MAP);
        const stamped: StampedMessage[] = [];
        this.doc.transact(() => {
          for (const m of batch.flatMap((b) => b.messages)) {
            // Strictly increasing: every message has its own place in the room's order.
            this.lastStamp = Math.max(this.options.now(), this.lastStamp + 1);
            stamps.set(m.id, this.lastStamp);
            stamped.push({ ...m, timestamp: this.lastStamp });
          }
        }, SERVER_ORIGIN);
        // Issued in the same turn as the stamps, so the record joins their journal sync: a crash
        // never leaves a stamp durable without the conversation record that goes with it.
        for (const group of bySender(stamped)) this.track(this.options.onStamped(this.name, group));
      }
    } finally {
      this.stamping = false;
    }
  }

  private receiveAwareness(peer: ChatPeer, update: Uint8Array): void {
    if (update.byteLength > CHAT_LIMITS.awarenessMaxBytes) return;
    const entries = readOwnAwareness(update, peer.userId, (client) => this.mayControl(peer, client));
    if (!entries) return; // someone else's presence, or fields we do not carry: dropped
    const controlled = this.peers.get(peer)!;
    for (const { clientId, state } of entries) {
      for (const [other, ids] of this.peers) if (other !== peer) ids.delete(clientId);
      if (state === null) controlled.delete(clientId);
      else controlled.add(clientId);
    }
    awarenessProtocol.applyAwarenessUpdate(this.awareness, update, peer);
  }

  /** A client id is a peer's own unless another user writes with it or another user's socket holds it. */
  private mayControl(peer: ChatPeer, client: number): boolean {
    if (client === this.doc.clientID) return false;
    const owner = this.owners.get(client);
    if (owner !== undefined && owner !== peer.userId) return false;
    for (const [other, ids] of this.peers)
      if (other !== peer && other.userId !== peer.userId && ids.has(client)) return false;
    return true;
  }

  private onAwarenessUpdate = (
    { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void => {
    const changed = [...added, ...updated, ...removed];
    for (const peer of this.peers.keys()) if (peer !== origin) this.queuePresence(peer, changed);
  };

  /**
   * Presence goes out coalesced: each peer gets at most one frame per awarenessFlushMs with the
   * latest state of every client that changed, however many presence frames came in meanwhile.
   */
  private queuePresence(peer: ChatPeer, clients: number[]): void {
    let queued = this.presenceOut.get(peer);
    if (!queued) this.presenceOut.set(peer, (queued = new Set()));
    for (const c of clients) queued.add(c);
    this.presenceTimer ??= setTimeout(this.flushPresence, CHAT_LIMITS.awarenessFlushMs);
  }

  private flushPresence = (): void => {
    this.presenceTimer = undefined;
    for (const [peer, clients] of this.presenceOut) {
      const known = [...clients].filter((c) => this.awareness.meta.has(c));
      if (known.length > 0 && this.peers.has(peer))
        peer.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, known)));
    }
    this.presenceOut.clear();
  };

  private onDocUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin === 'load') return;
    const appended = this.options.store.appendChatUpdate(this.name, update);
    appended.catch(() => undefined); // reported by whoever awaits it
    this.appended = appended;
    this.track(appended);
    this.logBytes += update.byteLength;
    this.compactTail(false);
    // Sent on once durable: a peer holding an update a crash then lost would send it back as its
    // own on reconnect (another user's message, or a server stamp) and be refused for good.
    const message = updateMessage(update);
    appended.then(
      () => {
        for (const peer of this.peers.keys()) if (peer !== origin) peer.send(message);
      },
      () => undefined,
    );
  };

  /** Answers a sync request once everything the document holds is durable (appends become durable in order). */
  private async answerWhenDurable(peer: ChatPeer, stateVector: Uint8Array): Promise<void> {
    for (let last: Promise<void> | undefined; last !== this.appended;) {
      last = this.appended;
      await last.catch(() => undefined);
    }
    if (!this.peers.has(peer)) return;
    if (valuesBehind(this.doc, stateVector, CHAT_LIMITS.directSyncMaxValues) <= CHAT_LIMITS.directSyncMaxValues) {
      peer.send(syncStep2Message(Y.encodeStateAsUpdate(this.doc, stateVector)));
      return;
    }
    // Far behind (a new device, or a sync request with an empty state vector): the stored log's
    // entries are the room already encoded; sending them costs a copy, never an encoding of the
    // room. The empty step 2 after them tells the client it is in sync. A peer sent the whole
    // room once has it, and every update since comes to it anyway: asking again gets the step 2 alone.
    if (!this.sentWholeRoom.has(peer)) {
      this.sentWholeRoom.add(peer);
      for (const update of this.options.store.chatUpdates(this.name)) peer.send(updateMessage(update));
    }
    peer.send(syncStep2Message(EMPTY_UPDATE));
  }

  /** Merges the log's newest small entries when due (always, with `force`); see `compactLogTail`. */
  private compactTail(force: boolean): void {
    const compacted = compactLogTail(this.options.store, this.name, { compactAfter: this.options.compactAfter, force });
    if (!compacted) return;
    this.logBytes = sum(this.options.store.chatUpdates(this.name));
    this.track(compacted.catch((err: unknown) => this.options.log(`chat: could not compact ${this.name}`, err)));
  }

  /** Merges the log's newest entries (the room is going idle, or the server is stopping); resolves once durable. */
  async compact(): Promise<void> {
    this.compactTail(true);
    await this.settle();
  }

  /** Resolves once every append, stamp and record write started so far has finished. */
  async settle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  /** Closes every socket (the server is going away) without touching the document. */
  closePeers(code: number, reason: string): void {
    for (const peer of [...this.peers.keys()]) {
      this.peers.delete(peer);
      peer.close(code, reason);
    }
  }

  destroy(): void {
    clearTimeout(this.presenceTimer);
    this.presenceOut.clear();
    this.awareness.destroy();
    this.doc.destroy();
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch(() => undefined).finally(() => this.work.delete(tracked));
    this.work.add(tracked);
  }

  /** Rebuilds what the room remembers from a loaded document: message ids, writers, last stamp. */
  private indexLoaded(): void {
    const messages = this.doc.getArray(CHAT_MESSAGES_ARRAY);
    const stamps = this.doc.getMap<number>(CHAT_STAMPS_MAP);
    this.owners.set(this.doc.clientID, SERVER_OWNER);
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
    for (const m of messages.toArray() as Partial<ChatDocMessage>[]) if (typeof m?.id === 'string') this.ids.add(m.id);
    for (const t of stamps.values()) if (t > this.lastStamp) this.lastStamp = t;
  }
}
