import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../shared/routes';
import { useData } from '../../data/data-provider';
import { useSyncProblems } from '../../data/queries';
import { describeChange } from './describe-change';
import { keptDocument, keptWords, readableContent } from './kept-content';

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
              <strong>{describeChange(p.collectionName, keptDocument(p))}</strong> — {p.reason}
            </p>
            {keptWords(p).map((line) => (
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
                  void navigator.clipboard?.writeText(readableContent(p)).then(
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
