import * as Y from 'yjs';
import { CHAT_MESSAGES_ARRAY, CHAT_STAMPS_MAP, orderChatMessages, type ChatDocMessage } from '../../shared/chat-doc';
import { conversationIdFor } from '../../shared/ids';
import type { Application } from '../../shared/schemas/application';
import type { AppContext } from '../context';
import { ledger } from '../payments/ledger';
import { applicationsIn } from '../payments/release';
import type { Stored } from '../store/store';

/** A settlement still without the provider's answer after this long is shown to operators. */
export const STUCK_AFTER_MS = 10 * 60_000;

/** How much of the conversation an operator sees with each dispute: the latest messages. */
export const CONVERSATION_SHOWN = 200;

export type Party = { id: string; name: string; email: string | null };

/** One open dispute (or refused payment) as the operators' page shows it (decision 031). */
export type DisputeView = {
  applicationId: string;
  status: Application['status'];
  gig: { id: string; title: string; category: string; deleted: boolean };
  buyer: Party;
  freelancer: Party;
  payment: { base: number; fee: number; total: number; currency: string; paidAt: number | null };
  submissions: NonNullable<Application['submissions']>;
  cancellation: Application['cancellation'] | null;
  dispute: Application['dispute'] | null;
  settlement: Application['settlement'] | null;
  conversation: { from: 'buyer' | 'freelancer'; content: string; at: number | null }[];
  /** The conversation had more messages than are shown. */
  conversationTruncated: boolean;
  updatedAt: number;
};

function party(ctx: AppContext, id: string, name: string): Party {
  const user = ctx.store.get('users', id);
  return { id, name: user?.name ?? name, email: typeof user?.email === 'string' ? user.email : null };
}

/** The two parties' messages, oldest first, from the conversation's chat log. */
async function conversationOf(
  ctx: AppContext,
  app: Stored<'applications'>,
): Promise<{ shown: DisputeView['conversation']; truncated: boolean }> {
  const room = conversationIdFor(app.creatorId, app.applicantId);
  await ctx.store.openChat(room);
  const updates = ctx.store.chatUpdates(room);
  if (updates.length === 0) return { shown: [], truncated: false };
  const doc = new Y.Doc();
  try {
    for (const update of updates) Y.applyUpdate(doc, update);
    const messages = doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY).toArray();
    const stamps = new Map(
      [...doc.getMap<number>(CHAT_STAMPS_MAP).entries()].filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
    const ordered = orderChatMessages(messages, stamps);
    return {
      shown: ordered.slice(-CONVERSATION_SHOWN).map((m) => ({
        from: m.senderId === app.creatorId ? 'buyer' : 'freelancer',
        content: m.content,
        at: m.timestamp,
      })),
      truncated: ordered.length > CONVERSATION_SHOWN,
    };
  } finally {
    doc.destroy();
  }
}

export async function disputeView(ctx: AppContext, app: Stored<'applications'>): Promise<DisputeView> {
  const gig = ctx.store.get('gigs', app.gigId);
  const charge = ledger.charge(ctx.store, app.id);
  const conversation = await conversationOf(ctx, app);
  return {
    applicationId: app.id,
    status: app.status,
    gig: {
      id: app.gigId,
      title: app.gigTitle,
      category: app.gigCategory,
      deleted: !gig || gig._deleted || app.gigDeleted === true,
    },
    buyer: party(ctx, app.creatorId, app.creatorName),
    freelancer: party(ctx, app.applicantId, app.applicantName),
    payment: {
      base: charge?.base ?? app.finalBudget ?? 0,
      fee: charge ? charge.amount - charge.base : 0,
      total: charge?.amount ?? 0,
      currency: app.currency,
      paidAt: charge?.paymentConfirmedAt ?? app.paymentConfirmedAt ?? null,
    },
    submissions: app.submissions ?? [],
    cancellation: app.cancellation ?? null,
    dispute: app.dispute ?? null,
    settlement: app.settlement ?? null,
    conversation: conversation.shown,
    conversationTruncated: conversation.truncated,
    updatedAt: app.updatedAt,
  };
}

/** Open disputes, oldest first, and payments the provider refused or left unanswered (to try again), for the operators' page. */
export async function operatorQueue(ctx: AppContext): Promise<{ disputes: DisputeView[]; failed: DisputeView[] }> {
  const byAge = (a: Stored<'applications'>, b: Stored<'applications'>) =>
    (a.dispute?.openedAt ?? a.updatedAt) - (b.dispute?.openedAt ?? b.updatedAt);
  const disputes = applicationsIn(ctx.store, 'DISPUTED').sort(byAge);
  // Refused payments, and settlements the provider has left unanswered for a while (decision 031).
  const stuck = applicationsIn(ctx.store, 'SETTLING').filter((a) => a.updatedAt <= ctx.now() - STUCK_AFTER_MS);
  const failed = [...applicationsIn(ctx.store, 'SETTLEMENT_FAILED'), ...stuck].sort(byAge);
  return {
    disputes: await Promise.all(disputes.map((a) => disputeView(ctx, a))),
    failed: await Promise.all(failed.map((a) => disputeView(ctx, a))),
  };
}
