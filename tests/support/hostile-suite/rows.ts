import { conversationIdFor } from '../../../shared/ids';
import { type ReplicatedCollection } from '../../../sync-server/replication/visibility';
import { applicationDoc, gigDoc } from '../fixtures';
import { type RowContext } from '../hostile';
import { suite, type Doc } from './world';

// The endpoints
import { now } from './specs-common';

/** What each replicated collection's pushed rows may carry, for the hostile row generator. */
export function rowContexts(): Record<ReplicatedCollection, RowContext> {
  const { w } = suite;
  const {
    attacker,
    s3,
    vb,
    loner,
    gigV,
    gigV2,
    a1,
    a2,
    a3,
    mine,
    av,
    own,
    vbPublic,
    unread,
    victimNotification,
    victimRoom,
    ownConversation,
  } = w;
  const me = attacker.user.id;
  const update = (label: string, current: Doc, next: Doc) => () => ({
    label,
    row: { assumedMasterState: current, newDocumentState: next },
  });
  const create = (label: string, doc: Doc) => () => ({
    label,
    row: { assumedMasterState: null, newDocumentState: doc },
  });
  return {
    users: {
      valid: () => ({ ...own, bio: `Painter ${now()}` }),
      assumed: () => own,
      forbidden: [
        update("edit a linked user's profile", vbPublic, { ...vbPublic, bio: 'hacked' }),
        update(
          "edit an unlinked user's profile",
          { id: w.vs.user.id },
          { id: w.vs.user.id, name: 'hacked', updatedAt: now() },
        ),
        create('create a user', { id: `sockpuppet-${now()}`, name: 'Sock Puppet', updatedAt: now() }),
        update('delete the own account', own, { ...own, _deleted: true }),
        update('own profile without a name', own, { ...own, name: ' ' }),
      ],
    },
    gigs: {
      valid: () => gigDoc(),
      assumed: () => null,
      forbidden: [
        update("edit a victim's gig", gigV, { ...gigV, title: 'Hijacked' }),
        update("delete a victim's gig", gigV, { ...gigV, _deleted: true }),
        update('delete the own gig with paid work under way', w.gigA, { ...w.gigA, _deleted: true }),
        update('edit the own gig after an accepted offer', w.gigA, { ...w.gigA, title: 'Changed' }),
        create('a gig without a description', gigDoc({ description: ' ' })),
        create('a gig with a bad id', gigDoc({ id: 'a_b' })),
      ],
    },
    applications: {
      valid: () => applicationDoc(gigV2.id as string, me),
      assumed: () => null,
      forbidden: [
        ...(['IN_PROGRESS', 'COMPLETED', 'PENDING_PAYMENT'] as const).map((status) =>
          update(`move the own application to ${status}`, mine, { ...mine, status }),
        ),
        update('make oneself an offer', mine, { ...mine, status: 'PENDING_ACCEPTANCE', finalBudget: 99_999 }),
        update('decline without an offer', mine, { ...mine, status: 'REJECTED' }),
        update('raise the own budget', mine, { ...mine, budget: 99_999_999 }),
        update('start unpaid work', a1, { ...a1, status: 'IN_PROGRESS' }),
        update('complete by push', a2, { ...a2, status: 'COMPLETED' }),
        update('change an accepted offer', a1, { ...a1, finalBudget: 1 }),
        update('a negative offer', a3, { ...a3, status: 'PENDING_ACCEPTANCE', finalBudget: -5 }),
        update("move a victim's application", { id: av.id }, { ...av, status: 'REJECTED' }),
        update('delete an application', mine, { ...mine, _deleted: true }),
        // Issue 15: money moves only over HTTP; deliveries, disputes and cancellations by their rules.
        update('refund by push', a2, { ...a2, status: 'REFUNDED' }),
        update('claim the money by push', a2, { ...a2, status: 'SETTLING' }),
        update('a dispute without a reason', a2, {
          ...a2,
          status: 'DISPUTED',
          dispute: { by: 'buyer', reason: ' ', openedAt: 1 },
        }),
        update('cancel paid work for free', a2, { ...a2, status: 'CANCELLED' }),
        update('deliver as the buyer', a2, {
          ...a2,
          status: 'DELIVERED',
          submissions: [{ note: 'x', submittedAt: 1 }],
        }),
        update('deliver unpaid work', a1, { ...a1, status: 'DELIVERED', submissions: [{ note: 'x', submittedAt: 1 }] }),
        create('apply to the own gig', applicationDoc(w.gigA.id as string, me)),
        create('apply in another user’s name', {
          ...applicationDoc(gigV2.id as string, me),
          id: `${gigV2.id}.${w.vs.user.id}`,
        }),
        update('apply twice', mine, { ...applicationDoc(gigV.id as string, me), budget: 1 }),
      ],
    },
    notifications: {
      valid: () => ({ ...unread, read: true }),
      assumed: () => unread,
      forbidden: [
        update(
          "mark a victim's notification read",
          { id: victimNotification.id },
          { ...victimNotification, read: true },
        ),
        create('create a notification', {
          id: `n${now()}`,
          userId: vb.user.id,
          type: 'new_message',
          message: 'Click here',
          read: false,
          createdAt: now(),
          updatedAt: now(),
        }),
        update('delete a notification', unread, { ...unread, _deleted: true }),
        update('mark a notification unread', unread, { ...unread, read: false, message: 'changed' }),
      ],
    },
    conversations: {
      valid: () => ({
        id: conversationIdFor(me, s3.user.id),
        participants: [me, s3.user.id].sort(),
        lastMessageRead: true,
        updatedAt: now(),
      }),
      assumed: () => null,
      forbidden: [
        update(
          "read a victim's conversation",
          { id: victimRoom },
          { id: victimRoom, participants: victimRoom.split('_'), lastMessageRead: true },
        ),
        create('a conversation with an unlinked user', {
          id: conversationIdFor(me, loner.user.id),
          participants: [me, loner.user.id].sort(),
        }),
        create('a conversation with oneself', { id: `${me}_${me}`, participants: [me, me] }),
        create('a conversation under a wrong id', {
          id: `${s3.user.id}_${me}x`,
          participants: [me, s3.user.id].sort(),
        }),
        update('delete a conversation', ownConversation, { ...ownConversation, _deleted: true }),
      ],
    },
    reviews: {
      valid: () => ({
        id: `review-${now()}1`,
        applicationId: w.unreviewedWork,
        rating: 5,
        text: 'Generous with time and feedback; would work together again.',
      }),
      assumed: () => null,
      forbidden: [
        create('review the same work again', { ...w.ownReview, id: `again-${now()}1`, _deleted: false }),
        create("review a victim's work", {
          id: `victim-${now()}1`,
          applicationId: av.id,
          rating: 1,
          text: 'Never worked with them, but here goes.',
        }),
        create('review work before it is completed', {
          id: `early-${now()}1`,
          applicationId: a1.id,
          rating: 5,
          text: 'Not started yet, but surely wonderful.',
        }),
        update('edit the own published review', w.ownReview, { ...w.ownReview, rating: 1 }),
        update('delete the own review', w.ownReview, { ...w.ownReview, _deleted: true }),
        update('change the rating of a review about oneself', w.aboutMe, { ...w.aboutMe, rating: 5 }),
        update('reply twice', w.aboutMe, { ...w.aboutMe, reply: 'Second thoughts.' }),
        update('publish an own review early', w.waitingReview, { ...w.waitingReview, publishedAt: now() }),
        update('move the end of the own review’s window', w.waitingReview, {
          ...w.waitingReview,
          windowClosesAt: now() + 365 * 86_400_000,
        }),
        update('sign the own waiting review as someone else', w.waitingReview, {
          ...w.waitingReview,
          authorId: w.s6.user.id,
        }),
        update('point the own waiting review at another member', w.waitingReview, {
          ...w.waitingReview,
          subjectId: w.vb.user.id,
        }),
        update('delete the own waiting review', w.waitingReview, { ...w.waitingReview, _deleted: true }),
      ],
    },
  };
}
