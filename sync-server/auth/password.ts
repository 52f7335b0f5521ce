import crypto from 'node:crypto';

/**
 * Passwords are hashed with scrypt at OWASP's parameters (N = 2^17, r = 8, p = 1). The stored
 * string carries its parameters, so a hash made with other settings (tests lower N) still verifies.
 */
export type ScryptParams = { logN: number; r: number; p: number };

export const OWASP_SCRYPT: ScryptParams = { logN: 17, r: 8, p: 1 };
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  // scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) is too small for N = 2^17.
  const maxmem = 256 * N * params.r;
  return new Promise((resolve, reject) => {
    crypto.scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r: params.r, p: params.p, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParams = OWASP_SCRYPT): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, params);
  return `scrypt$${params.logN}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export function parseHashParams(stored: string): ScryptParams | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  return { logN: Number(parts[1]), r: Number(parts[2]), p: Number(parts[3]) };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const params = parseHashParams(stored);
  const parts = stored.split('$');
  if (!params || !parts[4] || !parts[5]) return false;
  const expected = Buffer.from(parts[5], 'base64');
  const key = await scrypt(password, Buffer.from(parts[4], 'base64'), params);
  return key.length === expected.length && crypto.timingSafeEqual(key, expected);
}

/** A hash to verify against when the email is unknown, so timing does not tell which emails exist. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(params: ScryptParams): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'), params);
  return dummyHash;
}
