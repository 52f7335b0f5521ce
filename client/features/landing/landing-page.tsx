import { Link } from 'react-router-dom';
import { budgetLabel, EMPTY_STATES, skillPreview } from '../../../shared/display';
import type { Gig } from '../../../shared/schemas/gig';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';

/** The gig board: every gig newest first, live from the local database (works offline). */
export default function LandingPage() {
  const { db, outbox } = useData();
  const { data, loading } = useLive(() => db.gigs.find({ sort: [{ createdAt: 'desc' }] }).$, [db]);
  const gigs = (data ?? []).map((d) => d.toJSON() as Gig);
  return (
    <main className="page">
      <div className="page-head">
        <h1>Gigs</h1>
        <Link className="button" to="/create-gig">
          Create Gig
        </Link>
      </div>
      {loading ? (
        <p role="status">Loading gigs…</p>
      ) : gigs.length === 0 ? (
        <p className="empty">{EMPTY_STATES.allGigs}</p>
      ) : (
        <ul className="gig-list" aria-label="Gigs">
          {gigs.map((gig) => {
            const skills = skillPreview(gig.skills);
            const waiting = outbox.has('gigs', gig.id);
            return (
              <li key={gig.id} className="gig-card">
                <p className="gig-card__category">{gig.category}</p>
                <h2 className="gig-card__title">{gig.title}</h2>
                <p className="gig-card__budget">{budgetLabel(gig)}</p>
                <p className="gig-card__skills">
                  {skills.shown.map((s) => (
                    <span key={s} className="chip">
                      {s}
                    </span>
                  ))}
                  {skills.moreLabel && <span className="chip chip--more">{skills.moreLabel}</span>}
                </p>
                {waiting && <p className="gig-card__pending">Waiting to sync</p>}
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
