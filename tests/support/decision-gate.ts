import type { Decision, DecisionReader, DocWrite, Store } from '../../sync-server/store/store';

/**
 * Holds the store decisions a test names until it lets each through, in the order it chooses: the
 * interleaving of requests racing on one document, under the test's control. A decision is named
 * by what it would write were it to run now (`name(writes)`, worked out on the store as it is:
 * decisions are pure functions of what they read, store.ts); every other decision, and a named one
 * once let through, runs as usual. Wraps the store's `transaction` and `transactions` until `close`.
 */
export type DecisionGate = {
  /** Resolves once a decision named `name` is held. */
  arrived(name: string): Promise<void>;
  /** Lets the decision named `name` through; resolves once it has committed (or refused). */
  release(name: string): Promise<void>;
  /** The names held and not let through yet. */
  holding(): string[];
  close(): void;
};

type Decide = (read: DecisionReader) => Decision<unknown>;

export function gateDecisions(store: Store, name: (writes: DocWrite[]) => string | undefined): DecisionGate {
  const transaction = store.transaction;
  const transactions = store.transactions;
  const passed = new WeakSet<Decide>();
  const held = new Map<string, { go: () => void; done: Promise<unknown>; released: boolean }>();
  const waiters = new Map<string, (() => void)[]>();

  const nameOf = (decides: Decide[]): string | undefined => {
    for (const decide of decides) {
      if (passed.has(decide)) continue;
      let writes: DocWrite[];
      try {
        writes = decide(store).writes;
      } catch {
        continue;
      }
      const found = name(writes);
      if (found) return found;
    }
    return undefined;
  };

  function hold<T>(label: string, decides: Decide[], run: () => Promise<T>): Promise<T> {
    if (held.has(label)) throw new Error(`decision gate: a second decision named ${label}`);
    let go!: () => void;
    const gate = new Promise<void>((resolve) => (go = resolve));
    const done = gate.then(() => {
      for (const d of decides) passed.add(d);
      return run();
    });
    held.set(label, { go, done, released: false });
    for (const wake of waiters.get(label) ?? []) wake();
    waiters.delete(label);
    return done;
  }

  store.transaction = function <T>(decide: (read: DecisionReader) => Decision<T>) {
    const label = nameOf([decide]);
    const run = () => transaction.call(store, decide) as Promise<{ value: T; seq: number }>;
    return label ? hold(label, [decide], run) : run();
  };
  store.transactions = function <T>(decides: ((read: DecisionReader) => Decision<T>)[]) {
    const label = nameOf(decides);
    const run = () => transactions.call(store, decides) as Promise<{ value: T; seq: number }[]>;
    return label ? hold(label, decides, run) : run();
  };

  return {
    arrived: (label) =>
      held.has(label)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.set(label, [...(waiters.get(label) ?? []), resolve])),
    release: async (label) => {
      const h = held.get(label);
      if (!h) throw new Error(`decision gate: nothing named ${label} is held`);
      h.released = true;
      h.go();
      await h.done.catch(() => undefined);
    },
    holding: () => [...held].filter(([, h]) => !h.released).map(([label]) => label),
    close: () => {
      store.transaction = transaction;
      store.transactions = transactions;
    },
  };
}
