import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from '../auth/middleware';
import type { AppContext } from '../context';
import { badRequest, errorAnswer, unauthorized } from '../http/errors';
import { forbiddenKeysRefusal } from '../http/forbidden-keys';
import { crossOriginRefusal, type OriginPolicy } from '../http/security';
import { pushAnswer } from './routes';

/** The largest push body (a batch of 500 documents fits with room to spare), on either path. */
export const PUSH_BODY_LIMIT = 2 * 1024 * 1024;

/** `/api/sync/<collection>/push`, as the client sends it: lowercase, no query, nothing encoded. */
const PUSH_PATH = /^\/api\/sync\/([a-z]+)\/push$/;

export type PushPathOptions = {
  origins: OriginPolicy;
  /** The security headers every answer carries (`securityHeadersFor`). */
  headersFor: (req: IncomingMessage) => readonly [string, string][];
};

/**
 * A replication push served without Express: the hottest write of the app (every change a device
 * makes), whose cost per request was mostly Express's own (its router, its request and response
 * decoration, the body parser's stream handling), more than the push's validation and policy
 * (decision 008). Returns false, having touched nothing, for a request it does not take.
 *
 * It takes only a plain push, as the app's client sends it: the exact path, a known host, same
 * origin, a JSON body of a declared length within the limit, not compressed. Everything else,
 * refusals of those checks included, goes to Express, whose answers stay the reference. Once taken,
 * a request passes the same steps as on Express's route, in the same order, through the same
 * functions: the store's catch-up, the body (its size, JSON, forbidden keys and depth), the session
 * (a session that slid sends its cookie back), then `pushAnswer`; errors are answered by
 * `errorAnswer`, as Express's error handler answers them.
 */
export function syncPushPath(
  ctx: AppContext,
  options: PushPathOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const match = PUSH_PATH.exec(req.url ?? '');
    if (!match) return false;
    const length = Number(req.headers['content-length']);
    const encoding = req.headers['content-encoding'];
    if (
      !(length > 0 && length <= PUSH_BODY_LIMIT) ||
      req.headers['transfer-encoding'] !== undefined ||
      (encoding !== undefined && encoding.toLowerCase() !== 'identity') ||
      !options.origins.knownHost(req) ||
      crossOriginRefusal(options.origins, req) !== undefined
    )
      return false;

    // The answer's head is written in one call, every header at once (not one setHeader each).
    const security = options.headersFor(req);
    const extra: string[] = [];
    servePush(ctx, req, match[1]!, extra)
      .then(
        (text) => text !== undefined && answer(res, 200, text, security, extra),
        (err: unknown) => {
          const refusal = errorAnswer(err, ctx.log);
          if (refusal.retryAfter !== undefined) extra.push('Retry-After', refusal.retryAfter);
          answer(res, refusal.status, JSON.stringify(refusal.body), security, extra);
        },
      )
      .catch((err: unknown) => {
        // Writing the answer itself failed: nothing more can be said on this connection.
        ctx.log('Unhandled error', err);
        res.destroy();
      });
    return true;
  };
}

/** The push's answer as JSON text (undefined if the device went away mid-body); `extra` gets its headers. */
async function servePush(
  ctx: AppContext,
  req: IncomingMessage,
  collection: string,
  extra: string[],
): Promise<string | undefined> {
  // Every request reads what was committed before it arrived, on whichever instance (app.ts's guards).
  const [text] = await Promise.all([readBody(req), ctx.store.catchUp()]);
  if (text === undefined) return undefined; // the device went away mid-body: nobody to answer
  let body: unknown;
  try {
    // As the JSON body parser reads it: UTF-8, a byte order mark ignored, any JSON value.
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  const refusal = forbiddenKeysRefusal(body);
  if (refusal) throw refusal;
  const { auth, cookie } = await authenticate(ctx, req.headers.cookie);
  if (cookie) extra.push('Set-Cookie', cookie);
  if (!auth) throw unauthorized();
  return pushAnswer(ctx, auth, collection, body);
}

/** The request's body as text, or undefined if the request was aborted before its end. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', () => resolve(undefined));
    req.once('close', () => resolve(undefined)); // after 'end' when it came: settled already
  });
}

/** Writes the answer: the security headers, `extra`, the JSON text and its length; nothing once the connection is gone. */
function answer(
  res: ServerResponse,
  status: number,
  text: string,
  security: readonly [string, string][],
  extra: string[],
): void {
  if (res.headersSent || res.destroyed) return;
  const head: string[] = [];
  for (const [name, value] of security) head.push(name, value);
  head.push(
    ...extra,
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(text)),
  );
  res.writeHead(status, head);
  res.end(text);
}
