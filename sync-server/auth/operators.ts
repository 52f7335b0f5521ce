import type { Actor } from '../../shared/application-machine';
import type { Config } from '../config';
import type { DecisionReader, Stored } from '../store/store';

/**
 * Operators resolve disputes (decision 031). An account is one when both hold, read from the
 * store, never from anything a request says:
 * - its email is listed in OPERATOR_EMAILS (removing it there takes the role away), and
 * - its credentials carry the operator marker for that email, which only `npm run operator`
 *   writes (sync-server/auth/operator-accounts.ts): the web sign-up refuses listed emails and
 *   never verifies that an address belongs to whoever typed it, so an account that merely has
 *   the email (signed up before it was listed) is not an operator.
 */

export type OperatorCheck = { config: Pick<Config, 'operatorEmails'>; store: Pick<DecisionReader, 'get'> };

/** Whether `email` is one OPERATOR_EMAILS lists (compared as accounts store emails: trimmed, lower case). */
export function isOperatorEmail(config: Pick<Config, 'operatorEmails'>, email: unknown): boolean {
  const normal = normalEmail(email);
  return normal !== '' && config.operatorEmails.includes(normal);
}

const normalEmail = (email: unknown) => (typeof email === 'string' ? email.trim().toLowerCase() : '');

export function isOperator(ctx: OperatorCheck, user: { id: string; email?: unknown } | undefined): boolean {
  if (!user || !isOperatorEmail(ctx.config, user.email)) return false;
  const credentials = ctx.store.get('credentials', user.id);
  if (!credentials || credentials._deleted) return false;
  return credentials.operator?.email === normalEmail(user.email);
}

/** The signed-in user as the application machine sees them. */
export function actorOf(ctx: OperatorCheck, user: Stored<'users'>): Actor {
  return { id: user.id, name: user.name, ...(isOperator(ctx, user) ? { operator: true } : {}) };
}

/** What the web sign-up answers for an email OPERATOR_EMAILS lists (403). */
export const OPERATOR_SIGNUP_REFUSED =
  'This email is reserved for an operator of Creative Gigs. Operator accounts are created by the people who run the server, not by signing up.';
