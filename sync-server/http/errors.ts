import type { ErrorRequestHandler } from 'express';
import { StoreUnavailableError } from '../store/store';

/** An error meant for the client: its message is shown as is, with this status code. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const unauthorized = (message = 'Please log in to continue') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { retryAfterSeconds });

/**
 * The one place errors become HTTP answers: `{ error }` with the right status, never a stack trace.
 * Errors raised by body parsing (bad JSON, too large) carry a status of their own.
 */
export function errorHandler(log: (msg: string, err: unknown) => void): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof HttpError) {
      if (err.status === 429 && typeof err.extra.retryAfterSeconds === 'number') {
        res.setHeader('Retry-After', String(err.extra.retryAfterSeconds));
      }
      const { retryAfterSeconds: _r, ...extra } = err.extra;
      res.status(err.status).json({ error: err.message, ...extra });
      return;
    }
    if (err instanceof StoreUnavailableError) {
      // The database is restarting or out of reach: nothing was written; the client tries again.
      res.setHeader('Retry-After', '2');
      res.status(503).json({ error: err.message });
      return;
    }
    const status =
      typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message =
        err?.type === 'entity.too.large'
          ? 'Request body is too large'
          : err?.type === 'entity.parse.failed'
            ? 'Request body is not valid JSON'
            : err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported'
              ? 'Unsupported request encoding'
              : 'Bad request';
      res.status(status).json({ error: message });
      return;
    }
    log('Unhandled error', err);
    res.status(500).json({ error: 'Something went wrong on our side. Please try again.' });
  };
}
