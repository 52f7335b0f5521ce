/** The one place the client talks JSON to the server: same-origin cookies, `{ error }` surfaced as ApiError. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * A request that never got an answer (offline, DNS, connection refused, a dropped connection).
 * `offline` is the browser's own word for it: only then do the screens say "You are offline";
 * a server that cannot be reached while the browser is online is a failure like any other.
 */
export class NetworkError extends Error {
  readonly offline = typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** True when a request failed because the browser is offline. */
export function isOffline(err: unknown): boolean {
  return err instanceof NetworkError && err.offline;
}

export async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new NetworkError(
      offline
        ? 'You appear to be offline. Please check your connection and try again.'
        : 'The server could not be reached. Please try again.',
    );
  }
  const data: unknown = await res.json().catch(() => ({}));
  if (!res.ok) {
    const { error, fields } = (typeof data === 'object' && data !== null ? data : {}) as {
      error?: unknown;
      fields?: Record<string, string>;
    };
    throw new ApiError(res.status, typeof error === 'string' ? error : `Request failed (${res.status})`, fields);
  }
  return data as T;
}
