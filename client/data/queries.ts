import type { Application } from '../../shared/schemas/application';
import type { Conversation } from '../../shared/schemas/conversation';
import type { Gig } from '../../shared/schemas/gig';
import type { Notification } from '../../shared/schemas/notification';
import type { Review } from '../../shared/schemas/review';
import type { User } from '../../shared/schemas/user';
import { useEffect, useState } from 'react';
import type { ReplicatedName, SyncProblem } from './collections';
import { useData } from './data-provider';
import type { LocalName, Query } from './local-data';
import { useLive, type Live } from './use-live-query';

/**
 * The app's reads, each a live query named for what a screen shows. Screens call these and never
 * the database: a query written once here is the same on every screen that uses it.
 */

/** The signed-in user's own record. */
export function useMe(): Live<User | null> {
  const { local, userId } = useData();
  return useLive(() => local.observe('users', userId), [local, userId]);
}

/** Another user's record as this device has it (their public profile fields). */
export function useUser(id: string): Live<User | null> {
  const { local } = useData();
  return useLive(() => local.observe('users', id), [local, id]);
}

export function useGig(id: string): Live<Gig | null> {
  const { local } = useData();
  return useLive(() => local.observe('gigs', id), [local, id]);
}

export function useApplication(id: string): Live<Application | null> {
  const { local } = useData();
  return useLive(() => local.observe('applications', id), [local, id]);
}

/** Every application to one gig (this device holds those its user may see). */
export function useApplicationsForGig(gigId: string): Live<Application[]> {
  const { local } = useData();
  return useLive(() => local.observeAll('applications', { selector: { gigId } }), [local, gigId]);
}

/** The applications the signed-in user sent, as a freelancer. */
export function useMyApplications(): Live<Application[]> {
  const { local, userId } = useData();
  return useLive(() => local.observeAll('applications', { selector: { applicantId: userId } }), [local, userId]);
}

/** The applications to the signed-in user's gigs, as a buyer. */
export function useApplicationsToMe(): Live<Application[]> {
  const { local, userId } = useData();
  return useLive(() => local.observeAll('applications', { selector: { creatorId: userId } }), [local, userId]);
}

/** The applications linking two users, either way round (what lets them talk). */
export function applicationsBetween(userId: string, otherId: string): Query<'applications'> {
  return { selector: { $or: [{ applicantId: userId, creatorId: otherId }, { applicantId: otherId, creatorId: userId }] } };
}

/** The applications linking the signed-in user and another. */
export function useApplicationsWith(otherId: string): Live<Application[]> {
  const { local, userId } = useData();
  return useLive(() => local.observeAll('applications', applicationsBetween(userId, otherId)), [local, userId, otherId]);
}

/** The gigs the signed-in user posted, newest first. */
export function useMyGigs(): Live<Gig[]> {
  const { local, userId } = useData();
  return useLive(() => local.observeAll('gigs', { selector: { createdBy: userId }, sort: [{ createdAt: 'desc' }] }), [local, userId]);
}

/** Whether the signed-in user has posted a gig, and applied to one (the basket's first view). */
export function useBasketRoles(): { posted: boolean; applied: boolean; loading: boolean } {
  const { local, userId } = useData();
  const posted = useLive(() => local.observeAll('gigs', { selector: { createdBy: userId }, limit: 1 }), [local, userId]);
  const applied = useLive(() => local.observeAll('applications', { selector: { applicantId: userId }, limit: 1 }), [local, userId]);
  return {
    posted: (posted.data?.length ?? 0) > 0,
    applied: (applied.data?.length ?? 0) > 0,
    loading: posted.loading || applied.loading,
  };
}

/** The signed-in user's notifications, newest first. */
export function useNotifications(): Live<Notification[]> {
  const { local, userId } = useData();
  return useLive(() => local.observeAll('notifications', { selector: { userId }, sort: [{ createdAt: 'desc' }] }), [local, userId]);
}

/** Unread notifications: all of them, or those of one conversation. */
export function useUnreadNotifications(conversationId?: string): Live<Notification[]> {
  const { local } = useData();
  return useLive(
    () => local.observeAll('notifications', { selector: conversationId ? { conversationId, read: false } : { read: false } }),
    [local, conversationId],
  );
}

