import type { Application } from '../../shared/schemas/application';
import type { Conversation } from '../../shared/schemas/conversation';
import type { Gig } from '../../shared/schemas/gig';
import type { Notification } from '../../shared/schemas/notification';
import type { Review } from '../../shared/schemas/review';
import type { Portfolio, User } from '../../shared/schemas/user';
import type { Credentials, LedgerRecord, Session, WaitlistEntry } from '../domain/records';
import type { PushSendRecord, PushSubscriptionRecord } from '../push/records';

/**
 * What each collection of the store holds: the shared document types for what devices replicate
 * (with the fields only the server keeps), the server's own records for the rest. Reads are typed
 * by it (`store.get('applications', id)` is an application); every document in the store was
 * written by a policy or a server module that checked it, which is what lets reads trust the type.
 */
export type DocumentTypes = {
  users: User;
  portfolios: Portfolio;
  /** The creator's email stays on the server (decision 003). */
  gigs: Gig & { creatorEmail?: string };
  applications: Application;
  notifications: Notification;
  conversations: Conversation;
  reviews: Review;
  /** Who holds each username (sync-server/reviews/usernames.ts): the id is `username:` and its key. */
  usernames: { id: string; userId: string };
  credentials: Credentials;
  sessions: Session;
  waitlist: WaitlistEntry;
  ledger: LedgerRecord;
  /** Web push: each device's subscription, and the claim on each notification's push (push/records.ts). */
  pushsubscriptions: PushSubscriptionRecord;
  pushsends: PushSendRecord;
  /** The store's own bookkeeping (e.g. the payments mode a folder was started with). */
  meta: { id: string; [field: string]: unknown };
};

/** A stored document: its type, the sequence of its last write, and its deletion flag (tombstone). */
export type Stored<K extends keyof DocumentTypes> = DocumentTypes[K] & { id: string; _seq: number; _deleted: boolean };

/**
 * The store vouches for its documents: what it hands out was written through the modules that
 * check each collection's documents, so a read is its collection's type. The one place that says
 * so, for every implementation's reads (a document, a list, or an iterable of them).
 */
export function vouchFor<K extends keyof DocumentTypes>(_collection: K, _doc: object): asserts _doc is Stored<K> {}
export function vouchForList<K extends keyof DocumentTypes>(
  _collection: K,
  _docs: object[],
): asserts _docs is Stored<K>[] {}
export function vouchForAll<K extends keyof DocumentTypes>(
  _collection: K,
  _docs: Iterable<object>,
): asserts _docs is Iterable<Stored<K>> {}
