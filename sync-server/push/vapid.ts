import crypto from 'node:crypto';
import type { Config } from '../config';
import type { Store } from '../store/store';
import type { VapidKeysRecord } from './records';

export type VapidKeys = { publicKey: string; privateKey: string };

const META_ID = 'vapid';

/** A new P-256 key pair as VAPID wants it: the public key uncompressed (65 bytes), the private 32 bytes, base64url. */
export function generateVapidKeys(): VapidKeys {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    // The private key is a 256-bit number: pad it to 32 bytes (getPrivateKey drops leading zeros).
    privateKey: Buffer.from(ecdh.getPrivateKey('hex').padStart(64, '0'), 'hex').toString('base64url'),
  };
}

/** Whether `keys` is a P-256 key pair whose private key gives its public key. */
export function isVapidKeyPair(keys: VapidKeys): boolean {
  try {
    const priv = Buffer.from(keys.privateKey, 'base64url');
    const pub = Buffer.from(keys.publicKey, 'base64url');
    if (priv.length !== 32 || pub.length !== 65 || pub[0] !== 4) return false;
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.setPrivateKey(priv);
    return ecdh.getPublicKey().equals(pub);
  } catch {
    return false;
  }
}

/**
 * The server's VAPID keys: the configured pair, else the one in the store, made at the first start.
 * Made in a store decision, so instances starting together on one shared store all end up with the
 * pair that was committed first (a candidate is made outside the decision, which stays pure).
 */
export async function loadVapidKeys(
  config: Config,
  store: Pick<Store, 'transaction'>,
  now: number,
): Promise<VapidKeys> {
  if (config.vapidKeys) {
    if (!isVapidKeyPair(config.vapidKeys))
      throw new Error(
        'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: not a P-256 key pair (base64url, 65 and 32 bytes)',
      );
    return config.vapidKeys;
  }
  const candidate = generateVapidKeys();
  const { value } = await store.transaction((read) => {
    const stored = read.get('meta', META_ID) as (VapidKeysRecord & { _deleted: boolean }) | undefined;
    if (stored && !stored._deleted && typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string')
      return { writes: [], value: { publicKey: stored.publicKey, privateKey: stored.privateKey } };
    const record: VapidKeysRecord = { id: META_ID, ...candidate, createdAt: now };
    return { writes: [{ collection: 'meta', doc: { ...record, _deleted: false } }], value: candidate };
  });
  return value;
}
