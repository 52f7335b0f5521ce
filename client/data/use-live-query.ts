import { useEffect, useState } from 'react';
import type { Observable } from 'rxjs';

/**
 * Subscribes to a live RxDB query (any observable) and returns its latest result. Components read
 * data only through hooks like this one: RxDB data is never copied into a second store.
 */
export function useLive<T>(factory: () => Observable<T>, deps: unknown[]): { data: T | undefined; loading: boolean; error: Error | null } {
  const [state, setState] = useState<{ data: T | undefined; loading: boolean; error: Error | null }>({ data: undefined, loading: true, error: null });
  useEffect(() => {
    setState((s) => ({ ...s, loading: true }));
    const sub = factory().subscribe({
      next: (data) => setState({ data, loading: false, error: null }),
      error: (error: unknown) => setState({ data: undefined, loading: false, error: error instanceof Error ? error : new Error(String(error)) }),
    });
    return () => sub.unsubscribe();
    // The caller lists the query's inputs in deps.
  }, deps);
  return state;
}
