import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { CHAT_LIMITS } from './limits';
import { CLOSE_CODES, CLOSE_REASONS } from './protocol';
import type { ChatPeer } from './room';

/** A WebSocket close reason is at most 123 bytes. */
const closeReason = (reason: string) => Buffer.from(reason).subarray(0, 123).toString();

/**
 * A `ws` socket as a room's peer, with the liveness flag the pings use, and the frames it sent
 * that wait (unread, the socket paused) for its user's send budget in the room.
 */
export class SocketPeer implements ChatPeer {
  alive = true;
  readonly inbox: Uint8Array[] = [];
  inboxBytes = 0;
  waiting: NodeJS.Timeout | undefined;
  constructor(
    readonly ws: WebSocket,
    /** The connection under `ws` (the upgraded socket): corked while several frames are written. */
    private readonly connection: Duplex,
    readonly room: string,
    readonly userId: string,
    readonly otherId: string,
    readonly sessionId: string,
  ) {}

  send(message: Uint8Array): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount + message.byteLength > CHAT_LIMITS.sendBufferMaxBytes) {
      // It does not read what it asked for: it goes, rather than the server holding it all.
      this.close(CLOSE_CODES.overloaded, CLOSE_REASONS.overloaded);
      return;
    }
    // (A failed write emits `error` on the socket, which terminates it: see ChatHub.upgrade.)
    this.ws.send(message);
  }

  /** Several frames in one write to the connection (one system call instead of one each). */
  sendAll(messages: readonly Uint8Array[]): void {
    if (messages.length === 1) return this.send(messages[0]!);
    this.connection.cork();
    try {
      for (const m of messages) this.send(m);
    } finally {
      this.connection.uncork();
    }
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)
      this.ws.close(code, closeReason(reason));
  }
}

/**
 * Answers an upgrade request with a plain HTTP response instead of a socket, carrying the same
 * security headers (content security policy and the rest) as every other answer of the server.
 */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  body: object,
  securityHeaders: readonly [string, string][],
): void {
  const text = JSON.stringify(body);
  // The store out of reach (503): nothing happened, and the client's reconnect may try again soon.
  const headers = status === 503 ? [...securityHeaders, ['Retry-After', '2'] as const] : securityHeaders;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n` +
      headers.map(([name, value]) => `${name}: ${value}\r\n`).join('') +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      text,
  );
}
