import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { forbidden, HttpError } from './errors';

/** Security headers with a content security policy that allows only what the app loads. */
export function securityHeaders(options: { https: boolean }): RequestHandler {
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
        connectSrc: ["'self'", 'ws:', 'wss:', 'https://api.stripe.com'],
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
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  securityHeaders(options)({} as Request, res as unknown as Response, () => {});
  return [...headers];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * `application/json`, in UTF-8 (RFC 8259) if a charset is named. Not `application/json-patch+json`
 * and the like, which the JSON parser would leave unread: routes that take no body would run anyway.
 */
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * State-changing requests must come from the app itself: JSON only (a cross-site HTML form cannot
 * send it without a CORS preflight we never grant) and same-origin by Origin or Sec-Fetch-Site.
 * `allowedOrigin` is PUBLIC_ORIGIN when configured; otherwise the request's own Host is the origin.
 */
export function sameOriginJsonOnly(allowedOrigin: string | undefined, exempt: (path: string) => boolean): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || exempt(req.path)) return next();
    const origin = req.get('origin');
    const fetchSite = req.get('sec-fetch-site');
    const expected = allowedOrigin ?? `${req.protocol}://${req.get('host')}`;
    if (origin !== undefined && origin !== 'null') {
      if (origin !== expected) return next(forbidden('Cross-origin requests are not allowed'));
    } else if (fetchSite !== undefined) {
      if (fetchSite !== 'same-origin' && fetchSite !== 'none') return next(forbidden('Cross-origin requests are not allowed'));
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
