import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';
import helmet from 'helmet';
import { forbidden, HttpError } from './errors';

/**
 * Security headers with a content security policy that allows only what the app loads. The chat
 * socket is the one connection to another scheme: `connect-src` names its origin, the app's own
 * host over ws: and wss: (see `originPolicy`), never any host.
 */
export function securityHeaders(options: { https: boolean; origins?: OriginPolicy }): RequestHandler {
  return helmetFor(options);
}

function helmetFor(options: { https: boolean; origins?: OriginPolicy }) {
  const socketSources = (req: IncomingMessage) => options.origins?.socketSources(req) ?? "'self'";
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
        connectSrc: ["'self'", socketSources, 'https://api.stripe.com'],
        frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.https,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * The headers `securityHeaders` sets, as name/value pairs, for answers written outside Express:
 * the chat socket's upgrade refusals are raw HTTP responses and need the same policy.
 */
export function securityHeaderList(options: { https: boolean }): [string, string][] {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  helmetFor(options)(req, res, () => {});
  return res.getHeaderNames().map((name) => [name, String(res.getHeader(name))]);
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
 * Where the app may be reached from. With PUBLIC_ORIGIN, that origin alone. Without it, the
 * request's own origin, but only when its Host header names this machine: localhost, 127.0.0.1,
 * [::1] or HOST, on the port the request came in on. Not any Host: a page on another site whose
 * name was made to resolve to this machine (DNS rebinding) would then count as the app.
 */
export type OriginPolicy = {
  /** The Host header names the app (always true with PUBLIC_ORIGIN: a proxy may rewrite it). */
  knownHost(req: Request): boolean;
  /** The same for a raw Host header and the port the request came in on (the chat upgrade). */
  knownHostHeader(host: string | undefined, localPort: number | undefined): boolean;
  /** The origin a browser on the app sends. */
  allowsOrigin(origin: string, req: Request): boolean;
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
    knownHost: (req) => hostOk(req.get('host'), req.socket.localPort),
    knownHostHeader: hostOk,
    socketSources(req) {
      const host = req.headers?.host;
      return host && hostOk(host, req.socket?.localPort) ? `ws://${host} wss://${host}` : "'self'";
    },
    allowsOrigin(origin, req) {
      const host = req.get('host');
      return hostOk(host, req.socket.localPort) && origin === `${req.protocol}://${host!.toLowerCase()}`;
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
 */
export function sameOriginJsonOnly(policy: OriginPolicy, exempt: (path: string) => boolean): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || exempt(req.path)) return next();
    const origin = req.get('origin');
    const fetchSite = req.get('sec-fetch-site');
    if (origin !== undefined && origin !== 'null') {
      if (!policy.allowsOrigin(origin, req)) return next(forbidden('Cross-origin requests are not allowed'));
    } else if (fetchSite !== undefined) {
      if (fetchSite !== 'same-origin' && fetchSite !== 'none')
        return next(forbidden('Cross-origin requests are not allowed'));
    } else {
      return next(forbidden('Cross-origin requests are not allowed'));
    }
    const type = req.get('content-type') ?? '';
    const hasBody = req.get('content-length') !== undefined && req.get('content-length') !== '0';
    if ((hasBody || req.get('transfer-encoding')) && !JSON_TYPE.test(type)) {
      return next(new HttpError(415, 'Requests must be sent as JSON'));
    }
    next();
  };
}
