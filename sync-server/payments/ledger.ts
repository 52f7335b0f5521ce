import type {
  ChargeEntry,
  CheckoutEntry,
  FeeEntry,
  LedgerEntry,
  RefundEntry,
  TransferEntry,
  WebhookEventEntry,
} from '../domain/records';
import type { DecisionReader, DocWrite } from '../store/store';

export type {
  ChargeEntry,
  CheckoutEntry,
  FeeEntry,
  LedgerEntry,
  RefundEntry,
  TransferEntry,
  WebhookEventEntry,
} from '../domain/records';

/**
 * The payments ledger: one document per checkout, charge, fee and transfer, with the provider's
 * ids and integer minor units, in the store's `ledger` collection (never replicated). Entries are
 * committed together with the application change they belong to, so the ledger and the status
 * never disagree. Ids are derived from what they record, so writing an entry twice is harmless.
 */

export const ledgerId = {
  checkout: (sessionId: string) => `checkout:${sessionId}`,
  charge: (applicationId: string) => `charge:${applicationId}`,
  buyerFee: (applicationId: string) => `buyer-fee:${applicationId}`,
  platformFee: (applicationId: string) => `platform-fee:${applicationId}`,
  transfer: (applicationId: string) => `transfer:${applicationId}`,
  refund: (applicationId: string) => `refund:${applicationId}`,
  webhookEvent: (eventId: string) => `event:${eventId}`,
};

/** A ledger entry as a store write. */
export function ledgerWrite(entry: LedgerEntry): DocWrite {
  return { collection: 'ledger', doc: { ...entry, _deleted: false } as DocWrite['doc'] };
}

/** The live ledger record with that id, if any. */
function live(store: DecisionReader, id: string) {
  const doc = store.get('ledger', id);
  return doc && !doc._deleted ? doc : undefined;
}

export const ledger = {
  checkout(store: DecisionReader, sessionId: string): CheckoutEntry | undefined {
    const doc = live(store, ledgerId.checkout(sessionId));
    return doc?.kind === 'checkout' ? doc : undefined;
  },
  charge(store: DecisionReader, applicationId: string): ChargeEntry | undefined {
    const doc = live(store, ledgerId.charge(applicationId));
    return doc?.kind === 'charge' ? doc : undefined;
  },
  transfer(store: DecisionReader, applicationId: string): TransferEntry | undefined {
    const doc = live(store, ledgerId.transfer(applicationId));
    return doc?.kind === 'transfer' ? doc : undefined;
  },
  refund(store: DecisionReader, applicationId: string): RefundEntry | undefined {
    const doc = live(store, ledgerId.refund(applicationId));
    return doc?.kind === 'refund' ? doc : undefined;
  },
  fee(store: DecisionReader, id: string): FeeEntry | undefined {
    const doc = live(store, id);
    return doc?.kind === 'buyer_fee' || doc?.kind === 'platform_fee' ? doc : undefined;
  },
  webhookEvent(store: DecisionReader, eventId: string): WebhookEventEntry | undefined {
    const doc = live(store, ledgerId.webhookEvent(eventId));
    return doc?.kind === 'webhook_event' ? doc : undefined;
  },

  /** Every checkout session made for an application, oldest first. */
  checkoutsOf(store: DecisionReader, applicationId: string): CheckoutEntry[] {
    return store
      .byIndex('ledger', 'applicationId', applicationId)
      .filter((d) => !d._deleted)
      .filter((d) => d.kind === 'checkout')
      .sort((a, b) => a.attempt - b.attempt);
  },

  /** Payouts held for a freelancer until their payout account can receive them. */
  heldFor(store: DecisionReader, freelancerId: string): TransferEntry[] {
    return store
      .byIndex('ledger', 'heldFor', freelancerId)
      .filter((d) => !d._deleted)
      .filter((d) => d.kind === 'transfer')
      .filter((d) => d.status === 'held');
  },
};

/**
 * One application's money as the ledger has it (decision 031): what the buyer was charged, what
 * went (or is held) for the freelancer, what was refunded, and what the platform keeps (its 10%
 * and the part of the buyer's fee not refunded). `held` is what is still on the platform waiting
 * for an outcome: 0 once the money is settled, so `charged = transferred + refunded + platformKept`.
 */
export function applicationBalance(
  store: DecisionReader,
  applicationId: string,
): { charged: number; transferred: number; refunded: number; platformKept: number; held: number } {
  const charged = ledger.charge(store, applicationId)?.amount ?? 0;
  // Sent, or held for the freelancer's payout account once the work is settled; before that a
  // transfer entry only records attempts (refused or unanswered), and nothing went.
  const transfer = ledger.transfer(store, applicationId);
  const status = store.get('applications', applicationId)?.status;
  const settled = status === 'COMPLETED' || status === 'SPLIT';
  const transferred = transfer && (transfer.status === 'sent' || settled) ? transfer.amount : 0;
  const refund = ledger.refund(store, applicationId);
  const refunded = refund?.status === 'sent' ? refund.amount : 0;
  const buyerFee = ledger.fee(store, ledgerId.buyerFee(applicationId))?.amount ?? 0;
  const platformFee = ledger.fee(store, ledgerId.platformFee(applicationId))?.amount ?? 0;
  const platformKept = platformFee + buyerFee - (refund?.status === 'sent' ? refund.fee : 0);
  return { charged, transferred, refunded, platformKept, held: charged - transferred - refunded - platformKept };
}
