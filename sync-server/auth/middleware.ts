import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../context';
import { unauthorized } from '../http/errors';
import { readCurrent, type Stored } from '../store/store';
import { lookupSession, readCookie, SESSION_COOKIE, sessionCookieOptions, type Session } from './sessions';

export type Auth = { session: Session; user: Stored<'users'> };

/** Attaches the signed-in user (if any) to the response locals. Never trusts anything but the cookie. */
export function loadSession(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    try {
      const token = readCookie(req.get('cookie'), SESSION_COOKIE);
      const session = await lookupSession(ctx.store, token, ctx.now());
      if (session) {
        const { renewed, ...live } = session;
        const user =
          ctx.store.get('users', live.userId) ??
          (await readCurrent(ctx.store, (read) => read.get('users', live.userId)));
        if (user && !user._deleted) {
          res.locals.auth = { session: live, user } satisfies Auth;
          // The session slid: so does the cookie, or the browser would drop it 30 days after login.
          if (renewed) res.cookie(SESSION_COOKIE, token!, sessionCookieOptions(ctx.config.cookieSecure));
        }
      }
      next();
    } catch (err) {
      next(err);
    }
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
