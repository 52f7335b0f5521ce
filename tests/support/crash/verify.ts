import type { ApplicationStatus } from '../../../shared/constants';
import { applicationSchema } from '../../../shared/schemas/application';
import { conversationSchema } from '../../../shared/schemas/conversation';
import { gigSchema } from '../../../shared/schemas/gig';
import { notificationSchema } from '../../../shared/schemas/notification';
import { userSchema } from '../../../shared/schemas/user';
import type { CollectionName, Store, StoredDoc } from '../../../sync-server/store/store';
import { storedRoom } from '../yjs-client';
import { AT_OR_AFTER, type Ledger } from './ledger';

const SHAPES = {
  users: userSchema,
  gigs: gigSchema,
  applications: applicationSchema,
  notifications: notificationSchema,
  conversations: conversationSchema,
} as const;

/** Notifications a status implies, each written in the same commit as the move that set it (docs/product.md §4). */
function expectedNotices(app: StoredDoc): Record<string, number> {
  const status = app.status as ApplicationStatus;
  const paid = (app.finalBudget as number | null) !== null && (app.finalBudget as number) > 0;
  // The writers send offers only to plain applications, so a closed one never had an offer.
  const offered = status !== 'PENDING' && status !== 'CLOSED';
  return {
    new_application: 1,
    application_status: status === 'CLOSED' ? 1 : 0,
    FINAL_BUDGET_OFFER: offered ? 1 : 0,
    OFFER_REJECTED: status === 'REJECTED' ? 1 : 0,
    payment_needed: status === 'PENDING_PAYMENT' || (paid && app.paymentConfirmedAt) ? 1 : 0,
    GIG_STARTED: (status === 'IN_PROGRESS' || status === 'COMPLETED') && !paid ? 1 : 0,
  };
}

/**
 * Everything the ledger says was acknowledged is in the store, and nothing is half-written: every
 * document is whole, every application carries exactly the notifications its moves wrote with it,
 * a deleted gig and its applications changed together, and every stamped chat message is in its
 * room with its stamp and the conversation record that goes with it. Returns the problems found.
 */
export function verifyStore(store: Store, ledger: Ledger, options: { records?: boolean } = {}): string[] {
  const problems: string[] = [];
  const live = (c: CollectionName, id: string): StoredDoc | undefined => store.get(c, id);

  for (const [name, schema] of Object.entries(SHAPES) as [
    keyof typeof SHAPES,
    (typeof SHAPES)[keyof typeof SHAPES],
  ][]) {
    for (const doc of store.all(name)) {
      const parsed = schema.safeParse(doc);
      if (!parsed.success)
        problems.push(
          `${name} ${doc.id} is not whole: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
        );
    }
  }

  for (const [id, email] of ledger.signups) {
    if (!live('users', id)) problems.push(`acknowledged sign-up ${id} lost`);
    if (!store.byIndex('credentials', 'email', email).some((c) => c.id === id))
      problems.push(`acknowledged sign-up ${id} has no credentials`);
  }

  for (const [id, acked] of ledger.gigs) {
    const gig = live('gigs', id);
    if (!gig) {
      problems.push(`acknowledged gig ${id} lost`);
      continue;
    }
    if ((gig.updatedAt as number) < acked.updatedAt) problems.push(`gig ${id} is older than its acknowledged edit`);
    else if (gig.updatedAt === acked.updatedAt && gig.title !== acked.title)
      problems.push(`gig ${id} has another title at the acknowledged version`);
    if (acked.deleted && !gig._deleted) problems.push(`gig ${id} was acknowledged deleted but is not`);
  }

  for (const [id, acked] of ledger.applications) {
    const app = live('applications', id);
    if (!app) problems.push(`acknowledged application ${id} lost`);
    else if (!AT_OR_AFTER[acked.status].includes(app.status as ApplicationStatus)) {
      problems.push(`application ${id} is ${String(app.status)}, behind its acknowledged ${acked.status}`);
    }
  }

  for (const [id, acked] of ledger.bios) {
    const user = live('users', id);
    if (!user || (user.updatedAt as number) < acked.updatedAt)
      problems.push(`user ${id} lost an acknowledged bio edit`);
    else if (user.updatedAt === acked.updatedAt && user.bio !== acked.bio)
      problems.push(`user ${id} has another bio at the acknowledged version`);
  }

  for (const id of ledger.read)
    if (live('notifications', id)?.read !== true) problems.push(`notification ${id} lost its acknowledged read mark`);

  // Side effects written in the same commit as their cause.
  const notices = new Map<string, Record<string, number>>();
  for (const n of store.all('notifications')) {
    if (typeof n.applicationId !== 'string') continue;
    const counts = notices.get(n.applicationId) ?? {};
    counts[n.type as string] = (counts[n.type as string] ?? 0) + 1;
    notices.set(n.applicationId, counts);
  }
  for (const app of store.all('applications')) {
    const found = notices.get(app.id) ?? {};
    for (const [type, count] of Object.entries(expectedNotices(app))) {
      if ((found[type] ?? 0) !== count)
        problems.push(
          `application ${app.id} (${String(app.status)}) has ${found[type] ?? 0} ${type} notifications, not ${count}`,
        );
    }
    const gig = store.get('gigs', app.gigId as string);
    if (Boolean(gig?._deleted) !== Boolean(app.gigDeleted))
      problems.push(`application ${app.id} and its gig disagree on the gig's deletion`);
  }

  for (const [room, acked] of ledger.chat) {
    const loaded = storedRoom(store.chatUpdates(room));
    const byId = new Map<string, number>();
    for (const m of loaded.messages) byId.set(m.id, (byId.get(m.id) ?? 0) + 1);
    for (const [id, content] of acked) {
      const m = loaded.messages.find((x) => x.id === id);
      if (!m) problems.push(`stamped message ${id} lost from ${room}`);
      else if (m.content !== content) problems.push(`stamped message ${id} in ${room} changed`);
      if (!loaded.stamps.has(id)) problems.push(`stamped message ${id} in ${room} lost its stamp`);
    }
    for (const [id, n] of byId) if (n > 1) problems.push(`message ${id} appears ${n} times in ${room}`);
  }
  if (options.records !== false) problems.push(...recordProblems(store, ledger));

  // Everything loaded is durable, and appears once in the change feed.
  const feed = store.changesSince(0, Infinity);
  const seen = new Set<string>();
  for (const c of feed) {
    const key = `${c.collection}/${c.doc.id}`;
    if (seen.has(key)) problems.push(`${key} appears twice in the change feed`);
    seen.add(key);
  }
  return problems;
}

/**
 * Every room's conversation record names the room's newest stamped message. The embedded store
 * writes a decision's entries and their record in one journal sync, so this holds the moment a
 * server dies; on PostgreSQL they are two transactions, and a record an instance did not get to
 * write is written by the instance holding the room or the next one to load it (decision 023).
 */
export function recordProblems(store: Store, ledger: Ledger): string[] {
  const problems: string[] = [];
  for (const room of ledger.chat.keys()) {
    const newest = Math.max(-1, ...storedRoom(store.chatUpdates(room)).stamps.values());
    if (newest < 0) continue;
    const conversation = store.get('conversations', room);
    if (!conversation) problems.push(`room ${room} has stamped messages but no conversation record`);
    else if (conversation.lastMessageTimestamp !== newest) {
      problems.push(
        `conversation ${room} says its last message is at ${String(conversation.lastMessageTimestamp)}, the room's newest stamp is ${newest}`,
      );
    }
  }
  return problems;
}
