import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { CHAT_MESSAGES } from '../../shared/validation/chat-access';
import type { AppContext } from '../context';
import { securityHeaderList } from '../http/security';
import { StoreUnavailableError } from '../store/store';
import { authorizeChatUpgrade, chatRoomOf, type ChatAccess } from './access';
import { SendBudget, TokenBucket } from './budget';
import { CHAT_LIMITS } from './limits';
import { CLOSE_CODES, CLOSE_REASONS } from './protocol';
import { stampedRecordWrites, type StampedMessage } from './record';
import { ChatRoom } from './room';
import { refuseUpgrade, SocketPeer } from './socket';

export type ChatHubOptions = {
  /** A room with nobody in it is compacted and unloaded after this long. */
  idleMs: number;
  /** A room log's newest small entries are merged into one past this many (default CHAT_LIMITS.compactAfterEntries). */
  compactAfter?: number;
};

const PING_EVERY_MS = 30_000;
const CLOSE_GRACE_MS = 1_000;
/**
 * How long after another instance's entries brought a newer stamp this instance looks whether
 * that instance wrote their record: it does so within milliseconds unless it stopped between the
 * two (SIGKILL, a lost database), and then the room's record is written from here.
 */
export const REMOTE_RECORD_GRACE_MS = 2_000;
/**
 * The chat socket (`/api/chat/<conversationId>`, y-websocket protocol) on the server's own HTTP
 * server. Rooms are a rebuildable cache over the store's chat logs: loaded on the first join,
 * compacted and dropped when idle, so nothing here must survive a restart.
 */
