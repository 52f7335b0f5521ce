import { HTTP_ACTIONS } from './actions/http';
import { READS_ACTIONS } from './actions/reads';
import { CHAT_ACTIONS } from './actions/chat';
import { PUSHES_ACTIONS } from './actions/pushes';
import { PAYMENTS_ACTIONS } from './actions/payments';
import { APPLYING_ACTIONS } from './actions/applying';
import { WEB_PUSH_ACTIONS } from './actions/web-push';
import { WORK_ACTIONS } from './actions/work';
import type { Action } from './cells';

export type { Action, Outcome } from './cells';

/** Every cell of the authorization matrix, in the order they run (applying last). */
export const ACTIONS: Action[] = [
  ...HTTP_ACTIONS,
  ...WEB_PUSH_ACTIONS,
  ...READS_ACTIONS,
  ...CHAT_ACTIONS,
  ...PUSHES_ACTIONS,
  ...PAYMENTS_ACTIONS,
  ...WORK_ACTIONS,
  ...APPLYING_ACTIONS,
];
