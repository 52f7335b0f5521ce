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
            {wordsOf(p).map((line) => (
              <p key={line} className="field-state sync-problem__words">
                {line}
              </p>
            ))}
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

/** An application's refused move shows the words its user wrote (a change request, a dispute's reason…). */
function wordsOf(p: SyncProblem): string[] {
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
