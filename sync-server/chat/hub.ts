import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { CHAT_MESSAGES } from '../../shared/validation/chat-access';
import type { AppContext } from '../context';
import { securityHeaderList } from '../http/security';
import { authorizeChatUpgrade, chatRoomOf, type ChatAccess } from './access';
import { CLOSE_CODES } from './protocol';
import { messageRecordWrites, type StampedMessage } from './record';
import { ChatRoom, type ChatPeer } from './room';

export type ChatHubOptions = {
  /** A room with nobody in it is compacted and unloaded after this long. */
  idleMs: number;
  /** A room's update log is merged into one update past this many entries. */
  compactAfter?: number;
};

const PING_EVERY_MS = 30_000;
const CLOSE_GRACE_MS = 1_000;
/** Big enough for the first sync of a long offline queue; ws's default is 100 MiB. */
const MAX_PAYLOAD = 4 * 1024 * 1024;
/** A WebSocket close reason is at most 123 bytes. */
const closeReason = (reason: string) => Buffer.from(reason).subarray(0, 123).toString();

/** A `ws` socket as a room's peer, with the liveness flag the pings use. */
class SocketPeer implements ChatPeer {
  alive = true;
  constructor(
    readonly ws: WebSocket,
    readonly userId: string,
    readonly otherId: string,
    readonly sessionId: string,
  ) {}

  send(message: Uint8Array): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(message, (err) => {
      if (err) this.ws.terminate();
    });
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, closeReason(reason));
  }
}

/**
 * Answers an upgrade request with a plain HTTP response instead of a socket, carrying the same
 * security headers (content security policy and the rest) as every other answer of the server.
 */
function refuseUpgrade(socket: Duplex, status: number, body: object, securityHeaders: readonly [string, string][]): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n` +
      securityHeaders.map(([name, value]) => `${name}: ${value}\r\n`).join('') +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      text,
  );
}

/**
 * The chat socket (`/api/chat/<conversationId>`, y-websocket protocol) on the server's own HTTP
 * server. Rooms are a rebuildable cache over the store's chat logs: loaded on the first join,
 * compacted and dropped when idle, so nothing here must survive a restart.
 */
export class ChatHub {
  private readonly rooms = new Map<string, ChatRoom>();
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  private readonly sockets = new Set<SocketPeer>();
  private readonly pinger: NodeJS.Timeout;
  private closed = false;
  private readonly refusalHeaders: [string, string][];

  constructor(
    private readonly ctx: AppContext,
    private readonly options: ChatHubOptions,
  ) {
    this.refusalHeaders = securityHeaderList({ https: ctx.config.cookieSecure });
    ctx.events.on('session-revoked', this.onSessionRevoked);
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
    authorizeChatUpgrade(this.ctx, req, room).then(
      (access) => this.upgrade(req, socket, head, access),
      (err: unknown) => {
        this.ctx.log('chat: could not authorize a socket', err);
        refuseUpgrade(socket, 500, { error: 'Something went wrong. Please try again.' }, this.refusalHeaders);
      },
    );
  };

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, access: ChatAccess): void {
    if (!access.ok) return refuseUpgrade(socket, access.status, access.body, this.refusalHeaders);
    if (this.closed) return refuseUpgrade(socket, 503, { error: 'The server is restarting. Please try again.' }, this.refusalHeaders);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const peer = new SocketPeer(ws, access.userId, access.otherId, access.sessionId);
      if (this.closed) return peer.close(CLOSE_CODES.goingAway, 'Server shutting down');
      const room = this.roomFor(access.room);
      ws.binaryType = 'nodebuffer';
      ws.on('message', (data: Buffer) => {
        try {
          room.receive(peer, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        } catch (err) {
          // A bug here must cost one socket, never the process.
          this.ctx.log(`chat: a message in ${access.room} failed`, err);
          room.dismiss(peer, 1011, 'Something went wrong. Please try again.');
        }
      });
      ws.on('pong', () => (peer.alive = true));
      ws.on('close', () => {
        this.sockets.delete(peer);
        room.leave(peer);
      });
      ws.on('error', () => ws.terminate());
      this.sockets.add(peer);
      room.join(peer);
    });
  }

  private roomFor(name: string): ChatRoom {
    const timer = this.idleTimers.get(name);
    if (timer) {
      clearTimeout(timer);
      this.idleTimers.delete(name);
    }
    let room = this.rooms.get(name);
    if (!room) {
      room = new ChatRoom(name, {
        store: this.ctx.store,
        now: this.ctx.now,
        log: this.ctx.log,
        info: this.ctx.config.logLevel === 'info' ? (m) => this.ctx.log(m) : () => {},
        compactAfter: this.options.compactAfter ?? 200,
        onStamped: (roomName, messages) => this.record(roomName, messages),
        onEmpty: (r) => this.scheduleUnload(r),
      });
      this.rooms.set(name, room);
    }
    return room;
  }

  /** Conversation record and notification for stamped messages (ARCHITECTURE.md "Chat"). */
  private async record(room: string, messages: StampedMessage[]): Promise<void> {
    try {
      await this.ctx.store.commit(messageRecordWrites(this.ctx.store, room, messages, this.ctx.now()));
    } catch (err) {
      this.ctx.log(`chat: could not update the conversation ${room}`, err);
    }
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

  private async unload(room: ChatRoom): Promise<void> {
    await room.settle();
    // Someone joined while the last writes settled: the room stays.
    if (room.size > 0 || this.rooms.get(room.name) !== room || this.idleTimers.has(room.name)) return;
    this.rooms.delete(room.name);
    await room.compact();
    room.destroy();
  }

  private onSessionRevoked = (sessionId: string): void => {
    for (const room of this.rooms.values()) {
      for (const peer of room.peersOf(sessionId)) room.dismiss(peer, CLOSE_CODES.signedOut, CHAT_MESSAGES.loggedOut);
    }
  };

  /** A socket that did not answer the last ping is dead: its room hears it close. */
  private ping(): void {
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
    clearInterval(this.pinger);
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    const rooms = [...this.rooms.values()];
    this.rooms.clear();
    const closing = [...this.sockets].map((peer) => new Promise((resolve) => peer.ws.once('close', resolve)));
    for (const room of rooms) room.closePeers(CLOSE_CODES.goingAway, 'Server shutting down');
    for (const room of rooms) {
      await room.settle();
      await room.compact();
      room.destroy();
    }
    // Give clients a moment to answer the close frame, then cut whatever is left.
    const grace = new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
    await Promise.race([Promise.all(closing), grace]);
    for (const peer of this.sockets) peer.ws.terminate();
    this.sockets.clear();
    this.wss.close();
  }
}
