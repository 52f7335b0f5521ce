import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isNewApplication, offerLabel, statusLabel } from '../../../shared/display';
import type { Application } from '../../../shared/schemas/application';
import { useData, useFirstSyncUnderWay } from '../../data/data-provider';
import { collectionsForScreen } from '../../data/first-screen';
import { useApplicationsToMe } from '../../data/queries';
import { useNow } from '../../ui/hooks';
import { PATHS } from '../../../shared/routes';
import { NO_LINK_NOTICES } from '../../../shared/validation/chat-access';
import { startConversation } from '../chat';
import { ProfileLink, ReputationLine } from '../reviews';
import { ApplicantProfileModal } from './applicant-profile';

/**
 * `/applications` (docs/product.md §2 "Applications screen"): one card per application received on the
 * user's gigs, newest first, with View Profile, Converse and the 24-hour new badge.
 */
export default function ApplicationsPage() {
  const data = useData();
  const navigate = useNavigate();
  // Why a Converse button brought the user here instead of a conversation (shared/validation/chat-access.ts).
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  const now = useNow();
  const { data: docs, loading, error } = useApplicationsToMe();
  // "No applications yet" is not said while a new device's first sync may still bring some. The
  // cards wait for what they draw only (the rest of the sync is pulled after it: first-screen.ts).
  const firstSync = useFirstSyncUnderWay(collectionsForScreen(PATHS.applications));
  const applications = useMemo(() => [...(docs ?? [])].sort((a, b) => b.appliedAt - a.appliedAt), [docs]);
  const [profileOf, setProfileOf] = useState<Application | null>(null);
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  /** The application whose Converse is opening its conversation (it may wait for the first sync's). */
  const [opening, setOpening] = useState<string | null>(null);

  async function converse(a: Application) {
    setOpening(a.id);
    const result = await startConversation(data, a.applicantId, a.gigId).finally(() => setOpening(null));
    if (result.ok) navigate(result.path);
    else if ('redirectTo' in result)
      navigate(result.redirectTo, { replace: true, state: { notice: NO_LINK_NOTICES.fromLink } });
    else setErrors((e) => new Map(e).set(a.id, result.error));
  }

  return (
    <main className="page narrow">
      <h1>Applications</h1>
      {typeof notice === 'string' && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {loading || firstSync ? (
        <p role="status">Loading applications…</p>
      ) : error ? (
        <p role="alert">Failed to load applications. Please try again later.</p>
      ) : applications.length === 0 ? (
        <p className="empty">No applications yet. When creatives apply to your gigs, they show up here.</p>
      ) : (
        <ul className="card-list" aria-label="Applications received">
          {applications.map((a) => (
            <li key={a.id} className="card application-card">
              <h2>
                <ProfileLink userId={a.applicantId} name={a.applicantName} />
                {isNewApplication(a.appliedAt, now) && <span className="badge badge--new">New</span>}
              </h2>
              <p>
                <ReputationLine userId={a.applicantId} side="freelancer" />
              </p>
              <p>
                Applied to <strong>{a.gigTitle}</strong>
                {a.gigDeleted ? ' (gig deleted)' : ''} · {new Date(a.appliedAt).toLocaleString()}
              </p>
              <p>
                Offer: <strong>{offerLabel(a.budget, a.currency)}</strong> ·{' '}
                <span className="status">{statusLabel(a.status)}</span>
              </p>
              <div className="row">
                <button type="button" className="button button--quiet button--small" onClick={() => setProfileOf(a)}>
                  View Profile
                </button>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => void converse(a)}
                  disabled={opening === a.id}
                  aria-busy={opening === a.id}
                >
                  Converse
                </button>
              </div>
              {errors.has(a.id) && (
                <p className="form-error" role="alert">
                  {errors.get(a.id)}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {profileOf && <ApplicantProfileModal application={profileOf} onClose={() => setProfileOf(null)} />}
    </main>
  );
}
