import type { Actor } from '../../shared/application-machine';
import type { Config } from '../config';
import type { Stored } from '../store/store';

/**
 * Operators are the accounts whose email OPERATOR_EMAILS lists (decision 031): they resolve
 * disputes. Decided from the stored account, never from anything a request says.
 */
export function isOperator(config: Pick<Config, 'operatorEmails'>, user: { email?: unknown } | undefined): boolean {
  const email = typeof user?.email === 'string' ? user.email.trim().toLowerCase() : '';
  return email !== '' && config.operatorEmails.includes(email);
}

/** The signed-in user as the application machine sees them. */
export function actorOf(config: Pick<Config, 'operatorEmails'>, user: Stored<'users'>): Actor {
  return { id: user.id, name: user.name, ...(isOperator(config, user) ? { operator: true } : {}) };
}
