import webPush from 'web-push';
import type { PushSubscriptionRecord } from './records';
import type { VapidKeys } from './vapid';

/** How long a push waits at the push service for a device that is offline (RFC 8030 TTL). */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Whether `endpoint` belongs to one of the push services the server may send to. The server POSTs
 * to whatever endpoint a device registered, so an endpoint is never trusted by its shape alone:
 * only the configured origins (https, or a local http one a test names) are accepted.
 */
export function isAllowedEndpoint(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return origins.some((allowed) => {
    const wildcard = /^(https?:)\/\/\*\.(.+)$/.exec(allowed);
    if (!wildcard) return url.origin === allowed.toLowerCase();
    const [, protocol, domain] = wildcard;
    return url.protocol === protocol && url.port === '' && url.hostname.endsWith(`.${domain!.toLowerCase()}`);
  });
}

export type DeliveryOutcome =
  | { kind: 'sent' }
  /**
   * The subscription will never take a push from this server: 404/410 (it expired or the device
   * unsubscribed), or 401/403 (the push service refuses this server's VAPID signature for it: the
   * device subscribed with another key, RFC 8292 §4.2).
   */
  | { kind: 'gone'; status: number }
  /** 429 or 5xx, or no answer: worth another try after `retryAfterMs`. */
  | { kind: 'retry'; retryAfterMs?: number; detail: string }
  /** Anything else the push service refused (a bad request, a key it rejects). */
  | { kind: 'failed'; detail: string };

/**
 * Sends one push: the payload encrypted for the device (RFC 8291, aes128gcm) with a VAPID
 * signature (RFC 8292), both made by `web-push`; the request goes out with fetch, so it follows the
 * endpoint's scheme and carries a timeout.
 */
export async function deliverPush(
  subscription: Pick<PushSubscriptionRecord, 'endpoint' | 'p256dh' | 'auth'>,
  payload: string,
  vapid: VapidKeys & { subject: string },
  options: { urgency: 'normal' | 'high'; topic?: string; fetch?: typeof fetch },
): Promise<DeliveryOutcome> {
  const details = webPush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payload,
    {
      vapidDetails: vapid,
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      urgency: options.urgency,
      ...(options.topic ? { topic: options.topic } : {}),
    },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers))
    if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(details.endpoint, {
      method: details.method,
      headers,
      body: details.body ? new Uint8Array(details.body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
  } catch (err) {
    return { kind: 'retry', detail: err instanceof Error ? err.message : String(err) };
  }
  if (res.status >= 200 && res.status < 300) return { kind: 'sent' };
  if ([401, 403, 404, 410].includes(res.status)) return { kind: 'gone', status: res.status };
  if (res.status === 429 || res.status >= 500) {
    const seconds = Number(res.headers.get('retry-after'));
    return {
      kind: 'retry',
      detail: `push service answered ${res.status}`,
      ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {}),
    };
  }
  return { kind: 'failed', detail: `push service answered ${res.status}` };
}
