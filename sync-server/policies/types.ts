import type { ReplicatedCollection } from '../../shared/sync/protocol';
import type { WorkSettings } from '../../shared/work-machine';
import type { DecisionReader, DocWrite, Stored } from '../store/store';

/**
 * A pushed document as the push shape (replication/push.ts) lets it through: the collection's
 * fields, each optional (the policy decides what is required), user text sanitised.
 */
export type Incoming<K extends ReplicatedCollection> = Partial<Stored<K>>;

export type PolicyInput<K extends ReplicatedCollection> = {
  /** What the policy may read: the store, or, in a decision, the decision's reader. */
  read: DecisionReader;
  /** The signed-in user's stored record, read in the decision (what a policy writes back of it is current). */
  actor: Stored<'users'>;
  /** The server's current document with that id, if any (tombstones included). */
  current: Stored<K> | undefined;
  /** The pushed document without RxDB's bookkeeping fields, checked against the collection's shape. */
  incoming: Incoming<K>;
  /** The push deletes the document. */
  deleting: boolean;
  now: number;
  /** The machine's settings (AUTO_RELEASE_DAYS), for the moves that set a release date. */
  settings?: WorkSettings;
};

export type PolicyResult = { ok: true; writes: DocWrite[] } | { ok: false; reason: string };

/** Who may write what to one collection, the fields the server sets, and the side effects. */
export type Policy<K extends ReplicatedCollection> = (input: PolicyInput<K>) => PolicyResult;

export const refuse = (reason: string): PolicyResult => ({ ok: false, reason });
