import { Link } from 'react-router-dom';
import { PATHS } from '../../../shared/routes';

export default function ManifestoPage() {
  return (
    <main className="page narrow prose">
      <h1>Manifesto</h1>
      <p>
        Creative work is work. The illustrator, the session singer, the tailor and the podcaster deserve a fair brief, a
        clear budget and to be paid on time.
      </p>
      <p>
        We are building a marketplace where creatives hire each other: a painter needs a photographer for the catalogue,
        a band needs a cover, a brand owner needs a stylist. Buyers post gigs, freelancers apply, and the budget is
        agreed before the work starts.
      </p>
      <p>
        Money is held until the work is done and then released, minus a small fee that keeps the lights on. Your
        messages and your money stay yours; the app works on a patchy connection and on a cheap phone.
      </p>
      <p>Passion projects have a place too: a gig can be marked passion driven, and everyone knows where they stand.</p>
      <p>
        <Link to={PATHS.waitlist}>Join the waitlist</Link>
      </p>
    </main>
  );
}
