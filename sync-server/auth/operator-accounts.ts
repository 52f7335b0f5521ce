import crypto from 'node:crypto';
import { newId } from '../../shared/ids';
import { sanitizeText } from '../../shared/text';
import { emailError, nameError, normalizeEmail, passwordError } from '../../shared/validation/signup';
import type { Config } from '../config';
import type { DocWrite, Store } from '../store/store';
import { isOperatorEmail } from './operators';
import { hashPassword } from './password';
import { newUserRecord } from './users';

/**
 * Operator accounts (decision 031, revised): made or confirmed by whoever runs the server, with
 * `npm run operator -- --email … --name …` (scripts/operator.ts), never by the web sign-up. The
 * command writes the operator marker on the account's credentials; `isOperator` needs it.
 *
 * An account that already has the email (it signed up before the email was listed) is taken
 * over, not trusted: it gets the new password and every one of its sessions ends, so only whoever
 * ran the command can sign in to it.
 */

export type OperatorAccountInput = { email: string; name?: string; password: string };
export type OperatorAccountResult = { userId: string; created: boolean; sessionsEnded: number };

/** Why the command made no account; its message is printed as it is. */
export class OperatorAccountRefused extends Error {}

/** A password that meets the sign-up rules, for when OPERATOR_PASSWORD is not set (printed once). */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  for (;;) {
    const bytes = crypto.randomBytes(20);
    const password = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    if (!passwordError(password)) return password;
  }
}

export async function makeOperatorAccount(
  store: Store,
  config: Pick<Config, 'operatorEmails' | 'scryptLogN'>,
  input: OperatorAccountInput,
  now: number,
): Promise<OperatorAccountResult> {
  const invalidEmail = emailError(input.email);
  if (invalidEmail) throw new OperatorAccountRefused(`--email: ${invalidEmail}`);
  const email = normalizeEmail(input.email);
  if (!isOperatorEmail(config, email))
    throw new OperatorAccountRefused(
      `${email} is not listed in OPERATOR_EMAILS. Add it to the server's OPERATOR_EMAILS (and to this command's environment), then run the command again.`,
    );
  const weak = passwordError(input.password);
  if (weak) throw new OperatorAccountRefused(`OPERATOR_PASSWORD: ${weak}`);
  const name = input.name === undefined ? undefined : sanitizeText(input.name).trim();
  if (name !== undefined && nameError(name)) throw new OperatorAccountRefused(`--name: ${nameError(name)}`);

  const passwordHash = await hashPassword(input.password, { logN: config.scryptLogN, r: 8, p: 1 });
  const marker = { email, confirmedAt: now };
  const fresh = newId((n) => crypto.randomBytes(n));
  const { value } = await store.transaction<OperatorAccountResult | 'name needed'>((read) => {
    const existing = read.byIndex('credentials', 'email', email).find((c) => !c._deleted);
    if (existing) {
      const sessions = read.byIndex('sessions', 'userId', existing.id).filter((s) => !s._deleted);
      const writes: DocWrite[] = [
        { collection: 'credentials', doc: { ...existing, passwordHash, operator: marker, _deleted: false } },
        ...sessions.map((s): DocWrite => ({ collection: 'sessions', doc: { ...s, _deleted: true } })),
      ];
      return { writes, value: { userId: existing.id, created: false, sessionsEnded: sessions.length } };
    }
    if (!name) return { writes: [], value: 'name needed' };
    const user = newUserRecord({ id: fresh, name, email, now });
    return {
      writes: [
        { collection: 'users', doc: user },
        { collection: 'credentials', doc: { id: fresh, email, passwordHash, operator: marker, _deleted: false } },
      ],
      value: { userId: fresh, created: true, sessionsEnded: 0 },
    };
  });
  if (value === 'name needed')
    throw new OperatorAccountRefused(`No account has the email ${email} yet: give its name with --name "…".`);
  return value;
}