export class ChatHub {
  private readonly rooms = new Map<string, ChatRoom>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  /** Rooms whose record this instance looks at once the grace has passed (one timer per room at most). */
  private readonly recordChecks = new Map<string, NodeJS.Timeout>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: CHAT_LIMITS.maxFrameBytes });
  private readonly sockets = new Set<SocketPeer>();
  /** Open sockets by user and by room, for the caps. */
  private readonly byUser = new Map<string, Set<SocketPeer>>();
  private readonly byRoom = new Map<string, Set<SocketPeer>>();
  /** What each user may still send into each room (key: room, newline, user), and how fast they may open sockets. */
  private readonly budgets = new Map<string, SendBudget>();
  private readonly joins = new Map<string, TokenBucket>();
  private readonly pinger: NodeJS.Timeout;
  private closed = false;
  private readonly refusalHeaders: [string, string][];
  /** Rooms being read from the store, by name. */
  private readonly loading = new Map<string, Promise<ChatRoom>>();
  private readonly stopRemote: () => void;
  private readonly stopPresence: () => void;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: ChatHubOptions,
  ) {
    this.refusalHeaders = securityHeaderList({ https: ctx.config.cookieSecure });
    ctx.events.on('session-revoked', this.onSessionRevoked);
    // Entries other instances appended reach the room loaded here, if any (its log is held open).
    this.stopRemote = ctx.store.onRemoteChat((name, updates) => this.rooms.get(name)?.applyRemote(updates));
    this.stopPresence = ctx.store.onRemotePresence((name, update) => this.rooms.get(name)?.remotePresence(update));
    this.pinger = setInterval(() => this.ping(), PING_EVERY_MS).unref();
  }

  attach(server: http.Server): void {
    server.on('upgrade', this.onUpgrade);
  }

  /** Rooms loaded in memory now (tests watch unloading through it). */
  get loadedRooms(): string[] {
    return [...this.rooms.keys()];
  }

  private onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const room = chatRoomOf(req.url);
    if (room === undefined) {
      refuseUpgrade(socket, 404, { error: 'Not found' }, this.refusalHeaders);
      return;
    }
    authorizeChatUpgrade(this.ctx, req, room)
      .then((access) => this.upgrade(req, socket, head, access))
      .catch((err: unknown) => {
        if (err instanceof StoreUnavailableError) {
          refuseUpgrade(socket, 503, { error: err.message }, this.refusalHeaders);
          return;
        }
        this.ctx.log('chat: could not open a socket', err);
        refuseUpgrade(socket, 500, { error: 'Something went wrong. Please try again.' }, this.refusalHeaders);
      });
  };

  private async upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, access: ChatAccess): Promise<void> {
    if (!access.ok) return refuseUpgrade(socket, access.status, access.body, this.refusalHeaders);
    const restarting = () =>
      refuseUpgrade(socket, 503, { error: 'The server is restarting. Please try again.' }, this.refusalHeaders);
    if (this.closed) return restarting();
    // Refused with a close code the client shows and does not retry, before the room is touched.
    let refusal = this.socketRefusal(access.room, access.userId);
    let room: ChatRoom | undefined;
    if (!refusal) {
      try {
        room = await this.roomFor(access.room);
      } catch (err) {
        if (this.closed) return restarting();
        throw err;
      }
      // Other sockets may have joined while the room was read.
      refusal = this.capRefusal(access.room, access.userId);
    }
    if (this.closed) return restarting();
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const peer = new SocketPeer(ws, socket, access.room, access.userId, access.otherId, access.sessionId);
      if (this.closed) return peer.close(CLOSE_CODES.goingAway, 'Server shutting down');
      ws.on('error', () => ws.terminate());
      if (refusal || !room) return peer.close(CLOSE_CODES.tooMany, refusal ?? CLOSE_REASONS.tooManySockets);
      // Unloaded in the moment it took to get here: the client reconnects to a fresh one.
      if (this.rooms.get(access.room) !== room) return peer.close(CLOSE_CODES.overloaded, CLOSE_REASONS.unavailable);
      ws.binaryType = 'nodebuffer';
      const joined = room;
      ws.on('message', (data: Buffer) =>
        this.arrive(peer, joined, new Uint8Array(data.buffer, data.byteOffset, data.byteLength)),
      );
      ws.on('pong', () => (peer.alive = true));
      ws.on('close', () => {
        clearTimeout(peer.waiting);
        this.forget(peer);
        joined.leave(peer);
      });
      this.remember(peer);
      room.join(peer);
    });
    // Loaded for a socket that did not join (refused, or gone during the handshake): it unloads
    // like a room its last peer left.
    if (room && room.size === 0 && this.rooms.get(room.name) === room) this.scheduleUnload(room);
  }

  /** Why a new socket of `userId` in `room` is refused (opened too fast, or too many open), if it is. */
  private socketRefusal(room: string, userId: string): string | undefined {
    // Like the HTTP rate limits, the pace of new sockets follows RATE_LIMITS (off in most tests).
    if (this.ctx.config.rateLimits) {
      let joins = this.joins.get(userId);
      if (!joins)
        this.joins.set(
          userId,
          (joins = new TokenBucket(CHAT_LIMITS.joinsPerSecond, CHAT_LIMITS.joinBurst, this.ctx.now)),
        );
      if (joins.wait() > 0) return CLOSE_REASONS.tooFast;
      joins.take(1);
    }
    return this.capRefusal(room, userId);
  }

  /** Why one more socket of `userId` in `room` would be too many, if it would. */
  private capRefusal(room: string, userId: string): string | undefined {
    const inRoom = this.byRoom.get(room) ?? new Set();
    const mine = [...inRoom].filter((p) => p.userId === userId).length;
    if (mine >= CHAT_LIMITS.socketsPerUserInRoom || inRoom.size >= CHAT_LIMITS.socketsPerRoom)
      return CLOSE_REASONS.tooManySockets;
    if ((this.byUser.get(userId)?.size ?? 0) >= CHAT_LIMITS.socketsPerUser) return CLOSE_REASONS.tooManySockets;
    return undefined;
  }

  private remember(peer: SocketPeer): void {
    this.sockets.add(peer);
    for (const [map, key] of [
      [this.byUser, peer.userId],
      [this.byRoom, peer.room],
    ] as const) {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(peer);
    }
  }

  private forget(peer: SocketPeer): void {
    this.sockets.delete(peer);
    for (const [map, key] of [
      [this.byUser, peer.userId],
      [this.byRoom, peer.room],
    ] as const) {
      const set = map.get(key);
      set?.delete(peer);
      if (set?.size === 0) map.delete(key);
    }
  }

  /**
   * A frame from a socket: handled now if its user's budget in the room allows, otherwise kept
   * unread with the socket paused (TCP slows the sender) until the budget is repaid. Frames are
   * handled in order; a socket that piles up more than inboxMaxBytes anyway is closed.
   */
  private arrive(peer: SocketPeer, room: ChatRoom, frame: Uint8Array): void {
    peer.inbox.push(frame);
    peer.inboxBytes += frame.byteLength;
    if (peer.inboxBytes > CHAT_LIMITS.inboxMaxBytes) {
      room.dismiss(peer, CLOSE_CODES.tooMany, CLOSE_REASONS.inboxFull);
      return;
    }
    if (peer.waiting === undefined) this.drain(peer, room);
  }

  private drain(peer: SocketPeer, room: ChatRoom): void {
    peer.waiting = undefined;
    const key = `${peer.room}
${peer.userId}`;
    let budget = this.budgets.get(key);
    if (!budget) this.budgets.set(key, (budget = new SendBudget(CHAT_LIMITS, this.ctx.now)));
    while (peer.inbox.length > 0) {
      const wait = budget.charge(peer.inbox[0]!.byteLength);
      if (wait > 0) {
        peer.ws.pause();
        peer.waiting = setTimeout(() => this.drain(peer, room), wait);
        return;
      }
      const frame = peer.inbox.shift()!;
      peer.inboxBytes -= frame.byteLength;
      try {
        room.receive(peer, frame);
      } catch (err) {
        // A bug here must cost one socket, never the process.
        this.ctx.log(`chat: a message in ${peer.room} failed`, err);
        room.dismiss(peer, CLOSE_CODES.internalError, CLOSE_REASONS.internalError);
        return;
      }
    }
    peer.ws.resume();
  }

  /** The room, from memory or read from the store (its log then held open until it unloads). */
  private roomFor(name: string): Promise<ChatRoom> {
    const timer = this.idleTimers.get(name);
    if (timer) {
      clearTimeout(timer);
      this.idleTimers.delete(name);
    }
    const room = this.rooms.get(name);
    if (room) return Promise.resolve(room);
    let loading = this.loading.get(name);
    if (!loading) {
      loading = this.load(name).finally(() => this.loading.delete(name));
      this.loading.set(name, loading);
    }
    return loading;
  }

  private async load(name: string): Promise<ChatRoom> {
    await this.ctx.store.openChat(name);
    let room: ChatRoom;
    try {
      if (this.closed) throw new Error('The server is shutting down.');
      room = new ChatRoom(name, {
        store: this.ctx.store,
        now: this.ctx.now,
        log: this.ctx.log,
        info: this.ctx.config.logLevel === 'info' ? (m) => this.ctx.log(m) : () => {},
        compactAfter: this.options.compactAfter ?? CHAT_LIMITS.compactAfterEntries,
        onStamped: (roomName, messages) => this.record(roomName, messages),
        onEmpty: (r) => this.scheduleUnload(r),
        onRemoteStamps: (r) => this.checkRecordLater(r),
      });
    } catch (err) {
      this.ctx.store.closeChat(name);
      throw err;
    }
    this.rooms.set(name, room);
    room.askPresence();
    this.recordIfBehind(room);
    return room;
  }

  /**
   * Conversation record and notification for stamped messages (docs/architecture.md "Chat"), as a
   * decision: two instances recording one conversation at once both count, the later stamp last.
   */
  private async record(room: string, messages: StampedMessage[], onlyIfBehind = false): Promise<void> {
    const now = this.ctx.now();
    try {
      await this.ctx.store.transaction((read) => {
        if (onlyIfBehind) {
          const current = read.get('conversations', room);
          const newest = Math.max(...messages.map((m) => m.timestamp));
          if (current && Number(current.lastMessageTimestamp ?? -1) >= newest) return { writes: [], value: undefined };
        }
        return { writes: stampedRecordWrites(read, room, messages, now), value: undefined };
      });
    } catch (err) {
      this.ctx.log(`chat: could not update the conversation ${room}`, err);
    }
  }

  /**
   * A room whose newest stamped message is newer than its conversation record (on PostgreSQL an
   * instance can stop between a message's entry and its record) is recorded when it loads.
   */
  private recordIfBehind(room: ChatRoom): void {
    const newest = room.newestAtLoad;
    if (!newest) return;
    const current = this.ctx.store.get('conversations', room.name);
    if (current && Number(current.lastMessageTimestamp ?? -1) >= newest.timestamp) return;
    void this.record(room.name, [newest], true);
  }

  /**
   * Another instance's entries stamped messages in a room held here: their record is that
   * instance's, but if it is still behind the room once the grace has passed, this instance writes
   * it (a decision that writes nothing when someone did meanwhile). Costs one read per room and
   * grace while entries arrive; the room's whole document is read only when the record is behind.
   */
  private checkRecordLater(room: ChatRoom): void {
    if (this.closed || this.recordChecks.has(room.name)) return;
    const timer = setTimeout(() => {
      this.recordChecks.delete(room.name);
      if (this.rooms.get(room.name) !== room) return;
      const current = this.ctx.store.get('conversations', room.name);
      if (current && Number(current.lastMessageTimestamp ?? -1) >= room.lastStamp) return;
      const newest = room.newestStamped();
      if (newest) void this.record(room.name, [newest], true);
    }, REMOTE_RECORD_GRACE_MS);
    timer.unref();
    this.recordChecks.set(room.name, timer);
  }

  private scheduleUnload(room: ChatRoom): void {
    if (this.closed) return;
    clearTimeout(this.idleTimers.get(room.name));
    const timer = setTimeout(() => {
      this.idleTimers.delete(room.name);
      void this.unload(room);
    }, this.options.idleMs);
    timer.unref();
    this.idleTimers.set(room.name, timer);
  }

  /**
   * Compacts an idle room's log, then drops the room, unless someone joined meanwhile (the room
   * stays; a compaction merges only entries it read, so what they sent is kept). A room is no
   * longer listed only once its log is compacted.
   */
  private async unload(room: ChatRoom): Promise<void> {
    const idle = () => room.size === 0 && this.rooms.get(room.name) === room && !this.idleTimers.has(room.name);
    await room.settle();
    if (!idle()) return;
    await room.compact();
    if (!idle()) return;
    this.rooms.delete(room.name);
    room.destroy();
    this.ctx.store.closeChat(room.name);
  }

  private onSessionRevoked = (sessionId: string): void => {
    for (const room of this.rooms.values()) {
      for (const peer of room.peersOf(sessionId)) room.dismiss(peer, CLOSE_CODES.signedOut, CHAT_MESSAGES.loggedOut);
    }
  };

  /** A socket that did not answer the last ping is dead: its room hears it close. Budgets back to full are dropped. */
  private ping(): void {
    for (const [key, budget] of this.budgets) {
      const [room, user] = key.split('\n') as [string, string];
      if (budget.idle && ![...(this.byRoom.get(room) ?? [])].some((p) => p.userId === user)) this.budgets.delete(key);
    }
    for (const [user, joins] of this.joins) if (joins.full) this.joins.delete(user);
    for (const peer of this.sockets) {
      if (!peer.alive) {
        peer.ws.terminate();
        continue;
      }
      peer.alive = false;
      peer.ws.ping();
    }
  }

  /** Closes every socket, lets the last writes finish, compacts and drops every room. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ctx.events.off('session-revoked', this.onSessionRevoked);
    this.stopRemote();
    this.stopPresence();
    clearInterval(this.pinger);
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    for (const timer of this.recordChecks.values()) clearTimeout(timer);
    this.recordChecks.clear();
    const rooms = [...this.rooms.values()];
    this.rooms.clear();
    const closing = [...this.sockets].map((peer) => new Promise((resolve) => peer.ws.once('close', resolve)));
    for (const room of rooms) room.closePeers(CLOSE_CODES.goingAway, 'Server shutting down');
    await Promise.allSettled([...this.loading.values()]);
    for (const room of rooms) {
      await room.settle();
      await room.compact();
      room.destroy();
      this.ctx.store.closeChat(room.name);
    }
    // Give clients a moment to answer the close frame, then cut whatever is left.
    const grace = new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
    await Promise.race([Promise.all(closing), grace]);
    for (const peer of this.sockets) {
      clearTimeout(peer.waiting);
      peer.ws.terminate();
    }
    this.sockets.clear();
    this.wss.close();
  }
}
