import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { forbidden, HttpError } from './errors';

/**
 * The security headers of an answer to a request: a content security policy that allows only what
 * the app loads, and helmet's other headers. The chat socket is the one connection to another
 * scheme: `connect-src` names its origin, the app's own host over ws: and wss: (see
 * `originPolicy`), never any host.
 *
 * The headers depend on the request only through that socket source, so they are computed once
 * per source (a handful: the app's names on its port, or 'self') and then copied onto each answer:
 * helmet rebuilt the whole set for every request, a tenth of a push's cost on the server.
 */
export function securityHeadersFor(options: {
  https: boolean;
  origins?: OriginPolicy;
}): (req: IncomingMessage) => readonly [string, string][] {
  const bySource = new Map<string, readonly [string, string][]>();
  return (req) => {
    const source = options.origins?.socketSources(req) ?? "'self'";
    let headers = bySource.get(source);
    if (!headers) {
      headers = headerList(options.https, source);
      // Sources come from a fixed list of names (see `originPolicy`); the bound is only a guard.
      if (bySource.size < 64) bySource.set(source, headers);
    }
    return headers;
  };
}

function helmetFor(https: boolean, socketSource: string) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://js.stripe.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", socketSource, 'https://api.stripe.com'],
        frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https,
    crossOriginEmbedderPolicy: false,
  });
}

/** The headers helmet sets for one socket source, as name/value pairs. */
function headerList(https: boolean, socketSource: string): [string, string][] {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  helmetFor(https, socketSource)(req, res, () => {});
  return res.getHeaderNames().map((name) => [name, String(res.getHeader(name))]);
}

/**
 * The headers `securityHeadersFor` gives, as name/value pairs, for answers written outside Express:
 * the chat socket's upgrade refusals are raw HTTP responses and need the same policy.
 */
export function securityHeaderList(options: { https: boolean }): [string, string][] {
  return headerList(options.https, "'self'");
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * `application/json`, in UTF-8 (RFC 8259) if a charset is named. Not `application/json-patch+json`
 * and the like, which the JSON parser would leave unread: routes that take no body would run anyway.
 */
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** Host names the app answers on when PUBLIC_ORIGIN is not set: this machine, and HOST when it names one. */
function localHostNames(listenHost: string | undefined): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (listenHost && listenHost !== '0.0.0.0' && listenHost !== '::')
    names.add(listenHost.includes(':') ? `[${listenHost}]` : listenHost.toLowerCase());
  return names;
}

/**
 * The scheme a request came in on: https on a TLS socket, or what a proxy on this machine says
 * (the first X-Forwarded-Proto, trusted from loopback only, as Express's `trust proxy` is set),
 * otherwise http. One rule for every path: Express's routes, the sync push's own path and the chat
 * socket's upgrade.
 */
export function requestProtocol(req: IncomingMessage): 'http' | 'https' {
  const own = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http';
  const remote = req.socket?.remoteAddress ?? '';
  if (!LOOPBACK.test(remote)) return own;
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim()
    .toLowerCase();
  return forwarded === 'https' || forwarded === 'http' ? forwarded : own;
}
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Where the app may be reached from. With PUBLIC_ORIGIN, that origin alone. Without it, the
 * request's own origin, but only when its Host header names this machine: localhost, 127.0.0.1,
 * [::1] or HOST, on the port the request came in on. Not any Host: a page on another site whose
 * name was made to resolve to this machine (DNS rebinding) would then count as the app.
 */
export type OriginPolicy = {
  /** The Host header names the app (always true with PUBLIC_ORIGIN: a proxy may rewrite it). */
  knownHost(req: IncomingMessage): boolean;
  /** The same for a raw Host header and the port the request came in on (the chat upgrade). */
  knownHostHeader(host: string | undefined, localPort: number | undefined): boolean;
  /** The origin a browser on the app sends. */
  allowsOrigin(origin: string, req: IncomingMessage): boolean;
  /** The chat socket's origins for `connect-src`: the app's host over ws: and wss: ('self' for an unknown host). */
  socketSources(req: IncomingMessage): string;
};

export function originPolicy(publicOrigin: string | undefined, listenHost: string | undefined): OriginPolicy {
  if (publicOrigin) {
    const url = new URL(publicOrigin);
    const socket = `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
    return {
      knownHost: () => true,
      knownHostHeader: () => true,
      allowsOrigin: (origin) => origin === url.origin,
      socketSources: () => socket,
    };
  }
  const names = localHostNames(listenHost);
  const hostOk = (host: string | undefined, port: number | undefined) => {
    if (!host || port === undefined) return false;
    const m = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d+))?$/i.exec(host);
    // No port named: the scheme's own (80 or 443).
    return (
      !!m &&
      names.has(m[1]!.toLowerCase()) &&
      (m[2] === undefined ? port === 80 || port === 443 : Number(m[2]) === port)
    );
  };
  return {
    knownHost: (req) => hostOk(req.headers.host, req.socket.localPort),
    knownHostHeader: hostOk,
    socketSources(req) {
      const host = req.headers?.host;
      return host && hostOk(host, req.socket?.localPort) ? `ws://${host} wss://${host}` : "'self'";
    },
    allowsOrigin(origin, req) {
      const host = req.headers.host;
      return hostOk(host, req.socket.localPort) && origin === `${requestProtocol(req)}://${host!.toLowerCase()}`;
    },
  };
}

/** API requests naming a host the app does not answer on are refused (see `originPolicy`). */
export function knownHostOnly(policy: OriginPolicy): RequestHandler {
  return (req, _res, next) => (policy.knownHost(req) ? next() : next(forbidden('Unknown host')));
}

/**
 * State-changing requests must come from the app itself: JSON only (a cross-site HTML form cannot
 * send it without a CORS preflight we never grant) and same-origin by Origin or Sec-Fetch-Site.
 * `exempt` is asked with the request's whole path (`/api/...`), wherever the check is mounted.
 */
export function sameOriginJsonOnly(policy: OriginPolicy, exempt: (path: string) => boolean): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || exempt(req.baseUrl + req.path)) return next();
    next(crossOriginRefusal(policy, req));
  };
}

/** Why a state-changing request is refused by `sameOriginJsonOnly`'s rule, or undefined if it is not. */
export function crossOriginRefusal(policy: OriginPolicy, req: IncomingMessage): HttpError | undefined {
  const { origin, 'sec-fetch-site': fetchSite } = req.headers;
  if (origin !== undefined && origin !== 'null') {
    if (!policy.allowsOrigin(origin, req)) return forbidden('Cross-origin requests are not allowed');
  } else if (fetchSite !== undefined) {
    if (fetchSite !== 'same-origin' && fetchSite !== 'none') return forbidden('Cross-origin requests are not allowed');
  } else {
    return forbidden('Cross-origin requests are not allowed');
  }
  const type = req.headers['content-type'] ?? '';
  const length = req.headers['content-length'];
  const hasBody = length !== undefined && length !== '0';
  if ((hasBody || req.headers['transfer-encoding']) && !JSON_TYPE.test(type)) {
    return new HttpError(415, 'Requests must be sent as JSON');
  }
  return undefined;
}
