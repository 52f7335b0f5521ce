import { Rng } from '../rng';
import { encodePart, hostileString, randomText } from './values';
import { type Attacker, CROSS_ORIGIN, forgedCookie } from './requests';

// ---------------------------------------------------------------------------------------------
// Chat socket upgrade requests

export type UpgradeContext = Attacker & {
  /** A room the attacker may join: everything else about the request is valid. */
  ownRoom: string;
  /** Rooms of other users, with users the attacker is not linked to, and with oneself. */
  foreignRoom: string;
  unlinkedRoom: string;
  selfRoom: string;
};

export type HostileUpgrade = {
  defect: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  status: number | 'any4xx';
};

export const wsKey = (r: Rng) => Buffer.from(Array.from({ length: 16 }, () => r.int(0, 255))).toString('base64');

/** One upgrade request to the chat socket with one defect; `status` is the right refusal. */
export function hostileUpgrade(r: Rng, u: UpgradeContext): HostileUpgrade {
  const headers: Record<string, string> = {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': wsKey(r),
    origin: u.origin,
    cookie: u.cookie,
  };
  let path = `/api/chat/${u.ownRoom}`;
  let method = 'GET';
  const [a, b] = u.ownRoom.split('_') as [string, string];
  switch (r.int(0, 9)) {
    case 0:
      delete headers.cookie;
      return { defect: 'no cookie', method, path, headers, status: 401 };
    case 1:
      headers.cookie = forgedCookie(r, u);
      return { defect: `forged cookie ${headers.cookie.slice(0, 30)}`, method, path, headers, status: 401 };
    case 2:
      headers.cookie = r.pick(u.revokedCookies);
      return { defect: 'revoked cookie', method, path, headers, status: 401 };
    case 3: {
      delete headers.origin;
      const variant = r.pick(CROSS_ORIGIN(u.origin));
      if (variant.origin) headers.origin = variant.origin;
      return { defect: `cross-origin ${variant.origin ?? 'none'}`, method, path, headers, status: 403 };
    }
    case 4: {
      const room = r.pick([
        `${b}_${a}`,
        `${a}_${b}_${a}`,
        a,
        `${a}_`,
        `_${b}`,
        `${a}.${b}`,
        `${a}_${b}x!`,
        `${a}_${'x'.repeat(r.int(65, 3000))}`,
        hostileString(r).slice(0, 300),
        randomText(r, 60),
        '',
      ]);
      path = `/api/chat/${encodePart(room)}`;
      return { defect: `bad room ${room.slice(0, 40)}`, method, path, headers, status: 'any4xx' };
    }
    case 5:
      path = `/api/chat/${r.pick(['%E0%A4%A', '%', '%zz', '..%2F..%2Fapi%2Fhealth'])}`;
      return { defect: `undecodable room ${path}`, method, path, headers, status: 400 };
    case 6:
      path = `/api/chat/${u.selfRoom}`;
      return { defect: 'room with oneself', method, path, headers, status: 400 };
    case 7: {
      const foreign = r.chance(0.5);
      path = `/api/chat/${foreign ? u.foreignRoom : u.unlinkedRoom}`;
      return {
        defect: foreign ? "other users' room" : 'room with an unlinked user',
        method,
        path,
        headers,
        status: 403,
      };
    }
    case 8: {
      const variant = r.int(0, 6);
      if (variant === 0) delete headers['sec-websocket-key'];
      else if (variant === 1)
        headers['sec-websocket-key'] = r.pick(['', 'short', 'x'.repeat(30), '!!!!!!!!!!!!!!!!!!!!!!==']);
      else if (variant === 2) headers['sec-websocket-version'] = r.pick(['12', '0', 'abc', '13, 8', '']);
      else if (variant === 3) headers.upgrade = r.pick(['h2c', 'websocket2', 'WebSocket/2', 'tls/1.0']);
      else if (variant === 4) method = r.pick(['POST', 'PUT', 'DELETE']);
      else if (variant === 5) delete headers['sec-websocket-version'];
      else headers['sec-websocket-protocol'] = r.pick(['a b', 'x,,y', 'chat, chat', '"quoted"', ',', 'é']);
      return {
        defect: `bad handshake (${['no key', 'bad key', 'bad version', 'other protocol', `method ${method}`, 'no version', 'bad subprotocol'][variant]})`,
        method,
        path,
        headers,
        status: 'any4xx',
      };
    }
    default:
      path = r.pick([
        '/api/health',
        '/api/chat',
        '/api/sync/stream',
        '/',
        `/api/chatx/${u.ownRoom}`,
        `/API/CHAT/${u.ownRoom}`,
      ]);
      return { defect: `upgrade on ${path}`, method, path, headers, status: 'any4xx' };
  }
}