export function useConversation(id: string): Live<Conversation | null> {
  const { local } = useData();
  return useLive(() => local.observe('conversations', id), [local, id]);
}

export function useConversations(): Live<Conversation[]> {
  const { local } = useData();
  return useLive(() => local.observeAll('conversations'), [local]);
}

/** Writes the server refused, newest first, with their reasons and content. */
export function useSyncProblems(): Live<SyncProblem[]> {
  const { local } = useData();
  return useLive(() => local.observeAll('syncproblems', { sort: [{ createdAt: 'desc' }] }), [local]);
}

/** A change waiting to go out: the document as this device holds it (a deletion's last state too). */
export type WaitingChange = {
  key: string;
  collection: ReplicatedName;
  id: string;
  doc: Record<string, unknown> | undefined;
  deleted: boolean;
};

/** Every change waiting to go out (the outbox, shared by the tabs), oldest first, live. */
export function useWaitingChanges(): WaitingChange[] | undefined {
  const { local, outbox } = useData();
  const [changes, setChanges] = useState<WaitingChange[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let run = 0;
    const load = async () => {
      const mine = ++run;
      const entries = outbox.entries().flatMap((key) => {
        const at = key.indexOf(':');
        const collection = key.slice(0, at);
        return at > 0 && local.isReplicated(collection) ? [{ key, collection, id: key.slice(at + 1) }] : [];
      });
      const byCollection = new Map<ReplicatedName, string[]>();
      for (const e of entries) byCollection.set(e.collection, [...(byCollection.get(e.collection) ?? []), e.id]);
      const found = new Map<string, { doc: Record<string, unknown>; deleted: boolean }>();
      for (const [collection, ids] of byCollection)
        for (const [id, row] of await local.peek(collection, ids))
          found.set(`${collection}:${id}`, { doc: { ...row.doc }, deleted: row.deleted });
      if (live && mine === run)
        setChanges(
          entries.map((e) => ({ ...e, doc: found.get(e.key)?.doc, deleted: found.get(e.key)?.deleted ?? false })),
        );
    };
    void load();
    const off = outbox.subscribe(() => void load());
    return () => {
      live = false;
      off();
    };
  }, [local, outbox]);
  return changes;
}

/** How many documents of each collection this device holds; counted again when `refresh` changes. */
export function useLocalCounts(refresh: unknown): Partial<Record<LocalName, number>> | undefined {
  const { local } = useData();
  const [counts, setCounts] = useState<Partial<Record<LocalName, number>> | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void Promise.all(local.names().map(async (name) => [name, await local.count(name)] as const)).then(
      (pairs) => live && setCounts(Object.fromEntries(pairs)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [local, refresh]);
  return counts;
}

// --- Reviews and reputations (docs/decisions/032-reviews-and-profiles.md) ---------------------

/** The reviews of one piece of work this device holds: the user's own, and the other side's once published. */
export function useReviewsOf(applicationId: string): Live<Review[]> {
  const { local } = useData();
  return useLive(() => local.observeAll('reviews', { selector: { applicationId } }), [local, applicationId]);
}

/** Published reviews about a member that this device holds (those the signed-in user wrote or received). */
export function useReviewsAbout(userId: string): Live<Review[]> {
  const { local } = useData();
  return useLive(
    () => local.observeAll('reviews', { selector: { subjectId: userId, publishedAt: { $gt: 0 } } }),
    [local, userId],
  );
}

/** Whether the other side of this work has reviewed the signed-in user (REVIEW_RECEIVED), content unseen. */
export function useReviewWaiting(applicationId: string): Live<Notification[]> {
  const { local, userId } = useData();
  return useLive(
    () => local.observeAll('notifications', { selector: { userId, applicationId, type: 'REVIEW_RECEIVED' } }),
    [local, userId, applicationId],
  );
}

/**
 * Every other member whose public profile this device holds (people linked by an application, gig
 * creators): the board joins gigs with their creators' reputation as buyers.
 */
export function usePublicProfiles(): Live<User[]> {
  const { local } = useData();
  return useLive(() => local.observeAll('users'), [local]);
}
