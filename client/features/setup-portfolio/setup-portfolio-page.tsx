import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { NICHES, REDIRECT_DELAYS_MS } from '../../../shared/constants';
import { PATHS } from '../../../shared/routes';
import { isProfileComplete } from '../../../shared/profile-complete';
import type { User } from '../../../shared/schemas/user';
import { changeNiche, validatePortfolioSetup, type PortfolioSetupValues } from '../../../shared/validation/portfolio';
import { PROFILE_MESSAGES } from '../../../shared/profiles';
import { useData, useSyncStatusValue } from '../../data/data-provider';
import { usernameTakenByOther } from '../../lib/profiles-api';
import { useMe } from '../../data/queries';
import { CountryOptions, NicheOptions, SubcategoryOptions } from '../../ui/options';
import { saveProfileFields } from '../profile';

const SUCCESS = 'Profile setup complete! Redirecting to landing page...';
const EMPTY: PortfolioSetupValues = {
  username: '',
  location: '',
  creativeNiche: '',
  subcategory: '',
  portfolioLink: '',
};

/** `/setup-portfolio`: the one-time profile and portfolio setup (docs/product.md §2, §5). */
export default function SetupPortfolioPage() {
  const data = useData();
  const navigate = useNavigate();
  const me = useMe();
  const [values, setValues] = useState<PortfolioSetupValues>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof PortfolioSetupValues, string>>>({});
  const [done, setDone] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const firstSyncDone = useSyncStatusValue((s) => s.initialSync.done);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(PATHS.landing, { replace: true }), REDIRECT_DELAYS_MS.afterSetup);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const doc = me.data;
  // Right after sign-up the own record may still be on its way from the server.
  if (me.loading || (!doc && !firstSyncDone)) return <p role="status">Loading profile…</p>;
  if (!doc) return <p role="alert">Failed to load profile</p>;
  // Shown once: a completed profile goes to the board.
  if (!done && isProfileComplete(doc)) return <Navigate to={PATHS.landing} replace />;

  const niche = NICHES.find((n) => n.id === values.creativeNiche);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailed(null);
    const trimmed = { ...values, username: values.username.trim(), portfolioLink: values.portfolioLink.trim() };
    const found = validatePortfolioSetup(trimmed);
    setErrors(found);
    if (Object.keys(found).length) return;
    // A username names one member (their /u/ address): asked of the server first when it can be.
    if (await usernameTakenByOther(trimmed.username, data.userId)) {
      setErrors({ username: PROFILE_MESSAGES.usernameTaken });
      return;
    }
    try {
      await saveProfileFields(data, trimmed as Partial<User>);
      setDone(true);
    } catch {
      setFailed('Failed to save profile');
    }
  }

  const err = (k: keyof PortfolioSetupValues) =>
    errors[k] ? (
      <p className="field-error" role="alert">
        {errors[k]}
      </p>
    ) : null;

  return (
    <main className="page narrow">
      <h1>Set up your portfolio</h1>
      <form className="form" noValidate onSubmit={(e) => void submit(e)}>
        <label>
          Username
          <input
            value={values.username}
            autoComplete="username"
            onChange={(e) => setValues((v) => ({ ...v, username: e.target.value }))}
          />
        </label>
        {err('username')}
        <label>
          Location
          <select value={values.location} onChange={(e) => setValues((v) => ({ ...v, location: e.target.value }))}>
            <option value="">Choose your country</option>
            <CountryOptions />
          </select>
        </label>
        {err('location')}
        <label>
          Creative niche
          <select value={values.creativeNiche} onChange={(e) => setValues((v) => changeNiche(v, e.target.value))}>
            <option value="">Choose your niche</option>
            <NicheOptions valueBy="id" />
          </select>
        </label>
        {err('creativeNiche')}
        <label>
          Specific focus
          <select
            value={values.subcategory}
            disabled={!niche}
            onChange={(e) => setValues((v) => ({ ...v, subcategory: e.target.value }))}
          >
            <option value="">Choose your focus</option>
            <SubcategoryOptions niche={niche} />
          </select>
        </label>
        {err('subcategory')}
        <label>
          Portfolio link
          <input
            type="url"
            placeholder="https://"
            value={values.portfolioLink}
            onChange={(e) => setValues((v) => ({ ...v, portfolioLink: e.target.value }))}
          />
        </label>
        {err('portfolioLink')}
        <button type="submit" className="button" disabled={done}>
          Complete setup
        </button>
        {done && (
          <p className="success" role="status">
            {SUCCESS}
          </p>
        )}
        {failed && (
          <p className="form-error" role="alert">
            {failed}
          </p>
        )}
      </form>
    </main>
  );
}
