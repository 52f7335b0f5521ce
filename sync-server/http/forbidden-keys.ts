import type { RequestHandler } from 'express';
import { badRequest, type HttpError } from './errors';

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_NODES = 200_000;
/**
 * No request of the app nests deeper than a push (rows → row → document → array field → value).
 * Deeper bodies are refused here: the refusal of a pushed row echoes its content, and
 * JSON.stringify (the answer) recurses, so a few thousand levels would exhaust its stack.
 */
export const MAX_DEPTH = 32;

/**
 * Refuses JSON bodies carrying `__proto__`, `constructor` or `prototype` keys at any depth, before
 * any code copies them into an object where they could change a prototype, and bodies nested
 * deeper than MAX_DEPTH. Iterative, so a deeply nested body cannot exhaust the stack here.
 */
export function refuseForbiddenKeys(): RequestHandler {
  return (req, _res, next) => next(forbiddenKeysRefusal(req.body));
}

/** Why `refuseForbiddenKeys` refuses a parsed body, or undefined if it does not. */
export function forbiddenKeysRefusal(body: unknown): HttpError | undefined {
  const stack: [unknown, number][] = [[body, 0]];
  let seen = 0;
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (++seen > MAX_NODES) return badRequest('Request body is too complex');
    if (depth >= MAX_DEPTH) return badRequest('Request body is nested too deeply');
    if (Array.isArray(value)) {
      for (const v of value) stack.push([v, depth + 1]);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN.has(key))
        return badRequest('Request body must not contain __proto__, constructor or prototype keys');
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return undefined;
}
