/**
 * "Work offline" (the sync panel): while on, this device sends and fetches nothing, in any tab:
 * replication and the change stream pause, chat sockets close, and writes wait in the outbox, as
 * they would on a dead network. A tester queues writes on purpose this way, without DevTools. It
 * holds until it is turned off (a reload keeps it), per user on this device.
 */
export class WorkOffline {
  private value: boolean;
  private readonly listeners = new Set<(on: boolean) => void>();
  private readonly detach: () => void;

  constructor(private readonly key: string | null) {
    this.value = this.read();
    if (key && typeof window !== 'undefined') {
      const onStorage = (e: StorageEvent) => {
        if (e.key === key) this.changed(this.read());
      };
      window.addEventListener('storage', onStorage);
      this.detach = () => window.removeEventListener('storage', onStorage);
    } else {
      this.detach = () => {};
    }
  }

  get on(): boolean {
    return this.value;
  }

  set(on: boolean): void {
    if (this.key) {
      try {
        if (on) globalThis.localStorage?.setItem(this.key, '1');
        else globalThis.localStorage?.removeItem(this.key);
      } catch {
        // Storage unavailable: the switch holds for this tab only.
      }
    }
    this.changed(on);
  }

  subscribe(listener: (on: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  destroy(): void {
    this.detach();
    this.listeners.clear();
  }

  private read(): boolean {
    try {
      return this.key !== null && globalThis.localStorage?.getItem(this.key) === '1';
    } catch {
      return false;
    }
  }

  private changed(on: boolean): void {
    if (on === this.value) return;
    this.value = on;
    for (const l of this.listeners) l(on);
  }
}
