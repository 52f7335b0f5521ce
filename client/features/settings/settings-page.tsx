import { Link } from 'react-router-dom';
import { countryByCode, nicheById } from '../../../shared/constants';
import type { User } from '../../../shared/schemas/user';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';
import { PayoutSection } from './payout-section';

/** `/settings` (docs/product.md §2): the profile information and payout setup. */
export default function SettingsPage() {
  const { db, userId } = useData();
  const { data, loading, error } = useLive(() => db.users.findOne(userId).$, [db, userId]);
  const user = data?.toJSON() as User | undefined;
  return (
    <main className="page narrow">
      <h1>Settings</h1>
      <section aria-labelledby="settings-profile">
        <h2 id="settings-profile">Profile information</h2>
        {loading ? (
          <p role="status">Loading profile…</p>
        ) : error || !user ? (
          <p role="alert" className="form-error">
            Failed to load profile
          </p>
        ) : (
          <>
            <dl className="details">
              <dt>Name</dt>
              <dd>{user.name}</dd>
              <dt>Email</dt>
              <dd>{user.email}</dd>
              <dt>Username</dt>
              <dd>{user.username ? `@${user.username}` : 'Not set'}</dd>
              <dt>Location</dt>
              <dd>{user.location ? (countryByCode(user.location)?.name ?? user.location) : 'Not set'}</dd>
              <dt>Niche</dt>
              <dd>
                {user.creativeNiche ? (nicheById(user.creativeNiche)?.name ?? user.creativeNiche) : 'Not set'}
                {user.subcategory ? ` · ${user.subcategory}` : ''}
              </dd>
              <dt>Portfolio</dt>
              <dd>{user.portfolioLink || 'Not set'}</dd>
            </dl>
            <Link className="button button--quiet" to="/profile">
              Edit profile
            </Link>
          </>
        )}
      </section>
      <PayoutSection user={user} />
    </main>
  );
}
