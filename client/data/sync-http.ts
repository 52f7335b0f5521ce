import type { PushedDocument } from '../../shared/sync/protocol';
import { QUOTA_MESSAGES } from '../../shared/validation/quotas';
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
};

/** A request to the sync server: its JSON answer, parsed by the caller with the protocol's schema. */
export async function syncRequest(
  options: SyncRequestOptions,
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
