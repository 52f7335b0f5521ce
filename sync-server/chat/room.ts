import * as Y from 'yjs';
import type { ChatDocMessage } from '../../shared/chat-doc';
import { StoreUnavailableError, type Store } from '../store/store';
import { decideBatch, type Arrival, type BatchOutcome } from './decide';
import {
  compactLogTail,
  cutAfter,
  smallTail,
  sum,
  tailAfter,
  tailDue,
  valuesBehind,
  type SmallTail,
  type TailCut,
} from './log';
import { CHAT_LIMITS } from './limits';
import {
  CLOSE_CODES,
  CLOSE_REASONS,
  decodeClientMessage,
  syncStep1Message,
  syncStep2Message,
  updateMessage,
} from './protocol';
import type { StampedMessage } from './record';
import { RoomPresence } from './presence';
import { RoomIndex } from './room-index';

/** One end of a chat socket, as a room sees it (the hub wraps a `ws` socket in one). */
export interface ChatPeer {
  readonly userId: string;
  readonly otherId: string;
  readonly sessionId: string;
  send(message: Uint8Array): void;
  /** Sends the frames in order, written together. */
  sendAll(messages: readonly Uint8Array[]): void;
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
  /** Called with the messages a decision stamped, in stamp order, in the same turn its entries are logged. */
  onStamped: (room: string, messages: StampedMessage[]) => Promise<void>;
  /** Called when the last peer leaves. */
  onEmpty: (room: ChatRoom) => void;
  /** Called when another instance's entries brought a newer stamp (its record is that instance's to write). */
  onRemoteStamps?: (room: ChatRoom) => void;
};

/** Updates decided together at most: a decision costs what its batch holds, whatever the room. */
const BATCH_MAX_UPDATES = 64;
const BATCH_MAX_BYTES = CHAT_LIMITS.maxFrameBytes;

/** An update with nothing in it: the end of a sync answered from the stored log. */
const EMPTY_UPDATE = Y.encodeStateAsUpdate(new Y.Doc());

/**
 * One conversation's Yjs document with its peers, a cache over the room's log in the store.
 * Client updates wait for the room's next decision: the updates that arrived meanwhile are
 * judged together against the document as the log has it (`decideBatch`, at a cost in
 * proportion to them), and what passes is appended with an update stamping its messages, all
 * together, through the store's chat transaction, which on PostgreSQL takes the decision again
 * when another instance appended first. Only then do they reach the document; once durable they
 * are sent to the peers, and the messages recorded. One decision at a time per room: what
 * arrives during one waits for the next, so a busy room writes one decision per durable write,
 * not one per update. Entries other instances appended arrive from the store and are applied and
 * sent on as they are. Nothing a peer sends costs work in proportion to the room (decision 011):
 * a sync request far behind is answered with the stored log's own bytes, and compaction merges
 * only the log's newest small entries.
 */
export class ChatRoom {
  readonly doc = new Y.Doc();
  private readonly peers = new Set<ChatPeer>();
  private readonly index = new RoomIndex(this.doc);
  private readonly presence: RoomPresence<ChatPeer>;
  /** Bytes in the room's stored log, kept in step with it. */
  private logBytes = 0;
  /**
   * The log's newest small entries, kept in step with it: a decision knows whether a compaction
   * is due without walking them (it was 3% of the server's time with busy rooms, decision 008).
   */
  private tail: SmallTail = { count: 0, bytes: 0 };
  /** Where the tail begins in the document, when known: compaction then encodes it from there (see TailCut). */
  private cut: TailCut | undefined;
  private readonly sentWholeRoom = new WeakSet<ChatPeer>();
  /** Updates waiting for the next decision, in arrival order and numbered, and their bytes by peer. */
  private arrivals: (Arrival<ChatPeer> & { seq: number })[] = [];
  private received = 0;
  /** Arrivals up to this number have been decided (a sync answer waits for those before it). */
  private decidedThrough = 0;
  private readonly waitingBytes = new Map<ChatPeer, number>();
  /** Messages the log holds unstamped, for the next decision to stamp. */
  private leftovers: ChatDocMessage[] = [];
  /** The records of the last decision's messages (they never reject: failures are logged). */
  private recorded: Promise<unknown> = Promise.resolve();
  /** The decision under way: resolves once its entries are durable (or it failed). */
  private appended: Promise<void> = Promise.resolve();
  private deciding = false;
  private destroyed = false;
  private readonly work = new Set<Promise<unknown>>();
  /** The newest stamped message when the room was loaded. */
  readonly newestAtLoad: StampedMessage | undefined;

