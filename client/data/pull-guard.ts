import { isDocumentOf, type ReplicatedCollection, type SyncDocumentOf } from '../../shared/sync/protocol';

/**
 * Guards between the server's answers and RxDB's storage of them (decision 010).
 *
 * RxDB's replication keys a pulled batch by document id in plain objects: an id such as
 * `toString` resolves to the built-in member, the batch's write throws and the whole batch is
 * lost. And RxDB keeps pulling after a batch it failed to store: the next batch's checkpoint is
 * saved, so the lost documents are never asked for again. The server no longer accepts or serves
 * such ids; these guards keep a device whole against any server, and any storage failure.
 */

/** Splits pulled documents into those this device can store and those whose id it must refuse. */
export function storable<K extends ReplicatedCollection>(collection: K, documents: readonly unknown[]): { keep: SyncDocumentOf<K>[]; refused: number } {
  const keep = documents.filter((d): d is SyncDocumentOf<K> => isDocumentOf(collection, d));
  return { keep, refused: documents.length - keep.length };
}

/**
 * Whether an error RxDB reports came from storing on this device, not from a request to the
 * server: request failures carry the direction of the handler that threw (and are retried by
 * RxDB); a failed write of a pulled batch does not.
 */
export function isStoreFailure(error: unknown): boolean {
  const e = error as { code?: unknown; parameters?: { direction?: unknown } } | null;
  if (e?.parameters?.direction === 'pull' || e?.parameters?.direction === 'push') return false;
  return e?.code !== 'RC_PUSH_NO_AR' && e?.code !== 'RC_START';
}

export type RewindPersistence = { load(): string[]; save(collections: string[]): void };

/**
 * Collections whose pulled data must be fetched again from the start, because a batch failed to
 * be stored and RxDB may have saved a later checkpoint. Persisted: a reload before the
 * collection was pulled whole again must still pull it whole.
 */
export class PullRewinds {
  private pending: Set<string>;
  /** Collections whose next pull starts from the beginning (the rewind not yet applied). */
  private due: Set<string>;
  /** Store failures since the collection's rewind was applied: the rewind holds until a clean pass. */
  private failures = new Map<string, number>();

  constructor(private readonly persistence?: RewindPersistence) {
    this.pending = new Set(persistence?.load() ?? []);
    this.due = new Set(this.pending);
  }

  get any(): boolean {
    return this.pending.size > 0;
  }

  /** A batch of `collection` failed to be stored. */
  failed(collection: string): void {
    this.pending.add(collection);
    this.due.add(collection);
    this.failures.set(collection, (this.failures.get(collection) ?? 0) + 1);
    this.persistence?.save([...this.pending]);
  }

  /** Whether the next pull of `collection` must start from the beginning (true once per failure). */
  takeDue(collection: string): boolean {
    return this.due.delete(collection);
  }

  /** A token for `settled`: the failures seen so far. */
  mark(collection: string): number {
    return this.failures.get(collection) ?? 0;
  }

  /** Everything pulled since `mark` is stored: the rewind is done unless another failure came. */
  settled(collection: string, mark: number): void {
    if (!this.pending.has(collection) || this.due.has(collection) || (this.failures.get(collection) ?? 0) !== mark) return;
    this.pending.delete(collection);
    this.persistence?.save([...this.pending]);
  }
}

export function localStorageRewinds(key: string): RewindPersistence {
  return {
    load() {
      try {
        const raw = globalThis.localStorage?.getItem(key);
        const parsed: unknown = raw ? JSON.parse(raw) : [];
        return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
      } catch {
        return [];
      }
    },
    save(collections) {
      try {
        if (collections.length) globalThis.localStorage?.setItem(key, JSON.stringify(collections));
        else globalThis.localStorage?.removeItem(key);
      } catch {
        // Storage unavailable: the rewind then holds for this page's life only.
      }
    },
  };
}
