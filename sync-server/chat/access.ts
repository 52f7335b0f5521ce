import type { IncomingMessage } from 'node:http';
import { ID_PATTERN } from '../../shared/ids';
import { CHAT_MESSAGES } from '../../shared/validation/chat-access';
import { authenticate } from '../auth/middleware';
import type { AppContext } from '../context';
import { originPolicy, requestProtocol } from '../http/security';
import { linkedByApplication } from '../domain/links';
import { readCurrent } from '../store/store';

export const CHAT_PATH_PREFIX = '/api/chat/';

export type ChatAccess =
  | { ok: true; room: string; userId: string; userName: string; otherId: string; sessionId: string }
  | { ok: false; status: number; body: { error: string; redirectTo?: string } };

export const NO_LINK_MESSAGE = 'A conversation needs an application linking the two users.';
const NOT_PARTICIPANT_MESSAGE = 'Only the participants of a conversation may read it.';

/** The conversation id named by an upgrade request's path, or undefined when it is not a chat path. */
export function chatRoomOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const path = url.split('?')[0]!;
  if (!path.startsWith(CHAT_PATH_PREFIX)) return undefined;
  try {
    return decodeURIComponent(path.slice(CHAT_PATH_PREFIX.length));
  } catch {
    return '';
  }
}

/**
 * The origin a browser on the app sends: PUBLIC_ORIGIN when configured, otherwise the request's
 * own host, as `sameOriginJsonOnly` rules for HTTP (a proxy on this machine may say it was https),
 * and then only when that host names this server (localhost, 127.0.0.1, [::1] or HOST on the
 * port the request came in on): a DNS-rebound name is no origin of ours (decision 012).
 */
function expectedOrigin(ctx: AppContext, req: IncomingMessage): string | undefined {
  if (ctx.config.publicOrigin) return ctx.config.publicOrigin;
  if (!originPolicy(undefined, ctx.config.host).knownHostHeader(req.headers.host, req.socket.localPort))
    return undefined;
  return `${requestProtocol(req)}://${req.headers.host ?? ''}`;
}

const WS_KEY = /^[+/0-9A-Za-z]{22}==$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What `ws` would refuse in the handshake itself, checked first so the refusal is a JSON
 * `{ error }` like every other one (ws answers those in plain text).
 */
function handshakeProblem(req: IncomingMessage): { status: number; error: string } | undefined {
  if (req.method !== 'GET') return { status: 405, error: 'A chat socket is opened with GET' };
  if (String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
    return { status: 400, error: 'Invalid Upgrade header' };
  if (!WS_KEY.test(String(req.headers['sec-websocket-key'] ?? '')))
    return { status: 400, error: 'Missing or invalid Sec-WebSocket-Key header' };
  const version = Number(req.headers['sec-websocket-version']);
  if (version !== 13 && version !== 8) return { status: 400, error: 'Missing or invalid Sec-WebSocket-Version header' };
  const protocols = req.headers['sec-websocket-protocol'];
  if (protocols !== undefined) {
    const list = protocols.split(',').map((p) => p.trim());
    if (!list.every((p) => TOKEN.test(p)) || new Set(list).size !== list.length)
      return { status: 400, error: 'Invalid Sec-WebSocket-Protocol header' };
  }
  return undefined;
}

/**
 * Decides a chat socket before it opens (docs/product.md §5 Chat access): a WebSocket handshake, same
 * origin, signed in, one of the two participants the id names, not oneself, and an application
 * linking the two.
 */
export async function authorizeChatUpgrade(ctx: AppContext, req: IncomingMessage, room: string): Promise<ChatAccess> {
  const handshake = handshakeProblem(req);
  if (handshake) return { ok: false, status: handshake.status, body: { error: handshake.error } };
  const expected = expectedOrigin(ctx, req);
  if (expected === undefined || req.headers.origin !== expected) {
    return { ok: false, status: 403, body: { error: 'Cross-origin requests are not allowed' } };
  }
  // The session and its user as every request reads them (a session that slid is extended; the
  // upgrade's answer sets no cookie, the app's next request does).
  const { auth } = await authenticate(ctx, req.headers.cookie);
  if (!auth) return { ok: false, status: 401, body: { error: CHAT_MESSAGES.loggedOut } };
  const { user, session } = auth;

  const parts = room.split('_');
  if (parts.length !== 2 || !parts.every((p) => ID_PATTERN.test(p))) {
    return { ok: false, status: 400, body: { error: 'Invalid conversation id' } };
  }
  const [a, b] = parts as [string, string];
  if (a === b) {
    return a === user.id
      ? { ok: false, status: 400, body: { error: CHAT_MESSAGES.withSelf } }
      : { ok: false, status: 403, body: { error: NOT_PARTICIPANT_MESSAGE, redirectTo: '/applications' } };
  }
  if (a > b) return { ok: false, status: 400, body: { error: 'Invalid conversation id' } };
  if (a !== user.id && b !== user.id)
    return { ok: false, status: 403, body: { error: NOT_PARTICIPANT_MESSAGE, redirectTo: '/applications' } };
  const otherId = a === user.id ? b : a;
  // An application made a moment ago on another instance may not be in this one's replica yet:
  // a refusal asks the store for the current versions first (readCurrent).
  const linked =
    linkedByApplication(ctx.store, user.id, otherId) ||
    (await readCurrent(ctx.store, (read) => linkedByApplication(read, user.id, otherId)));
  if (!linked) {
    return { ok: false, status: 403, body: { error: NO_LINK_MESSAGE, redirectTo: '/applications' } };
  }
  return {
    ok: true,
    room,
    userId: user.id,
    userName: typeof user.name === 'string' ? user.name : '',
    otherId,
    sessionId: session.id,
  };
}
