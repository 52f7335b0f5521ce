import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../shared/routes';

/** Sample gigs of our own writing. docs/product.md: every action leads to the waitlist, and the sample content is not shown (docs/decisions/006). */
const SAMPLES = [
  { category: 'Visual Art', skills: 3 },
  { category: 'Music and Sound', skills: 2 },
  { category: 'Media', skills: 4 },
  { category: 'Writing', skills: 2 },
  { category: 'Fashion', skills: 3 },
  { category: 'Crafts', skills: 2 },
];

export default function TeaserPage() {
  const navigate = useNavigate();
  const toWaitlist = () => navigate(PATHS.waitlist);
  return (
    <main className="page">
      <h1>Gigs waiting for you</h1>
      <p>Real gigs from creatives are on the way. Join the waitlist to see them first.</p>
      <ul className="gig-list teaser">
        {SAMPLES.map((s, i) => (
          <li key={i} className="gig-card gig-card--teaser">
            <p className="gig-card__category">{s.category}</p>
            <div className="redacted" aria-hidden="true" />
            <div className="redacted redacted--short" aria-hidden="true" />
            <button type="button" className="button button--small" onClick={toWaitlist}>
              Join the waitlist to apply
            </button>
          </li>
        ))}
      </ul>
    </main>
  );
}
