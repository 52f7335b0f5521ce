import { Link } from 'react-router-dom';
import { statusLabel } from '../../../shared/display';
import type { LinkedGig } from './chat-gigs';
import { gigPath } from '../../../shared/routes';

/** The chat header's list of every gig linking the two users, each with its application's status. */
export function LinkedGigsList({ gigs, current }: { gigs: readonly LinkedGig[]; current: string | undefined }) {
  if (gigs.length === 0) return null;
  return (
    <ul className="chat__gigs" aria-label="Gigs between you">
      {gigs.map((g) => (
        <li key={g.gigId} aria-current={g.gigId === current ? 'true' : undefined}>
          {g.deleted ? (
            <span className="chat__gig-title">{g.title}</span>
          ) : (
            <Link to={gigPath(g.gigId)}>{g.title}</Link>
          )}
          {' · '}
          <span className="field-state">{g.deleted ? 'Gig deleted' : statusLabel(g.status)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Where the subject changes in the message list: the gig the conversation turns to. */
export function SubjectMarker({ gig }: { gig: LinkedGig }) {
  return (
    <p className="message__about">
      about: {gig.title}
      {gig.deleted ? ' (gig deleted)' : ''}
    </p>
  );
}
