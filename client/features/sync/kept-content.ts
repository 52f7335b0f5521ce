import { formatMoney } from '../../../shared/money';
import type { SyncProblem } from '../../data/collections';

/** The kept content of a refused change, as text a user can read and copy. */
export function readableContent(p: Pick<SyncProblem, 'content'>): string {
  try {
    const content = JSON.parse(p.content) as Record<string, unknown>;
    const lines = ['title', 'gigTitle', 'description', 'skills', 'budget', 'name', 'bio']
      .filter((k) => typeof content[k] === 'string' && content[k])
      .map((k) => `${k}: ${String(content[k])}`);
    // An application's rate is in minor units.
    if (typeof content.budget === 'number' && typeof content.currency === 'string')
      lines.push(`rate: ${formatMoney(content.budget, content.currency)}`);
    lines.push(...workWords(content));
    return lines.join('\n');
  } catch {
    return p.content;
  }
}

/** The kept content as the document it was, or undefined when it cannot be read. */
export function keptDocument(p: Pick<SyncProblem, 'content'>): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(p.content);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** An application's refused move shows the words its user wrote (a change request, a dispute's reason…). */
export function keptWords(p: Pick<SyncProblem, 'collectionName' | 'content'>): string[] {
  if (p.collectionName !== 'applications') return [];
  try {
    return workWords(JSON.parse(p.content) as Record<string, unknown>).map((line) => `Your ${line}`);
  } catch {
    return [];
  }
}

/**
 * What a user wrote with a move on delivered, questioned or disputed work (decision 031), read by
 * the move the refused document made (its status), so a refused move keeps the user's words.
 */
function workWords(content: Record<string, unknown>): string[] {
  const last = Array.isArray(content.submissions) ? (content.submissions.at(-1) as Record<string, unknown>) : undefined;
  const changes = last?.changesRequested as Record<string, unknown> | undefined;
  const dispute = content.dispute as Record<string, unknown> | undefined;
  const cancellation = content.cancellation as Record<string, unknown> | undefined;
  switch (content.status) {
    case 'IN_PROGRESS':
      return typeof changes?.note === 'string' ? [`change request: ${changes.note}`] : [];
    case 'DELIVERED':
      return typeof last?.note === 'string'
        ? [`submission: ${last.note}${typeof last.link === 'string' ? ` (${last.link})` : ''}`]
        : [];
    case 'DISPUTED':
      return typeof dispute?.reason === 'string' ? [`dispute reason: ${dispute.reason}`] : [];
    case 'CANCELLATION_REQUESTED':
      return typeof cancellation?.note === 'string' ? [`cancellation note: ${cancellation.note}`] : [];
    default:
      return [];
  }
}
