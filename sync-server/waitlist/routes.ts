import crypto from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { LIMITS, WAITLIST_STATUS_PENDING } from '../../shared/constants';
import { newId } from '../../shared/ids';
import { sanitizeText } from '../../shared/text';
import { normalizeEmail } from '../../shared/validation/signup';
import { firstError } from '../../shared/validation/types';
import { validateWaitlist } from '../../shared/validation/waitlist';
import { clientIp } from '../auth/middleware';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { parseBody } from '../http/parse';

const waitlistBody = z.strictObject({
  name: z.string().max(LIMITS.nameMax, 'Name is too long').transform(sanitizeText),
  email: z.string().max(LIMITS.emailMax, 'Email is too long'),
  city: z.string().max(LIMITS.cityMax, 'City is too long').transform(sanitizeText),
  location: z.string().max(8),
});

/** POST /api/waitlist: public, rate limited, never replicated. A repeated email is a success without a second row. */
export function waitlistRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    await ctx.limits.waitlistPerIp.hit(clientIp(req), 'Too many sign-ups from this network. Please try again later.');
    const body = parseBody(waitlistBody, req.body);
    const fields = validateWaitlist(body);
    const message = firstError(fields);
    if (message) throw badRequest(message, { fields });
    const email = normalizeEmail(body.email);
    const entry = {
      id: newId((n) => crypto.randomBytes(n)),
      name: body.name.trim(),
      email,
      location: body.location,
      city: body.city.trim(),
      submittedAt: ctx.now(),
      status: WAITLIST_STATUS_PENDING,
      _deleted: false,
    };
    // One row per email, whichever instances two sign-ups land on.
    await ctx.store.transaction((read) => ({
      writes: read.byIndex('waitlist', 'email', email).some((e) => !e._deleted)
        ? []
        : [{ collection: 'waitlist', doc: entry }],
      value: undefined,
    }));
    res.status(201).json({ ok: true });
  });
  return router;
}
