import type { Role } from '../world';

/**
 * What a cell of the authorization matrix expects (tests/support/authz/matrix.ts). ALLOW means the
 * action does its job (a read shows the document, a write lands in the store, a socket opens, a
 * route answers its success). A denial names the HTTP status (or WebSocket close code) and the
 * refusal reason where docs/product.md, a decision or the state machine fixes them; `undefined`
 * leaves it open. For reads, a member's denial has no status: the document is simply not there.
 */
export type Expected = { allow: true } | { allow: false; status?: number | readonly number[]; reason?: string };
export type Cell = readonly [action: string, role: Role, expected: Expected];

export const ALLOW: Expected = { allow: true };
export const DENY: Expected = { allow: false };
export const deny = (status?: number | readonly number[], reason?: string): Expected => ({
  allow: false,
  ...(status !== undefined ? { status } : {}),
  ...(reason !== undefined ? { reason } : {}),
});
