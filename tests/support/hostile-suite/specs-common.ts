import crypto from 'node:crypto';
import { hostileString, encodePart, randomText, type Rng } from '../hostile';

// The endpoints

/** Pieces the endpoint specs and the row contexts share: bad collection paths and queries, a push device, the clock. */
export const UNKNOWN_COLLECTIONS = [
  'credentials',
  'sessions',
  'waitlist',
  'ledger',
  'meta',
  'portfolios',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'USERS',
  'users%00',
  '%2e%2e',
  'gigs.json',
];

export function badCollectionPath(r: Rng, tail: string): string {
  const name = r.chance(0.7) ? r.pick(UNKNOWN_COLLECTIONS) : encodePart(hostileString(r).slice(0, 200)) || 'x';
  return `/api/sync/${name}/${tail}`;
}

export function badQuery(r: Rng): string {
  const seq = [
    '-1',
    '-100',
    'abc',
    '1.5',
    'NaN',
    '9007199254740993',
    '0x',
    '[]',
    '{}',
    'Infinity',
    '1e400',
    `${encodePart(hostileString(r))}x`,
  ];
  const limit = ['0', '-5', '1001', '99999', 'x', '2.5', ''];
  switch (r.int(0, 4)) {
    case 0:
      return `seq=${r.pick(seq)}`;
    case 1:
      return `seq=0&limit=${r.pick(limit)}`;
    case 2:
      return `seq=1&seq=2`;
    case 3:
      return `seq=0&${r.pick(['foo', '__proto__', 'constructor', 'seq[]', 'limit[a]', 'toString', encodePart(randomText(r, 10)) || 'z'])}=1`;
    default:
      return `limit=${r.pick(limit)}&${r.pick(['seq[x]=1', 'after=5', 'checkpoint=1'])}`;
  }
}

export const now = () => Date.now();

/** A browser's push subscription on FCM (a push service the server accepts by default), with a real P-256 key. */
export function pushDevice(): { endpoint: string; keys: { p256dh: string; auth: string } } {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomBytes(16).toString('base64url')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') },
  };
}
