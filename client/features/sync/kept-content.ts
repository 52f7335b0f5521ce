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
