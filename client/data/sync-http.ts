import type { PushedDocument } from '../../shared/sync/protocol';
import { QUOTA_MESSAGES } from '../../shared/validation/quotas';
import { withTimeout } from '../lib/with-timeout';
import { LOCAL_FIELDS } from './collections';

/** A request to the sync server the server answered with an error status. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Retry-After, in seconds, when the server sent one. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

const RXDB_FIELDS = ['_meta', '_rev', '_attachments'];

/** A document as it goes out: without RxDB's bookkeeping and this device's local fields. */
export function clean(doc: object, collection: string): PushedDocument {
  const local = LOCAL_FIELDS[collection] ?? [];
  const out: PushedDocument = {};
  for (const [k, v] of Object.entries(doc)) if (!RXDB_FIELDS.includes(k) && !local.includes(k)) out[k] = v;
  return out;
}

/**
 * The longest a pull or a push may take, its answer read whole, before the device gives it up
 * and tries again (RxDB's retry). A request on a connection that died without closing would
 * otherwise never end, and its collection would pull or push nothing more until a reload: RxDB
 * runs one pull and one push per collection at a time. Generous for a 500-document page on a
 * slow link (about 100 kB compressed).
 */
export const SYNC_REQUEST_TIMEOUT_MS = 45_000;

/** A pull or a push that took longer than its time bound; nothing is known of its fate. */
export class SyncTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`The server did not answer within ${Math.round(ms / 1000)} s.`);
  }
}

export type SyncRequestOptions = {
  fetch: typeof fetch;
  baseUrl: string;
  headers?: () => Record<string, string>;
  /** The server could not be reached (a network failure, whatever navigator.onLine says). */
  onUnreachable(): void;
  /** The server answered (any status but a network failure). */
  onAnswer(): void;
  /** The server says the session is gone. */
  onUnauthorized(): void;
  /** The request's time bound, answer and body (default SYNC_REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
};

/**
 * A request to the sync server: its JSON answer, parsed by the caller with the protocol's schema.
 * Past its time bound it fails with SyncTimeoutError, whether or not aborting the fetch settles
 * what it was waiting for, and counts as the server out of reach.
 */
export async function syncRequest(
  options: SyncRequestOptions,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const ms = options.timeoutMs ?? SYNC_REQUEST_TIMEOUT_MS;
  const controller = new AbortController();
  return withTimeout(exchange(options, controller.signal, method, path, body), ms, () => {
    const err = new SyncTimeoutError(ms);
    controller.abort(err);
    options.onUnreachable();
    return err;
  });
}

async function exchange(
  options: SyncRequestOptions,
  signal: AbortSignal,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers?.() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await options.fetch(options.baseUrl + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    // Offline as far as this device can tell, whatever navigator.onLine says (it stays true on a
    // dead or captive link). A later answer, or the stream opening again, says online.
    options.onUnreachable();
    throw err;
  }
  options.onAnswer();
  if (res.status === 401) {
    options.onUnauthorized();
    throw new HttpStatusError(401, 'Your session has ended. Please log in again.');
  }
  if (res.status === 429) {
    const answer = (await res.json().catch(() => ({}))) as { error?: unknown };
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new HttpStatusError(
      429,
      typeof answer.error === 'string' ? answer.error : QUOTA_MESSAGES.tooManyChanges,
      Number.isFinite(retryAfter) ? retryAfter : undefined,
    );
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new HttpStatusError(res.status, text || `Sync request failed (${res.status})`);
  }
  const answer: unknown = await res.json();
  return answer;
}
