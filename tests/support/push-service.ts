import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service on 127.0.0.1 standing in for FCM, Mozilla's or Apple's: it takes pushes the way
 * they do (RFC 8030), checks each request's VAPID signature (RFC 8292) and decrypts its payload
 * with the device's keys (RFC 8291, aes128gcm per RFC 8188) using node:crypto only, so a test
 * reads what a browser would show. Each device is a key pair made here, like a browser's.
 */

export type Device = {
  /** What the browser's `PushSubscription.toJSON()` gives, to send to the server. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Pushes that reached this device, decrypted, oldest first. */
  received: ReceivedPush[];
  /** What the push service answers for this device from now on (410 once it unsubscribed, say). */
  answer: number;
  /** Requests the push service got for this device, whatever it answered. */
  requests: number;
};

export type ReceivedPush = {
  payload: Record<string, unknown>;
  headers: { ttl: string | undefined; urgency: string | undefined; contentEncoding: string | undefined };
  /** The VAPID claims, once the signature checked out against `k`. */
  vapid: { aud: string; exp: number; sub: string; publicKey: string };
};

type DeviceKeys = { ecdh: crypto.ECDH; auth: Buffer };

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) =>
  Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8291 §3.4 and RFC 8188 §2: the aes128gcm content coding, decrypted for the device. */
export function decryptPush(body: Buffer, keys: DeviceKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not an uncompressed P-256 key`);
  if (ciphertext.length > recordSize) throw new Error('more than one record: a push payload is one record');
  const devicePublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), devicePublic, serverPublic]);
  const ikm = hkdf(ecdhSecret, keys.auth, keyInfo, 32);
  const cek = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('the record has no final-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, an ES256 JWT signed by the server's key. */
export function verifyVapid(header: string | undefined, endpointOrigin: string): ReceivedPush['vapid'] {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [jwt, publicKey] = [m[1]!, m[2]!];
  const [head, claims, signature] = jwt.split('.') as [string, string, string];
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', ...pointToJwk(Buffer.from(publicKey, 'base64url')) },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('the VAPID signature does not verify');
  const header0 = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (header0.alg !== 'ES256') throw new Error(`VAPID alg ${header0.alg}`);
  const c = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (c.aud !== endpointOrigin) throw new Error(`VAPID aud ${c.aud}, expected ${endpointOrigin}`);
  const now = Date.now() / 1000;
  if (!(c.exp > now && c.exp <= now + 24 * 3600)) throw new Error(`VAPID exp ${c.exp} is not within 24 hours`);
  return { ...c, publicKey };
}

function pointToJwk(point: Buffer): { x: string; y: string } {
  return { x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
}

export type PushService = {
  origin: string;
  /** A new device (a browser profile) with its own keys and endpoint. */
  device(): Device;
  /** Requests that failed the checks above (each also answered 400). */
  errors: string[];
  close(): Promise<void>;
};

export async function startPushService(): Promise<PushService> {
  const devices = new Map<string, { device: Device; keys: DeviceKeys }>();
  const errors: string[] = [];
  let origin = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = devices.get(req.url ?? '');
      if (req.method !== 'POST' || !entry) {
        res.writeHead(404).end();
        return;
      }
      entry.device.requests += 1;
      if (entry.device.answer !== 201) {
        res.writeHead(entry.device.answer).end();
        return;
      }
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const vapid = verifyVapid(req.headers.authorization, origin);
        const text = decryptPush(Buffer.concat(chunks), entry.keys);
        entry.device.received.push({
          payload: JSON.parse(text) as Record<string, unknown>,
          headers: {
            ttl: req.headers.ttl as string | undefined,
            urgency: req.headers.urgency as string | undefined,
            contentEncoding: req.headers['content-encoding'],
          },
          vapid,
        });
        res.writeHead(201).end();
      } catch (err) {
        errors.push(err instanceof Error ? err.message : String(err));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    errors,
    device() {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const path = `/push/${crypto.randomBytes(12).toString('base64url')}`;
      const device: Device = {
        subscription: {
          endpoint: origin + path,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
        received: [],
        answer: 201,
        requests: 0,
      };
      devices.set(path, { device, keys: { ecdh, auth } });
      return device;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
