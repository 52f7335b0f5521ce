import type { RequestHandler } from 'express';
import { badRequest } from './errors';

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_NODES = 200_000;

/**
 * Refuses JSON bodies carrying `__proto__`, `constructor` or `prototype` keys at any depth, before
 * any code copies them into an object where they could change a prototype. Iterative, so a deeply
 * nested body cannot exhaust the stack.
 */
export function refuseForbiddenKeys(): RequestHandler {
  return (req, _res, next) => {
    const stack: unknown[] = [req.body];
    let seen = 0;
    while (stack.length) {
      const value = stack.pop();
      if (value === null || typeof value !== 'object') continue;
      if (++seen > MAX_NODES) return next(badRequest('Request body is too complex'));
      if (Array.isArray(value)) {
        for (const v of value) stack.push(v);
        continue;
      }
      for (const key of Object.keys(value)) {
        if (FORBIDDEN.has(key)) return next(badRequest('Request body must not contain __proto__, constructor or prototype keys'));
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
    next();
  };
}
