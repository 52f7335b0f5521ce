import crypto from 'node:crypto';
import { readCurrent, type Store, type Stored } from '../store/store';

export const SESSION_COOKIE = 'sid';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Sliding expiry is written at most this often, so a busy session does not write on every request. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export type Session = { id: string; userId: string; expiresAt: number; createdAt: number };

/** Sessions are stored by the SHA-256 of their token: a leaked store file does not leak live sessions. */
export function hashToken(token: string): string {
  return crypto.hash('sha256', token, 'base64url');
}

export async function createSession(
  store: Store,
  userId: string,
  now: number,
): Promise<{ token: string; session: Session }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const session: Session = { id: hashToken(token), userId, createdAt: now, expiresAt: now + SESSION_TTL_MS };
  await store.commit([{ collection: 'sessions', doc: { ...session, _deleted: false } }]);
  return { token, session };
}

/**
 * The live session for a cookie token, or undefined. Extends the expiry (sliding) now and then;
 * `renewed` says it did, so the cookie's own lifetime can be extended with it.
 */
export async function lookupSession(
  store: Store,
  token: string | undefined,
  now: number,
): Promise<(Session & { renewed: boolean }) | undefined> {
  if (!token || token.length > 100) return undefined;
  const id = hashToken(token);
  // A session made a moment ago on another instance may not have reached this one's replica.
  const doc = store.get('sessions', id) ?? (await readCurrent(store, (read) => read.get('sessions', id)));
  if (!doc || doc._deleted || doc.expiresAt <= now) return undefined;
  const session = toSession(doc);
  if (touchDue(session.expiresAt, now)) {
    // Only a session still live is extended: a logout on another instance meanwhile stays a logout.
    // Requests of one session arriving together all find it due; the first extends it and the
    // others find it extended (writing each would make them contend for one document).
    const { value: expiresAt } = await store.transaction((read) => {
      const current = read.get('sessions', id);
      if (!current || current._deleted) return { writes: [], value: undefined };
      if (!touchDue(current.expiresAt, now)) return { writes: [], value: current.expiresAt };
      const extended = now + SESSION_TTL_MS;
      return { writes: [{ collection: 'sessions', doc: { ...current, expiresAt: extended } }], value: extended };
    });
    if (expiresAt === undefined) return undefined;
    return { ...session, expiresAt, renewed: true };
  }
  return { ...session, renewed: false };
}

export async function revokeSession(store: Store, sessionId: string): Promise<void> {
  await store.transaction((read) => {
    const doc = read.get('sessions', sessionId);
    if (!doc || doc._deleted) return { writes: [], value: undefined };
    return { writes: [{ collection: 'sessions', doc: { ...doc, _deleted: true } }], value: undefined };
  });
}

/**
 * Whether a session's expiry is due to be extended. (Module-level, not a closure of the lookup:
 * the server runs through tsx, which names every inner function as it is made, a cost on each
 * request; decision 008.)
 */
function touchDue(expiresAt: number, now: number): boolean {
  return expiresAt - now < SESSION_TTL_MS - TOUCH_EVERY_MS;
}

function toSession(doc: Stored<'sessions'>): Session {
  return { id: doc.id, userId: doc.userId, createdAt: doc.createdAt, expiresAt: doc.expiresAt };
}

/**
 * The Set-Cookie value that gives the browser a session token for 30 days: HttpOnly, SameSite=Lax,
 * on the whole site, Secure with COOKIE_SECURE. Written here, once, for every answer that sets it
 * (signup, login, a session that slid), whether Express writes the answer or not.
 */
export function sessionCookie(token: string, secure: boolean): string {
  const expires = new Date(Date.now() + SESSION_TTL_MS).toUTCString();
  return cookieLine(
    `${SESSION_COOKIE}=${encodeURIComponent(token)}; Max-Age=${SESSION_TTL_MS / 1000}`,
    expires,
    secure,
  );
}

/** The Set-Cookie value that makes the browser forget its session token (logout). */
export function clearedSessionCookie(secure: boolean): string {
  return cookieLine(`${SESSION_COOKIE}=`, new Date(0).toUTCString(), secure);
}

function cookieLine(value: string, expires: string, secure: boolean): string {
  return `${value}; Path=/; Expires=${expires}; HttpOnly${secure ? '; Secure' : ''}; SameSite=Lax`;
}

/** Reads one cookie from the header without a parser dependency. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
