import { isAcceptedOffer } from '../../shared/constants';
import { isDocumentId } from '../../shared/ids';
import { ownUserView, publicProfileView } from '../auth/users';
import type { CollectionName, Store, StoredDoc } from '../store/store';

export const REPLICATED = ['users', 'gigs', 'applications', 'notifications', 'conversations'] as const;
export type ReplicatedCollection = (typeof REPLICATED)[number];

export function isReplicated(name: string): name is ReplicatedCollection {
  return (REPLICATED as readonly string[]).includes(name);
}

/** True when an application links the two users (either may be the buyer). */
export function linkedByApplication(store: Store, a: string, b: string): boolean {
  return (
    store.byIndex('applications', 'applicantId', a).some((x) => x.creatorId === b) ||
    store.byIndex('applications', 'applicantId', b).some((x) => x.creatorId === a)
  );
}

function withoutServerFields(doc: StoredDoc, drop: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k === '_seq' || drop.includes(k)) continue;
    out[k] = v;
  }
  return out;
}

/**
 * The other side's contact email is shared only once both sides agreed to work together (an
 * accepted offer); before that anyone could harvest a creator's email by applying (decision 003).
 * Each side always sees its own.
 */
function applicationView(doc: StoredDoc, userId: string): Record<string, unknown> {
  if (isAcceptedOffer(doc.status)) return withoutServerFields(doc);
  return withoutServerFields(doc, [userId === doc.creatorId ? 'applicantEmail' : 'creatorEmail']);
}

/**
 * What `userId` may see of a stored document, shaped for them, or undefined when they may not see
 * it at all (ARCHITECTURE.md "Read filtering"). Tombstones follow the same rule as the document.
 * The one redaction: pull, the push answers and the change stream all serialize through it.
 */
export function viewFor(store: Store, userId: string, collection: CollectionName, doc: StoredDoc): Record<string, unknown> | undefined {
  // A document whose id breaks the id rule (stored before the rule refused it) is shown to
  // nobody: a device would key it in a plain object and lose the batch it came in (decision 010).
  if (!isDocumentId(collection, doc.id)) return undefined;
  switch (collection) {
    case 'users':
      if (doc.id === userId) return { ...ownUserView(doc), _deleted: doc._deleted };
      if (linkedByApplication(store, userId, doc.id)) return { ...publicProfileView(doc), _deleted: doc._deleted };
      return undefined;
    case 'gigs':
      // A gig is public: its creator's email never travels with it (decision 003).
      return withoutServerFields(doc, ['creatorEmail']);
    case 'applications':
      return doc.applicantId === userId || doc.creatorId === userId ? applicationView(doc, userId) : undefined;
    case 'notifications':
      return doc.userId === userId ? withoutServerFields(doc) : undefined;
    case 'conversations':
      return Array.isArray(doc.participants) && doc.participants.includes(userId) ? withoutServerFields(doc) : undefined;
    default:
      return undefined;
  }
}
