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
    const answer = errorAnswer(err, log);
    if (answer.retryAfter !== undefined) res.setHeader('Retry-After', answer.retryAfter);
    res.status(answer.status).json(answer.body);
  };
}

export type ErrorAnswer = { status: number; body: { error: string } & Record<string, unknown>; retryAfter?: string };

/** What `errorHandler` answers for an error (for answers written outside Express too). */
export function errorAnswer(err: unknown, log: (msg: string, err: unknown) => void): ErrorAnswer {
  if (err instanceof HttpError) {
    const { retryAfterSeconds, ...extra } = err.extra;
    return {
      status: err.status,
      body: { error: err.message, ...extra },
      ...(err.status === 429 && typeof retryAfterSeconds === 'number' ? { retryAfter: String(retryAfterSeconds) } : {}),
    };
  }
  if (err instanceof StoreUnavailableError) {
    // The database is restarting or out of reach: nothing was written; the client tries again.
    return { status: 503, body: { error: err.message }, retryAfter: '2' };
  }
  const e = err as { status?: unknown; statusCode?: unknown; type?: unknown } | null | undefined;
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const message =
      e?.type === 'entity.too.large'
        ? 'Request body is too large'
        : e?.type === 'entity.parse.failed'
          ? 'Request body is not valid JSON'
          : e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported'
            ? 'Unsupported request encoding'
            : 'Bad request';
    return { status, body: { error: message } };
  }
  log('Unhandled error', err);
  return { status: 500, body: { error: 'Something went wrong on our side. Please try again.' } };
}
