import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context';
import { unauthorized } from '../http/errors';
import { readCurrent, type Stored } from '../store/store';
import { lookupSession, readCookie, SESSION_COOKIE, sessionCookie, type Session } from './sessions';

export type Auth = { session: Session; user: Stored<'users'> };

/** Attaches the signed-in user (if any) to the response locals. Never trusts anything but the cookie. */
export function loadSession(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    try {
      const { auth, cookie } = await authenticate(ctx, req.headers.cookie);
      if (auth) res.locals.auth = auth;
      if (cookie) res.append('Set-Cookie', cookie);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/**
 * The signed-in user a request's Cookie header names, if any, and the cookie to send back when the
 * session slid (or the browser would drop it 30 days after login).
 */
export async function authenticate(
  ctx: AppContext,
  cookieHeader: string | undefined,
): Promise<{ auth?: Auth; cookie?: string }> {
  const token = readCookie(cookieHeader, SESSION_COOKIE);
  const session = await lookupSession(ctx.store, token, ctx.now());
  if (!session) return {};
  const { renewed, ...live } = session;
  const user =
    ctx.store.get('users', live.userId) ?? (await readCurrent(ctx.store, (read) => read.get('users', live.userId)));
  if (!user || user._deleted) return {};
  return {
    auth: { session: live, user },
    ...(renewed ? { cookie: sessionCookie(token!, ctx.config.cookieSecure) } : {}),
  };
}

export function getAuth(res: Response): Auth | undefined {
  return res.locals.auth as Auth | undefined;
}

/** The signed-in user, or a 401 with a clear message. */
export function requireAuth(res: Response, message?: string): Auth {
  const auth = getAuth(res);
  if (!auth) throw unauthorized(message);
  return auth;
}

export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