  constructor(
    readonly name: string,
    private readonly options: RoomOptions,
  ) {
    this.presence = new RoomPresence<ChatPeer>(
      this.doc,
      (client) => this.index.ownerOf(client),
      (update) => options.store.publishPresence(name, update),
    );
    // One entry at a time: merging them first would cost the room's size twice.
    this.doc.transact(() => {
      for (const u of options.store.chatUpdates(name)) this.take(u, 'load');
    }, 'load');
    const { leftovers, newest } = this.index.indexAll();
    this.newestAtLoad = newest;
    // A log can hold a message without its stamp (the embedded journal torn between a decision's
    // lines by a crash, older logs, imports): the room's first decision stamps and records it.
    this.leftovers = leftovers;
    this.pump();
  }

  get size(): number {
    return this.peers.size;
  }

  peersOf(sessionId: string): ChatPeer[] {
    return [...this.peers].filter((p) => p.sessionId === sessionId);
  }

  join(peer: ChatPeer): void {
    this.peers.add(peer);
    peer.send(syncStep1Message(Y.encodeStateVector(this.doc)));
    this.presence.join(peer);
  }

  /** Forgets a peer and its presence. Safe to call more than once. */
  leave(peer: ChatPeer): void {
    if (!this.peers.delete(peer)) return;
    this.waitingBytes.delete(peer);
    this.presence.leave(peer);
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
        this.presence.receive(peer, message.update);
        return;
      case 'query-awareness':
        this.presence.query(peer);
        return;
      case 'ignored':
        return;
    }
  }

  /** Entries another instance appended to the room's log: applied and sent on (they are durable). */
  applyRemote(updates: Uint8Array[]): void {
    if (this.destroyed) return;
    const stampBefore = this.index.lastStamp;
    for (const update of updates) {
      this.take(update, 'remote');
      this.index.indexEntry(update);
      const message = updateMessage(update);
      for (const peer of this.peers) peer.send(message);
    }
    this.checkIntegrated('an entry of another instance');
    if (this.index.lastStamp > stampBefore) this.options.onRemoteStamps?.(this);
  }

  /** The newest stamp in the room. */
  get lastStamp(): number {
    return this.index.lastStamp;
  }

  /**
   * The newest stamped message, read from the whole document: for the rare repair of a record
   * left behind (an instance stopped between a message's entry and its record), never per frame.
   */
  newestStamped(): StampedMessage | undefined {
    return this.index.scan().newest;
  }

  /** Presence another instance published for this room. */
  remotePresence(update: Uint8Array): void {
    if (!this.destroyed) this.presence.remote(update);
  }

  /** Asks the other instances holding the room for their peers' presence (it just loaded here). */
  askPresence(): void {
    this.presence.askOthers();
  }

  /** Queues a client update for the room's next decision (the hub's budget already paced it). */
  private receiveUpdate(peer: ChatPeer, update: Uint8Array): void {
    const waiting = (this.waitingBytes.get(peer) ?? 0) + update.byteLength;
    if (waiting > CHAT_LIMITS.inboxMaxBytes) return this.dismiss(peer, CLOSE_CODES.tooMany, CLOSE_REASONS.inboxFull);
    this.waitingBytes.set(peer, waiting);
    this.arrivals.push({ peer, update, seq: ++this.received });
    this.pump();
  }

  /** Starts the next decision when none is under way and something waits for one. */
  private pump(): void {
    if (this.deciding || this.destroyed) return;
    let count = 0;
    let bytes = 0;
    while (count < this.arrivals.length && count < BATCH_MAX_UPDATES) {
      const size = this.arrivals[count]!.update.byteLength;
      if (count > 0 && bytes + size > BATCH_MAX_BYTES) break;
      bytes += size;
      count++;
    }
    const taken = this.arrivals.splice(0, count);
    const through = taken.at(-1)?.seq ?? this.decidedThrough;
    const batch: Arrival<ChatPeer>[] = [];
    for (const arrival of taken) {
      const left = (this.waitingBytes.get(arrival.peer) ?? 0) - arrival.update.byteLength;
      if (this.peers.has(arrival.peer)) {
        this.waitingBytes.set(arrival.peer, left);
        batch.push(arrival);
      }
    }
    const leftovers = this.leftovers;
    if (batch.length === 0 && leftovers.length === 0) {
      this.decidedThrough = through;
      return;
    }
    this.leftovers = [];
    this.deciding = true;
    const decided = this.decide(batch, leftovers);
    this.appended = decided;
    this.track(
      decided.finally(() => {
        this.decidedThrough = through;
        this.deciding = false;
        this.pump();
      }),
    );
  }

  /** Takes one decision through the store, then sends its entries on and closes the peers it refused. */
  private async decide(batch: Arrival<ChatPeer>[], leftovers: ChatDocMessage[]): Promise<void> {
    let logged = false;
    let outcome: BatchOutcome<ChatPeer>;
    try {
      outcome = await this.options.store.chatTransaction(
        this.name,
        () =>
          decideBatch(
            {
              doc: this.doc,
              knownIds: this.index.ids,
              ownerOf: (client) => this.index.ownerOf(client),
              logBytes: this.logBytes,
              lastStamp: this.index.lastStamp,
              serverClient: this.index.serverClient,
              now: this.options.now(),
            },
            batch,
            leftovers,
          ),
        ({ append = [], value }) => {
          logged = true;
          this.logged(append, value);
        },
      );
    } catch (err) {
      if (logged) {
        // In the document but not durable: the store refuses every write from now on.
        this.options.log(`chat: entries of ${this.name} could not be saved`, err);
        return;
      }
      // Nothing was written: the senders reconnect (a code the client retries) and send again.
      const down = err instanceof StoreUnavailableError;
      if (!down) this.options.log(`chat: a decision in ${this.name} failed`, err);
      this.leftovers.push(...leftovers);
      const code = down ? CLOSE_CODES.overloaded : CLOSE_CODES.internalError;
      const reason = down ? CLOSE_REASONS.unavailable : CLOSE_REASONS.internalError;
      for (const peer of new Set(batch.map((a) => a.peer))) this.dismiss(peer, code, reason);
      return;
    }
    for (const { peer, code, reason } of outcome.refused) {
      this.options.info(`chat: refused an update in ${this.name} from ${peer.userId}: ${reason}`);
      this.dismiss(peer, code, reason);
    }
    // Sent once the messages' records are written too (on the embedded store they share the
    // entries' sync): a message shown sent here has its conversation record and notification.
    // The next decision waits for them as well: at most one record of the room in flight here
    // (on PostgreSQL several would contend for the conversation's row), and none left behind.
    await this.recorded;
    if (logged) this.relay(outcome);
  }

  /**
   * The decision's entries are in the log: the document takes them, the index learns what they
   * brought, and their messages are recorded, in this same turn (on the embedded store the
   * records then share the entries' journal sync: a crash never keeps a stamp without its record).
   */
  private logged(entries: readonly Uint8Array[], outcome: BatchOutcome<ChatPeer>): void {
    for (const entry of entries) this.take(entry, 'decided');
    this.index.indexDecided(
      outcome.accepted.map(({ peer, clients, messages }) => ({ userId: peer.userId, clients, messages })),
      outcome.stamped,
    );
    this.index.stampsApplied();
    this.checkIntegrated('a decided entry');
    if (outcome.stamped.length > 0) this.recorded = this.options.onStamped(this.name, outcome.stamped);
    this.compactTail(false);
  }

  /**
   * An entry of the log's end (loaded, decided here or appended by another instance) goes into
   * the document, and the log's bytes and tail count it; when it starts a new tail, the tail's
   * cut is taken before the document has it.
   */
  private take(entry: Uint8Array, origin: 'load' | 'decided' | 'remote'): void {
    if (this.tail.count === 0)
      this.cut =
        entry.byteLength < CHAT_LIMITS.segmentBytes
          ? { first: entry, before: Y.encodeStateVector(this.doc) }
          : undefined;
    Y.applyUpdate(this.doc, entry, origin);
    this.logBytes += entry.byteLength;
    this.tail = tailAfter(this.tail, entry);
  }

  /** Sends durable entries to the peers: each gets the accepted updates but its own, then the stamps. */
  private relay(outcome: BatchOutcome<ChatPeer>): void {
    const updates = outcome.accepted.map(({ peer, update }) => ({ peer, message: updateMessage(update) }));
    const stamps = outcome.stamps && updateMessage(outcome.stamps);
    for (const peer of this.peers) {
      const frames: Uint8Array[] = [];
      for (const u of updates) if (u.peer !== peer) frames.push(u.message);
      if (stamps) frames.push(stamps);
      if (frames.length > 0) peer.sendAll(frames);
    }
  }

  /** The judge found everything each entry leans on, so nothing may wait in the document; say so if it ever does. */
  private checkIntegrated(what: string): void {
    if (this.doc.store.pendingStructs === null && this.doc.store.pendingDs === null) return;
    this.options.log(`chat: ${what} of ${this.name} left changes pending in the room`);
  }

  /**
   * Answers a sync request once every update received before it is decided and everything the
   * document holds is durable: a peer never holds an entry a crash could take back (it would
   * send it again as its own on reconnect, someone else's message or a stamp, and be refused).
   */
  private async answerWhenDurable(peer: ChatPeer, stateVector: Uint8Array): Promise<void> {
    const upTo = this.received;
    while (this.decidedThrough < upTo && !this.destroyed) await this.appended.catch(() => undefined);
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
    const due = { compactAfter: this.options.compactAfter, force };
    if (!tailDue(this.tail, due)) return;
    // (Another instance may have merged the tail meanwhile: then nothing is due, and the count is mended.)
    const compaction = compactLogTail(this.options.store, this.name, due, {
      doc: this.doc,
      cut: this.cut,
      tail: this.tail,
    });
    const merged = compaction?.merged && {
      entry: compaction.merged,
      first: compaction.first,
      stateAfter: Y.encodeStateVector(this.doc),
    };
    this.recount(merged);
    if (!compaction) return;
    this.track(
      compaction.done.then(
        () => !this.destroyed && this.recount(merged),
        (err: unknown) => this.options.log(`chat: could not compact ${this.name}`, err),
      ),
    );
  }

  /** The log's bytes, tail and cut, read again from the store after a compaction (here or elsewhere). */
  private recount(merged?: Parameters<typeof cutAfter>[3]): void {
    const log = this.options.store.chatUpdates(this.name);
    this.logBytes = sum(log);
    this.tail = smallTail(log);
    this.cut = cutAfter(log, this.tail, this.cut, merged);
  }

  /** Merges the log's newest entries (the room is going idle, or the server is stopping); resolves once durable. */
  async compact(): Promise<void> {
    this.compactTail(true);
    await this.settle();
  }

  /** Resolves once every decision, record and compaction started so far has finished. */
  async settle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  /** Closes every socket (the server is going away) without touching the document. */
  closePeers(code: number, reason: string): void {
    for (const peer of [...this.peers]) {
      this.peers.delete(peer);
      peer.close(code, reason);
    }
  }

  destroy(): void {
    this.destroyed = true;
    this.arrivals = [];
    this.presence.destroy();
    this.doc.destroy();
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch(() => undefined).finally(() => this.work.delete(tracked));
    this.work.add(tracked);
  }
}
