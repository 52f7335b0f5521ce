import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatMoney } from '../../../shared/money';
import { PATHS } from '../../../shared/routes';
import type { SyncProblem } from '../../data/collections';
import { useData } from '../../data/data-provider';
import { useSyncProblems } from '../../data/queries';

const WHAT: Record<string, string> = {
  users: 'Profile change',
  gigs: 'Gig',
  applications: 'Application',
  notifications: 'Notification',
  conversations: 'Conversation',
};

function describe(problem: SyncProblem): string {
  try {
    const content = JSON.parse(problem.content) as Record<string, unknown>;
    const title = content.title ?? content.gigTitle ?? content.name;
    return typeof title === 'string' && title
      ? `${WHAT[problem.collectionName] ?? 'Change'}: ${title}`
      : (WHAT[problem.collectionName] ?? 'Change');
  } catch {
    return WHAT[problem.collectionName] ?? 'Change';
  }
}

/**
 * Writes the server refused, with its reason and a way to get the content back. Nothing typed
 * offline disappears silently.
 */
export function SyncProblems() {
  const { local } = useData();
  const { data } = useSyncProblems();
  const [copied, setCopied] = useState<string | null>(null);
  const problems = data ?? [];
  if (problems.length === 0) return null;

  return (
    <section className="sync-problems" aria-labelledby="sync-problems-title">
      <h2 id="sync-problems-title">Changes the server did not accept</h2>
      <ul>
        {problems.map((p) => (
          <li key={p.id} className="sync-problem">
            <p>
              <strong>{describe(p)}</strong> — {p.reason}
            </p>
            <div className="sync-problem__actions">
              {p.collectionName === 'gigs' && (
                <Link className="button button--small" to={`${PATHS.createGig}?restore=${encodeURIComponent(p.id)}`}>
                  Restore into the gig form
                </Link>
              )}
              <button
                type="button"
                className="button button--small button--quiet"
                onClick={() => {
                  void navigator.clipboard?.writeText(readable(p)).then(
                    () => setCopied(p.id),
                    () => setCopied(null),
                  );
                }}
              >
                {copied === p.id ? 'Copied' : 'Copy the content'}
              </button>
              <button
                type="button"
                className="button button--small button--quiet"
                onClick={() => void local.remove('syncproblems', p.id)}
              >
                Dismiss
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function readable(p: SyncProblem): string {
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

/** What a user wrote about delivered, questioned or disputed work (decision 031), so a refused move keeps it. */
function workWords(content: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const last = Array.isArray(content.submissions) ? (content.submissions.at(-1) as Record<string, unknown>) : undefined;
  const changes = last?.changesRequested as Record<string, unknown> | undefined;
  if (typeof changes?.note === 'string') lines.push(`changes requested: ${changes.note}`);
  else if (typeof last?.note === 'string')
    lines.push(`submitted: ${last.note}${typeof last.link === 'string' ? ` (${last.link})` : ''}`);
  const dispute = content.dispute as Record<string, unknown> | undefined;
  if (typeof dispute?.reason === 'string') lines.push(`dispute: ${dispute.reason}`);
  const cancellation = content.cancellation as Record<string, unknown> | undefined;
  if (typeof cancellation?.note === 'string') lines.push(`cancellation: ${cancellation.note}`);
  return lines;
}
