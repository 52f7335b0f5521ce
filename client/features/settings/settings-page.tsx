import { Link } from 'react-router-dom';
import { countryByCode, nicheById } from '../../../shared/constants';
import { useMe } from '../../data/queries';
import { PayoutSection } from './payout-section';
import { PushSection } from './push-section';
import { PATHS } from '../../../shared/routes';

/** `/settings` (docs/product.md §2): the profile information, notifications on this device and payout setup. */
export default function SettingsPage() {
  const me = useMe();
  const { loading, error } = me;
  const user = me.data ?? undefined;
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
            <Link className="button button--quiet" to={PATHS.profile}>
              Edit profile
            </Link>
          </>
        )}
      </section>
      <PushSection />
      <PayoutSection user={user} />
    </main>
  );
}
