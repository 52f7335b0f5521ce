/**
 * Runs tasks one at a time per key, in arrival order; a task that fails does not stop the next.
 * Used by the payments (per application, user, webhook event: their steps await the provider
 * between reading the store and committing, so without it two clicks could both see "not paid
 * out yet"; the provider's idempotency keys are the second guard, and the one that still holds
 * when several server instances run, docs/architecture.md) and by the PostgreSQL store (its
 * decisions that lost, run again one after another). A rebuildable cache, not state: an idle key
 * holds nothing.
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
