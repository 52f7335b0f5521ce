import { useEffect, useState } from 'react';
import type { Observable } from 'rxjs';

/** A live query's latest result: undefined while loading. */
export type Live<T> = {
  data: T | undefined;
  loading: boolean;
  error: Error | null;
  /** When `data` came (performance.now()): what it cannot hold yet, changes after it. */
  receivedAt?: number;
};

/**
 * Subscribes to a live RxDB query (any observable) and returns its latest result. Components read
 * data only through the hooks of queries.ts, built on this one: RxDB data is never copied into a
 * second store.
 */
export function useLive<T>(factory: () => Observable<T>, deps: unknown[]): Live<T> {
  const [state, setState] = useState<Live<T>>({ data: undefined, loading: true, error: null });
  useEffect(() => {
    setState((s) => ({ ...s, loading: true }));
    const sub = factory().subscribe({
      next: (data) => setState({ data, loading: false, error: null, receivedAt: performance.now() }),
      error: (error: unknown) => setState({ data: undefined, loading: false, error: error instanceof Error ? error : new Error(String(error)) }),
    });
    return () => sub.unsubscribe();
    // The caller lists the query's inputs in deps, and the lint rule checks each caller's list
    // (useLive is one of its additionalHooks).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}
