/**
 * Runs tasks one at a time per key (an application, a user, a webhook event), in arrival order.
 * Payment steps await the provider between reading the store and committing, so without this two
 * clicks could both see "not paid out yet". The provider's idempotency keys are the second guard,
 * and the one that still holds when several server instances run (docs/architecture.md).
 * A rebuildable cache, not state: an idle key holds nothing.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
