/**
 * Which local changes still wait to go out: each write the app makes is tracked by
 * `collection:id` until the server has taken a push of that document, or answered it with a
 * conflict the device then resolved to the server's version (`resolved`). Persisted, so the count
 * survives an offline reload, and shared by the tabs of a browser: a write made in one tab is
 * pushed by the tab that replicates, which settles it for all (each change re-reads the stored
 * list first, and a `storage` event tells the other tabs).
 */
export type OutboxPersistence = {
  load(): string[];
  save(keys: string[]): void;
  /** Called when another tab changed the stored list. */
  watch?(onChange: () => void): () => void;
};

export class Outbox {
  private keys: Set<string>;
  private listeners = new Set<(count: number) => void>();
  /** This tab's writes tracked and not yet stored, by key: a push's answer cannot have seen them. */
  private writing = new Map<string, number>();
  /**
   * Keys counted only for this tab's writes in flight, with nothing stored waiting to go out: the
   * key was not counted before them, or a push's answer settled what was stored meanwhile. If
   * those writes all fail, nothing is left to send.
   */
  private onlyInFlight = new Set<string>();
  private readonly unwatch: () => void;

  constructor(private readonly persistence?: OutboxPersistence) {
    this.keys = new Set(persistence?.load() ?? []);
    this.unwatch =
      persistence?.watch?.(() => {
        const before = [...this.keys].join('\n');
        this.keys = new Set(persistence.load());
        if ([...this.keys].join('\n') !== before) this.notify();
      }) ?? (() => {});
  }

  get count(): number {
    return this.keys.size;
  }

  /** The waiting changes as `collection:id`, oldest first. */
  entries(): string[] {
    return [...this.keys];
  }

  has(collection: string, id: string): boolean {
    return this.keys.has(`${collection}:${id}`);
  }

  /** A write of this document is about to be made (`written` follows it, whatever its outcome). */
  track(collection: string, id: string): void {
    this.reload();
    const key = `${collection}:${id}`;
    if (!this.keys.has(key)) this.onlyInFlight.add(key);
    this.keys.add(key);
    this.writing.set(key, (this.writing.get(key) ?? 0) + 1);
    this.changed();
  }

  /**
   * The server has taken what was pushed of these documents, and the device holds nothing newer
   * of them (the caller compared). A write of one that this tab tracked but has not stored yet is
   * newer than any push: its document stays counted once it is stored, for its own push to settle,
   * and is settled after all if the write fails.
   */
  settle(collection: string, ids: string[]): void {
    this.reload();
    let any = false;
    for (const id of ids) {
      const key = `${collection}:${id}`;
      if (this.writing.has(key)) this.onlyInFlight.add(key);
      else {
        this.onlyInFlight.delete(key);
        any = this.keys.delete(key) || any;
      }
    }
    if (any) this.changed();
  }

  /**
   * The server answered a push of this document with a conflict, and the device resolved it. A
   * resolution that takes the server's version leaves nothing of this device's to send; one that
   * goes out again (the user's change merged onto the server's version) still waits, for the
   * answer to that push. Until resolved, a conflicted change stays counted: a logout waiting for
   * the count to reach 0 would otherwise delete a merge not yet sent.
   */
  resolved(collection: string, id: string, goesOutAgain: boolean): void {
    if (!goesOutAgain) this.settle(collection, [id]);
  }

  /**
   * A tracked change's write ended (`stored` false: it failed). It is tracked before the write (so
   * a push that answers at once always finds it), and what the listeners read of it is only there now.
   */
  written(collection: string, id: string, stored = true): void {
    const key = `${collection}:${id}`;
    const tracked = this.writing.has(key);
    const left = (this.writing.get(key) ?? 1) - 1;
    if (left > 0) this.writing.set(key, left);
    else this.writing.delete(key);
    // A stored version waits to go out: its own push settles it. Counted again if a push's answer
    // settled the document in the tab that replicates (which cannot see this tab's writes in
    // flight) between this write's start and its storing. A write that failed changed nothing, so
    // when nothing stored was waiting before it, nothing is now.
    if (stored) {
      this.onlyInFlight.delete(key);
      this.reload();
      if (tracked && !this.keys.has(key)) {
        this.keys.add(key);
        return this.changed();
      }
    } else if (left <= 0 && this.onlyInFlight.has(key)) return this.settle(collection, [id]);
    if (this.keys.has(key)) this.notify();
  }

  /**
   * Forgets every waiting change (the device's data was deleted), and the writes in flight: one
   * that ends after this counts nothing again.
   */
  clear(): void {
    this.keys.clear();
    this.writing.clear();
    this.onlyInFlight.clear();
    this.changed();
  }

  subscribe(listener: (count: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The data is closed: a write in flight that ends after this counts nothing again. */
  destroy(): void {
    this.unwatch();
    this.listeners.clear();
    this.writing.clear();
  }

  private reload(): void {
    if (this.persistence?.watch) this.keys = new Set(this.persistence.load());
  }

  private changed(): void {
    this.persistence?.save([...this.keys]);
    this.notify();
  }

  private notify(): void {
    for (const l of this.listeners) l(this.keys.size);
  }
}

export function localStorageOutbox(key: string): OutboxPersistence {
  return {
    load() {
      try {
        const raw = globalThis.localStorage?.getItem(key);
        const keys: unknown = raw ? JSON.parse(raw) : [];
        return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
      } catch {
        return [];
      }
    },
    save(keys) {
      try {
        if (keys.length) globalThis.localStorage?.setItem(key, JSON.stringify(keys));
        else globalThis.localStorage?.removeItem(key);
      } catch {
        // Storage full or unavailable: the count is then only kept for this page's life.
      }
    },
    watch(onChange) {
      if (typeof window === 'undefined') return () => {};
      const onStorage = (e: StorageEvent) => {
        if (e.key === key || e.key === null) onChange();
      };
      window.addEventListener('storage', onStorage);
      return () => window.removeEventListener('storage', onStorage);
    },
  };
}
