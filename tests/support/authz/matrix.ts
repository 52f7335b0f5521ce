import { APPLYING_CELLS } from './expected/applying';
import { CHAT_CELLS } from './expected/chat';
import { DENY, type Cell, type Expected } from './expected/cell';
import { HTTP_CELLS } from './expected/http';
import { PAYMENT_CELLS } from './expected/payments';
import { PUSH_CELLS } from './expected/pushes';
import { READ_CELLS } from './expected/reads';
import { WORK_CELLS } from './expected/work';

export type { Cell, Expected } from './expected/cell';

/**
 * The expected outcome of every role × action (issue 9, "Authorization matrix"), decided from
 * docs/product.md §5–§8, docs/architecture.md (read filtering, who writes what, chat access) and
 * docs/decisions/ (001 replication, 003 emails, 004 gig rules and status moves, 007 payments,
 * 031 money), not from what the server happens to answer. One row per cell: [action, role,
 * expected], filed by surface in tests/support/authz/expected/ as the actions are in actions/.
 */
const MEMBER_CELLS: readonly Cell[] = [
  ...HTTP_CELLS,
  ...READ_CELLS,
  ...CHAT_CELLS,
  ...PUSH_CELLS,
  ...PAYMENT_CELLS,
  ...APPLYING_CELLS,
];

/** Where being the stranger is being oneself: the operator is another user, and sees what others see. */
const OPERATOR_UNLIKE_STRANGER: Record<string, Expected> = {
  "pull users: the stranger's profile": DENY,
};

/**
 * The operator (OPERATOR_EMAILS, decision 031) is a stranger to the gig: everything outside the
 * operator area goes for them as for the stranger.
 */
const OPERATOR_AS_STRANGER: readonly Cell[] = MEMBER_CELLS.filter(([, role]) => role === 'stranger').map(
  ([action, , expected]) => [action, 'operator', OPERATOR_UNLIKE_STRANGER[action] ?? expected] as const,
);

export const MATRIX: readonly Cell[] = [...MEMBER_CELLS, ...OPERATOR_AS_STRANGER, ...WORK_CELLS];
