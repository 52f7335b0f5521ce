import crypto from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { LIMITS } from '../../shared/constants';
import { newId } from '../../shared/ids';
import { sanitizeText } from '../../shared/text';
import { validateLogin } from '../../shared/validation/login';
import { normalizeEmail, validateSignup } from '../../shared/validation/signup';
import { firstError } from '../../shared/validation/types';
import type { AppContext } from '../context';
import { badRequest, conflict, forbidden, HttpError } from '../http/errors';
import { parseBody } from '../http/parse';
import { clientIp, getAuth } from './middleware';
import { isOperator, isOperatorEmail, OPERATOR_SIGNUP_REFUSED } from './operators';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import { clearedSessionCookie, createSession, revokeSession, sessionCookie } from './sessions';
import { readCurrent, type DecisionReader, type StoredDoc } from '../store/store';
import { newUserRecord, ownUserView } from './users';

const LOGIN_FAILED = 'Invalid email or password. Please try again.';
export const EMAIL_TAKEN = 'An account with this email already exists. Please log in instead.';

const signupBody = z.strictObject({
  name: z.string().max(LIMITS.nameMax, 'Name is too long').transform(sanitizeText),
  email: z.string().max(LIMITS.emailMax, 'Email is too long'),
  password: z.string().max(256, 'Password is too long'),
  confirmPassword: z.string().max(256, 'Password is too long'),
  termsAccepted: z.boolean(),
});

const loginBody = z.strictObject({
  email: z.string().max(LIMITS.emailMax, 'Email is too long'),
  password: z.string().max(256, 'Password is too long'),
});

export function authRoutes(ctx: AppContext): Router {
  const router = Router();
  const scryptParams = { logN: ctx.config.scryptLogN, r: 8, p: 1 };

  router.post('/signup', async (req, res) => {
    await ctx.limits.signupPerIp.hit(clientIp(req), 'Too many sign-ups from this network. Please try again later.');
    const body = parseBody(signupBody, req.body);
    const fields = validateSignup(body);
    const message = firstError(fields);
    if (message) throw badRequest(message, { fields });
    const email = normalizeEmail(body.email);
    // Nobody proves an email is theirs by typing it: operator accounts come from `npm run operator`.
    if (isOperatorEmail(ctx.config, email)) throw forbidden(OPERATOR_SIGNUP_REFUSED);
    const taken = (read: DecisionReader) => read.byIndex('credentials', 'email', email).some((c) => !c._deleted);
    if (await readCurrent(ctx.store, taken)) throw conflict(EMAIL_TAKEN);

    const passwordHash = await hashPassword(body.password, scryptParams);
    const now = ctx.now();
    const id = newId((n) => crypto.randomBytes(n));
    const user = newUserRecord({ id, name: body.name.trim(), email, now });
    // Checked again as one decision with the write: two sign-ups with one email, on any instances, cannot both pass.
    const { value: created } = await ctx.store.transaction((read) =>
      taken(read)
        ? { writes: [], value: false }
        : {
            writes: [
              { collection: 'users', doc: user },
              { collection: 'credentials', doc: { id, email, passwordHash, _deleted: false } },
            ],
            value: true,
          },
    );
    if (!created) throw conflict(EMAIL_TAKEN);
    const { token } = await createSession(ctx.store, id, now);
    res.append('Set-Cookie', sessionCookie(token, ctx.config.cookieSecure));
    res.status(201).json({ user: ownUserView(ctx.store.get('users', id)!) });
  });

  router.post('/login', async (req, res) => {
    const ip = clientIp(req);
    await ctx.limits.loginPerIp.hit(ip, 'Too many login attempts. Please try again later.');
    const body = parseBody(loginBody, req.body);
    const message = firstError(validateLogin(body));
    if (message) throw badRequest(message);
    const email = normalizeEmail(body.email);
    // Counted before the password is checked, maybe after a delay (login-guard.ts).
    const attempt = await ctx.limits.login.admit(email, ip);
    let user: StoredDoc | undefined;
    try {
      // An account made a moment ago on another instance is found too.
      const credentials = await readCurrent(ctx.store, (read) =>
        read.byIndex('credentials', 'email', email).find((c) => !c._deleted),
      );
      const ok = credentials
        ? await verifyPassword(body.password, credentials.passwordHash as string)
        : (await verifyPassword(body.password, await dummyPasswordHash(scryptParams)), false);
      const found = credentials && (await readCurrent(ctx.store, (read) => read.get('users', credentials.id)));
      if (ok && found && !found._deleted) user = found;
    } finally {
      if (user) attempt.succeeded();
      else attempt.failed();
    }
    if (!user) throw new HttpError(401, LOGIN_FAILED);
    // A new session id at every login: a planted cookie never becomes a signed-in session.
    const previous = getAuth(res);
    if (previous) await revokeSession(ctx.store, previous.session.id);
    const { token } = await createSession(ctx.store, user.id, ctx.now());
    res.append('Set-Cookie', sessionCookie(token, ctx.config.cookieSecure));
    res.json({ user: ownUserView(user), ...(isOperator(ctx, user) ? { operator: true } : {}) });
  });

  router.post('/logout', async (_req, res) => {
    const auth = getAuth(res);
    // Its streams and chat sockets close on every instance once the tombstone is durable (server.ts).
    if (auth) await revokeSession(ctx.store, auth.session.id);
    res.append('Set-Cookie', clearedSessionCookie(ctx.config.cookieSecure));
    res.json({ ok: true });
  });

  // The app's own check at start: a visitor is a normal state, answered 200 with no user (a 401
  // would be logged as an error by the browser on every public page).
  router.get('/me', (_req, res) => {
    const auth = getAuth(res);
    res.setHeader('Cache-Control', 'no-store');
    if (!auth) {
      res.json({ user: null });
      return;
    }
    // Operators (decision 031) are told so, for the link to their page; nobody else learns of it.
    res.json({ user: ownUserView(auth.user), ...(isOperator(ctx, auth.user) ? { operator: true } : {}) });
  });

  router.get('/session', (_req, res) => {
    const auth = getAuth(res);
    if (!auth) {
      res.status(401).json({ error: 'Not signed in' });
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    // Operators (decision 031) are told so, for the link to their page; nobody else learns of it.
    res.json({ user: ownUserView(auth.user), ...(isOperator(ctx, auth.user) ? { operator: true } : {}) });
  });

  return router;
}
