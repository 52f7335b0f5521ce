import { conversationIdFor } from '../../../../shared/ids';
import { gigDoc, randomId, uniqueEmail } from '../../fixtures';
import {
  applicantSendsMessage,
  buildWorld,
  freshGig,
  idOf,
  mustStore,
  stored,
  type Member,
  type World,
} from '../world';
import { Action, moveApplication, pushCell, pushDelete, pushEdit, selfOf } from '../cells';

/** The buyer's notifications as the server stores them. */
const buyersNotifications = (w: World) =>
  [...w.server.ctx.store.all('notifications')].filter((n) => n.userId === idOf(w, 'buyer'));

/** The matrix's cells for pushes to every collection, the state machine included. */
export const PUSHES_ACTIONS: Action[] = [
  // --- Pushes: users ----------------------------------------------------------------------------
  {
    name: 'push users: edit own profile (bio)',
    phase: 2,
    run: (w, r) => {
      const bio = `bio ${randomId()}`;
      return pushEdit(w, r, 'users', idOf(w, selfOf(r)), { bio }, (after) => after?.bio === bio);
    },
  },
  {
    name: "push users: edit the buyer's profile (bio)",
    phase: 2,
    run: (w, r) => {
      const bio = `bio ${randomId()}`;
      return pushEdit(w, r, 'users', idOf(w, 'buyer'), { bio }, (after) => after?.bio === bio);
    },
  },
  {
    name: 'push users: set own stripeAccountId',
    phase: 2,
    run: (w, r) => {
      const acct = `acct_sim_${randomId()}`;
      return pushEdit(
        w,
        r,
        'users',
        idOf(w, selfOf(r)),
        { stripeAccountId: acct, payoutStatus: 'active' },
        (after) => after?.stripeAccountId === acct,
      );
    },
  },
  {
    name: 'push users: change own email',
    phase: 2,
    run: (w, r) => {
      const email = uniqueEmail('changed');
      return pushEdit(w, r, 'users', idOf(w, selfOf(r)), { email }, (after) => after?.email === email);
    },
  },
  { name: 'push users: delete own account', phase: 2, run: (w, r) => pushDelete(w, r, 'users', idOf(w, selfOf(r))) },
  {
    name: 'push users: create a user record',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      return pushCell(w, r, 'users', { id, name: 'Made Up', email: uniqueEmail('made') }, null, () =>
        Boolean(stored(w, 'users', id)),
      );
    },
  },

  // --- Pushes: gigs -------------------------------------------------------------------------------
  {
    name: 'push gigs: create a gig',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      return pushCell(w, r, 'gigs', gigDoc({ id }), null, () => Boolean(stored(w, 'gigs', id)));
    },
  },
  {
    name: 'push gigs: create a gig in the buyer’s name (createdBy)',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      return pushCell(
        w,
        r,
        'gigs',
        gigDoc({ id, createdBy: idOf(w, 'buyer'), creatorName: 'Bea Buyer' }),
        null,
        () => stored(w, 'gigs', id)?.createdBy === idOf(w, 'buyer'),
      );
    },
  },
  {
    name: "push gigs: edit the buyer's gig (no offer accepted)",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING');
      const title = `Edited ${randomId().slice(0, 6)}`;
      return pushEdit(w, r, 'gigs', f.gigId, { title }, (after) => after?.title === title);
    },
  },
  {
    name: "push gigs: delete the buyer's gig (no work under way)",
    phase: 2,
    run: async (w, r) => pushDelete(w, r, 'gigs', (await freshGig(w, 'PENDING')).gigId),
  },
  {
    name: "push gigs: edit the buyer's gig once an offer was accepted",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING_PAYMENT');
      const title = `Edited ${randomId().slice(0, 6)}`;
      return pushEdit(w, r, 'gigs', f.gigId, { title }, (after) => after?.title === title);
    },
  },
  {
    name: "push gigs: delete the buyer's gig while work is under way",
    phase: 2,
    run: async (w, r) => pushDelete(w, r, 'gigs', (await freshGig(w, 'IN_PROGRESS_UNPAID')).gigId),
  },

  // --- Pushes: applications and the state machine (shared/application-machine.ts) ----------
  {
    name: 'push applications: send an offer (PENDING → PENDING_ACCEPTANCE)',
    phase: 2,
    run: moveApplication('PENDING', { status: 'PENDING_ACCEPTANCE', finalBudget: 30000 }, 'PENDING_ACCEPTANCE'),
  },
  {
    name: 'push applications: Start Working / accept (PENDING_ACCEPTANCE → PENDING_PAYMENT)',
    phase: 2,
    run: moveApplication('PENDING_ACCEPTANCE', { status: 'IN_PROGRESS' }, 'PENDING_PAYMENT'),
  },
  {
    name: 'push applications: decline (PENDING_ACCEPTANCE → REJECTED)',
    phase: 2,
    run: moveApplication('PENDING_ACCEPTANCE', { status: 'REJECTED' }, 'REJECTED'),
  },
  {
    name: 'push applications: confirm payment (PENDING_PAYMENT → IN_PROGRESS)',
    phase: 2,
    run: moveApplication('PENDING_PAYMENT', { status: 'IN_PROGRESS', paymentConfirmedAt: Date.now() }, 'IN_PROGRESS'),
  },
  {
    name: 'push applications: complete (IN_PROGRESS → COMPLETED)',
    phase: 2,
    run: moveApplication('IN_PROGRESS_UNPAID', { status: 'COMPLETED', completedAt: Date.now() }, 'COMPLETED'),
  },
  {
    name: 'push applications: change the amount of a sent offer',
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING_ACCEPTANCE');
      return pushEdit(w, r, 'applications', f.appId, { finalBudget: 1 }, (after) => after?.finalBudget === 1);
    },
  },
  {
    name: "push applications: change the applicant's offered budget",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING');
      return pushEdit(w, r, 'applications', f.appId, { budget: 1 }, (after) => after?.budget === 1);
    },
  },
  {
    name: 'push applications: reopen a declined application (REJECTED → PENDING)',
    phase: 2,
    run: moveApplication('REJECTED', { status: 'PENDING' }, 'PENDING'),
  },
  {
    name: 'push applications: delete an application',
    phase: 2,
    run: async (w, r) => pushDelete(w, r, 'applications', (await freshGig(w, 'PENDING')).appId),
  },

  // --- Pushes: notifications ----------------------------------------------------------------------
  {
    name: "push notifications: mark the buyer's notification read",
    phase: 2,
    run: async (w, r) => {
      const f = await freshGig(w, 'PENDING');
      const note = buyersNotifications(w).find((n) => n.applicationId === f.appId);
      if (!note) throw new Error('fixture: no new_application notification');
      return pushEdit(w, r, 'notifications', note.id, { read: true }, (after) => after?.read === true);
    },
  },
  {
    name: "push notifications: edit the buyer's notification text",
    phase: 2,
    run: async (w, r) => {
      const note = buyersNotifications(w).find((n) => !n._deleted)!;
      return pushEdit(
        w,
        r,
        'notifications',
        note.id,
        { message: 'Pay me now' },
        (after) => after?.message === 'Pay me now',
      );
    },
  },
  {
    name: "push notifications: delete the buyer's notification",
    phase: 2,
    run: async (w, r) => {
      const note = buyersNotifications(w).find((n) => !n._deleted)!;
      return pushDelete(w, r, 'notifications', note.id);
    },
  },
  {
    name: 'push notifications: create a notification for the buyer',
    phase: 2,
    run: (w, r) => {
      const id = randomId();
      const doc = {
        id,
        userId: idOf(w, 'buyer'),
        type: 'PAYMENT_CONFIRMED',
        message: 'Paid',
        read: false,
        createdAt: Date.now(),
      };
      return pushCell(w, r, 'notifications', doc, null, () => Boolean(stored(w, 'notifications', id)));
    },
  },

  // --- Pushes: conversations ----------------------------------------------------------------------
  {
    name: 'push conversations: start the buyer–applicant conversation',
    phase: 2,
    run: async (w, r) => {
      // The conversation id is fixed by the two users: a fresh world per cell, so each starts it anew.
      const fresh = await buildWorld(w.server, { conversation: false, payouts: false });
      const id = fresh.conversationId;
      return pushCell(
        fresh,
        r,
        'conversations',
        { id, participants: [idOf(fresh, 'buyer'), idOf(fresh, 'applicant')] },
        null,
        () => {
          const conv = fresh.server.ctx.store.get('conversations', id);
          return Boolean(conv && !conv._deleted);
        },
      );
    },
  },
  {
    name: 'push conversations: start one with a user no application links',
    phase: 2,
    run: (w, r) => {
      const partner: Record<Member, Member> = {
        stranger: 'buyer',
        buyer: 'stranger',
        applicant: 'otherApplicant',
        otherApplicant: 'applicant',
        operator: 'buyer',
      };
      const a = idOf(w, selfOf(r));
      const b = idOf(w, partner[selfOf(r)]);
      const id = conversationIdFor(a, b);
      return pushCell(w, r, 'conversations', { id, participants: [a, b] }, null, () =>
        Boolean(stored(w, 'conversations', id)),
      );
    },
  },
  {
    name: 'push conversations: start one with oneself',
    phase: 2,
    run: (w, r) => {
      const a = idOf(w, selfOf(r));
      const id = `${a}_${a}`;
      return pushCell(w, r, 'conversations', { id, participants: [a, a] }, null, () =>
        Boolean(stored(w, 'conversations', id)),
      );
    },
  },
  {
    name: 'push conversations: mark read (the applicant sent the last message)',
    phase: 2,
    run: async (w, r) => {
      await applicantSendsMessage(w);
      return pushEdit(
        w,
        r,
        'conversations',
        w.conversationId,
        { lastMessageRead: true },
        (after) => after?.lastMessageRead === true,
      );
    },
  },
  {
    name: 'push conversations: rewrite the last message',
    phase: 2,
    run: (w, r) =>
      pushEdit(
        w,
        r,
        'conversations',
        w.conversationId,
        { lastMessage: 'forged' },
        (after) => after?.lastMessage === 'forged',
      ),
  },
  {
    name: 'push conversations: add a third participant (with a read mark)',
    phase: 2,
    run: async (w, r) => {
      await applicantSendsMessage(w);
      const conv = mustStore(w, 'conversations', w.conversationId);
      const participants = [...(conv.participants as string[]), idOf(w, 'stranger')];
      return pushEdit(
        w,
        r,
        'conversations',
        w.conversationId,
        { participants, lastMessageRead: true },
        (after) => (after?.participants as string[]).length === 3,
      );
    },
  },
  {
    name: 'push conversations: delete the conversation',
    phase: 2,
    run: (w, r) => pushDelete(w, r, 'conversations', w.conversationId),
  },
];
