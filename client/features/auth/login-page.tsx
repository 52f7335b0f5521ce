import { startTransition, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { REDIRECT_DELAYS_MS } from '../../../shared/constants';
import { validateLogin, type LoginValues } from '../../../shared/validation/login';
import { useSession } from '../../app/session';
import { ApiError } from '../../lib/api';
import { PATHS } from '../../../shared/routes';

const FALLBACK = 'Invalid email or password. Please try again.';
const SUCCESS = 'Login successful! Redirecting...';

export default function LoginPage() {
  const { login, establish } = useSession();
  const navigate = useNavigate();
  // Why the visitor is here, when a page that needs a session sent them (shared/routes.ts).
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof LoginValues, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const found = validateLogin(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const user = await login(values.email, values.password);
      setDone(true);
      setTimeout(() => {
        // One transition for both, so the session rules never see the new user on the old page.
        startTransition(() => {
          establish(user);
          navigate(PATHS.landing, { replace: true });
        });
      }, REDIRECT_DELAYS_MS.afterLogin);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : err instanceof Error ? err.message : FALLBACK);
      setBusy(false);
    }
  }

  return (
    <main className="page narrow auth">
      <h1>Log in</h1>
      {typeof notice === 'string' && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate className="form">
        <label>
          Email
          <input
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
          />
        </label>
        {errors.email && (
          <p className="field-error" role="alert">
            {errors.email}
          </p>
        )}
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            value={values.password}
            onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
          />
        </label>
        {errors.password && (
          <p className="field-error" role="alert">
            {errors.password}
          </p>
        )}
        <button type="submit" className="button" disabled={busy}>
          Log in
        </button>
        {done && (
          <p className="success" role="status">
            {SUCCESS}
          </p>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p>
        New here? <Link to={PATHS.signup}>Create an account</Link>
      </p>
    </main>
  );
}
