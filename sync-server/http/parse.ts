import type { z } from 'zod';
import { badRequest } from './errors';

/**
 * Validates a request body against a strict schema. Anything that is not the expected shape
 * (wrong types, missing or extra fields, `__proto__` keys) is a 400 with a readable message.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object');
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    const message =
      issue.code === 'unrecognized_keys'
        ? `Unexpected field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
        : issue.code === 'invalid_type'
          ? `${where}expected ${issue.expected}`
          : `${where}${issue.message}`;
    throw badRequest(message);
  }
  return result.data;
}
