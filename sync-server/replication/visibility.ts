import { isAcceptedOffer } from '../../shared/constants';
import { isDocumentId } from '../../shared/ids';
import { replicatesReviewTo } from '../../shared/reviews';
import type { Checkpoint, ReplicatedCollection, SyncDocument } from '../../shared/sync/protocol';
import { ownUserView, publicProfileView } from '../auth/users';
import type { CollectionName, DecisionReader, StoredDoc } from '../store/store';
import { hasPostedGig, linkedByApplication } from '../domain/links';
import { vouchFor } from '../store/documents';

export { isReplicated, REPLICATED, type ReplicatedCollection } from '../../shared/sync/protocol';

/** The document without the server's bookkeeping (`_seq`) and the fields `drop` names, in one copy. */
function withoutServerFields(doc: StoredDoc, drop: readonly string[] = []): SyncDocument {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(doc)) if (k !== '_seq' && !drop.includes(k)) out[k] = doc[k];
  // (Both are among the fields copied: assigning them types the view without moving them.)
  return Object.assign(out, { id: doc.id, _deleted: doc._deleted });
}

/**
 * Which shape of a stored document `userId` may see: their own user record, another user's public
 * profile, an application as its creator or its applicant sees it before an offer is accepted,
 * the document as every permitted reader sees it, or nothing. Tombstones follow the same rule as
 * the document. Readers given the same kind get the same view, so the change stream serializes
 * each document once per kind. Pull, the push answers and the change stream all go through it.
 */
export type ViewKind = 'own' | 'public' | 'shared' | 'creator' | 'applicant';

export function viewKindFor(
  store: DecisionReader,
  userId: string,
  collection: CollectionName,
  doc: StoredDoc,
): ViewKind | undefined {
  // A document whose id breaks the id rule (stored before the rule refused it) is shown to
  // nobody: a device would key it in a plain object and lose the batch it came in (decision 010).
  if (!isDocumentId(collection, doc.id)) return undefined;
  switch (collection) {
    case 'users':
      if (doc.id === userId) return 'own';
      // Another member's public profile (with their reputation): for the people an application
      // links them with, and for everyone once they have posted a gig (the board's order by buyer
      // rating and its "Posted by" link, decision 032). Who may see it only grows, and when it does
      // the application policy and the gig policy write the profile again.
      return hasPostedGig(store, doc.id) || linkedByApplication(store, userId, doc.id) ? 'public' : undefined;
    case 'gigs':
      return 'shared';
    case 'applications':
      if (doc.applicantId !== userId && doc.creatorId !== userId) return undefined;
      // The other side's contact email is shared only once both sides agreed to work together
      // (an accepted offer); before that anyone could harvest a creator's email by applying
      // (decision 003). Each side always sees its own.
      if (isAcceptedOffer(doc.status)) return 'shared';
      return doc.creatorId === userId ? 'creator' : 'applicant';
    case 'notifications':
      return doc.userId === userId ? 'shared' : undefined;
    case 'conversations':
      return Array.isArray(doc.participants) && doc.participants.includes(userId) ? 'shared' : undefined;
    case 'reviews':
      // The blind rule (shared/reviews.ts): an unpublished review reaches its author only.
      vouchFor('reviews', doc);
      return replicatesReviewTo(doc, userId) ? 'shared' : undefined;
    default:
      return undefined;
  }
}

/** The document shaped as a reader of that kind sees it. */
export function shapeView(kind: ViewKind, collection: CollectionName, doc: StoredDoc): SyncDocument {
  // (The id is the first field of both views: restating it keeps it there.)
  if (kind === 'own') return { ...ownUserView(doc), id: doc.id, _deleted: doc._deleted };
  if (kind === 'public') return { ...publicProfileView(doc), id: doc.id, _deleted: doc._deleted };
  if (kind === 'creator') return withoutServerFields(doc, ['applicantEmail']);
  if (kind === 'applicant') return withoutServerFields(doc, ['creatorEmail']);
  // A gig is public: its creator's email never travels with it (decision 003).
  return withoutServerFields(doc, collection === 'gigs' ? ['creatorEmail'] : []);
}

/**
 * The JSON of a 'shared' view, kept with the stored version it shows: a stored document is never
 * changed in place (a write stores a new object), so the board's gigs are serialized once for all
 * the devices that pull them, not once per pull. Held weakly: it goes with the version.
 */
const sharedJson = new WeakMap<StoredDoc, string>();

/** A view of the document as JSON (see `shapeView`). */
export function viewJson(kind: ViewKind, collection: CollectionName, doc: StoredDoc): string {
  if (kind !== 'shared') return JSON.stringify(shapeView(kind, collection, doc));
  let json = sharedJson.get(doc);
  if (json === undefined) {
    json = JSON.stringify(shapeView(kind, collection, doc));
    sharedJson.set(doc, json);
  }
  return json;
}

/**
 * A pull's answer (PullAnswer) or, with its collection, a stream's changes event (ChangesEvent) as
 * JSON, written by hand around documents already JSON (`viewJson`), so that each one's is shared.
 */
export function documentsJson(
  documents: readonly string[],
  checkpoint: Checkpoint,
  collection?: ReplicatedCollection,
): string {
  const head = collection === undefined ? '' : `"collection":${JSON.stringify(collection)},`;
  return `{${head}"documents":[${documents.join(',')}],"checkpoint":${JSON.stringify(checkpoint)}}`;
}

/** What `userId` may see of a stored document, shaped for them, or undefined when they may not see it at all. */
export function viewFor(
  store: DecisionReader,
  userId: string,
  collection: CollectionName,
  doc: StoredDoc,
): SyncDocument | undefined {
  const kind = viewKindFor(store, userId, collection, doc);
  return kind && shapeView(kind, collection, doc);
}
