import type { CurrencyCode } from '../../shared/constants';
import type { DocWrite, Store, StoredDoc } from '../store/store';

/**
 * The payments ledger: one document per checkout, charge, fee and transfer, with the provider's
 * ids and integer minor units, in the store's `ledger` collection (never replicated). Entries are
 * committed together with the application change they belong to, so the ledger and the status
 * never disagree. Ids are derived from what they record, so writing an entry twice is harmless.
 */

type Entry = { id: string; applicationId: string; createdAt: number; updatedAt: number };

export type CheckoutEntry = Entry & {
  kind: 'checkout';
  sessionId: string;
  buyerId: string;
  base: number;
  fee: number;
  total: number;
  currency: CurrencyCode;
  /** open → paid, or open → expired (then a new session is made with the next attempt number). */
  status: 'open' | 'paid' | 'expired';
  attempt: number;
  url: string;
  idempotencyKey: string;
};

export type ChargeEntry = Entry & {
  kind: 'charge';
  sessionId: string;
  paymentIntentId: string | null;
  chargeId: string | null;
  buyerId: string;
  /** What the buyer paid: base + buyer fee. */
  amount: number;
  base: number;
  currency: CurrencyCode;
  /** Which path confirmed it first: the success page, the webhook, or the simulated checkout. */
  confirmedBy: 'confirm' | 'webhook' | 'simulated';
  paymentConfirmedAt: number;
};

export type FeeEntry = Entry & { kind: 'buyer_fee' | 'platform_fee'; amount: number; currency: CurrencyCode };

export type TransferEntry = Entry & {
  kind: 'transfer';
  freelancerId: string;
  amount: number;
  currency: CurrencyCode;
  /** held: no payout account able to receive yet; sent: the provider accepted the transfer. */
  status: 'held' | 'sent';
  transferGroup: string;
  sourceTransaction: string | null;
  destination: string | null;
  transferId: string | null;
  /** Earlier attempts the provider refused outright; the next key carries this number. */
  refusedAttempts: number;
  lastError: string | null;
  sentAt: number | null;
};

export type WebhookEventEntry = {
  id: string;
  kind: 'webhook_event';
  eventId: string;
  type: string;
  createdAt: number;
  updatedAt: number;
};

export type LedgerEntry = CheckoutEntry | ChargeEntry | FeeEntry | TransferEntry | WebhookEventEntry;

export const ledgerId = {
  checkout: (sessionId: string) => `checkout:${sessionId}`,
  charge: (applicationId: string) => `charge:${applicationId}`,
  buyerFee: (applicationId: string) => `buyer-fee:${applicationId}`,
  platformFee: (applicationId: string) => `platform-fee:${applicationId}`,
  transfer: (applicationId: string) => `transfer:${applicationId}`,
  webhookEvent: (eventId: string) => `event:${eventId}`,
};

/** A ledger entry as a store write. */
export function ledgerWrite(entry: LedgerEntry): DocWrite {
  return { collection: 'ledger', doc: { ...entry, _deleted: false } as DocWrite['doc'] };
}

function entry<T extends LedgerEntry>(store: Store, id: string, kind: T['kind']): T | undefined {
  const doc = store.get('ledger', id);
  return doc && !doc._deleted && doc.kind === kind ? (doc as unknown as T) : undefined;
}

export const ledger = {
  checkout: (store: Store, sessionId: string) => entry<CheckoutEntry>(store, ledgerId.checkout(sessionId), 'checkout'),
  charge: (store: Store, applicationId: string) => entry<ChargeEntry>(store, ledgerId.charge(applicationId), 'charge'),
  transfer: (store: Store, applicationId: string) =>
    entry<TransferEntry>(store, ledgerId.transfer(applicationId), 'transfer'),
  webhookEvent: (store: Store, eventId: string) =>
    entry<WebhookEventEntry>(store, ledgerId.webhookEvent(eventId), 'webhook_event'),

  /** Every checkout session made for an application, oldest first. */
  checkoutsOf(store: Store, applicationId: string): CheckoutEntry[] {
    return store
      .byIndex('ledger', 'applicationId', applicationId)
      .filter((d: StoredDoc) => !d._deleted && d.kind === 'checkout')
      .map((d) => d as unknown as CheckoutEntry)
      .sort((a, b) => a.attempt - b.attempt);
  },

  /** Payouts held for a freelancer until their payout account can receive them. */
  heldFor(store: Store, freelancerId: string): TransferEntry[] {
    return store
      .byIndex('ledger', 'heldFor', freelancerId)
      .filter((d) => !d._deleted && d.kind === 'transfer' && d.status === 'held')
      .map((d) => d as unknown as TransferEntry);
  },
};
