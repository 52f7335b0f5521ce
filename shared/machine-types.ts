import {
  APPLICATION_STATUSES,
  STATUS_ALIASES,
  type ApplicationStatus,
  type CurrencyCode,
  type NotificationType,
} from './constants';
import type { Application } from './schemas/application';

/**
 * What the application machine's parts share (shared/application-machine.ts for hiring and
 * completion, shared/work-machine.ts for delivery, cancellation, disputes and settlement).
 */

export type NotificationDraft = {
  userId: string;
  type: NotificationType;
  message: string;
  senderId?: string;
  senderName?: string;
  recipientName?: string;
  gigId?: string;
  gigTitle?: string;
  applicationId?: string;
  conversationId?: string;
  finalBudget?: number;
  currency?: CurrencyCode;
  amount?: number;
};

/**
 * Who moves an application. `operator` is set by the server for operators (accounts listed in
 * OPERATOR_EMAILS that `npm run operator` made or confirmed), `system` for the server's own moves
 * (automatic release, the provider's answers); a device never sets either for the server, which
 * judges every move again.
 */
export type Actor = { id: string; name: string; operator?: boolean; system?: boolean };
export type GigRef = { id: string; createdBy: string; title: string };

/** The server acting on its own (a timer, the payment provider's answer). */
export const SYSTEM_ACTOR: Actor = { id: '', name: 'Creative Gigs', system: true };

export type TransitionResult =
  | { ok: true; changes: Partial<Application>; notifications: NotificationDraft[] }
  | { ok: false; error: string; code: 'forbidden' | 'invalid' };

export const refuse = (error: string, code: 'forbidden' | 'invalid' = 'invalid'): TransitionResult => ({
  ok: false,
  error,
  code,
});

/** SELECTED is read as PENDING_ACCEPTANCE (docs/product.md §10). */
export function normalizeStatus(status: string): ApplicationStatus | undefined {
  const s = STATUS_ALIASES[status] ?? status;
  return (APPLICATION_STATUSES as readonly string[]).includes(s) ? (s as ApplicationStatus) : undefined;
}
