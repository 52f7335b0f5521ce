/**
 * Which local changes still wait to go out: each write the app makes is tracked by
 * `collection:id` until the server has answered a push of that document. Persisted, so the count
 * survives an offline reload.
 */
export type OutboxPersistence = { load(): string[]; save(keys: string[]): void };

export class Outbox {
  private keys: Set<string>;
  private listeners = new Set<(count: number) => void>();

  constructor(private readonly persistence?: OutboxPersistence) {
    this.keys = new Set(persistence?.load() ?? []);
  }

  get count(): number {
    return this.keys.size;
  }

  has(collection: string, id: string): boolean {
    return this.keys.has(`${collection}:${id}`);
  }

  track(collection: string, id: string): void {
    this.keys.add(`${collection}:${id}`);
    this.changed();
  }

  settle(collection: string, ids: string[]): void {
    let any = false;
    for (const id of ids) any = this.keys.delete(`${collection}:${id}`) || any;
    if (any) this.changed();
  }

  subscribe(listener: (count: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.persistence?.save([...this.keys]);
    for (const l of this.listeners) l(this.keys.size);
  }
}

export function localStorageOutbox(key: string): OutboxPersistence {
  return {
    load() {
      try {
        const raw = globalThis.localStorage?.getItem(key);
        return raw ? (JSON.parse(raw) as string[]) : [];
      } catch {
        return [];
      }
    },
    save(keys) {
      try {
        globalThis.localStorage?.setItem(key, JSON.stringify(keys));
      } catch {
        // Storage full or unavailable: the count is then only kept for this page's life.
      }
    },
  };
}
