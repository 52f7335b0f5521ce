import { startTransition, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { REDIRECT_DELAYS_MS } from '../../../shared/constants';
import { validateSignup, type SignupValues } from '../../../shared/validation/signup';
import { useSession } from '../../app/session';
import { ApiError } from '../../lib/api';
import { PATHS } from '../../../shared/routes';

const FALLBACK = 'An error occurred while signing up. Please try again.';
const SUCCESS = 'Successfully signed up! Redirecting to profile setup...';

export default function SignupPage() {
  const { signup, establish } = useSession();
  const navigate = useNavigate();
  const [values, setValues] = useState<SignupValues>({
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
    termsAccepted: false,
  });
  const [errors, setErrors] = useState<Partial<Record<keyof SignupValues, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const found = validateSignup(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const user = await signup(values);
      setDone(true);
      setTimeout(() => {
        // One transition for both, so the session rules never see the new user on the old page.
        startTransition(() => {
          establish(user);
          navigate(PATHS.setupPortfolio, { replace: true });
        });
      }, REDIRECT_DELAYS_MS.afterSignup);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : err instanceof Error ? err.message : FALLBACK);
      setBusy(false);
    }
  }

  const text = (
    key: 'name' | 'email' | 'password' | 'confirmPassword',
    label: string,
    type: string,
    autoComplete: string,
  ) => (
    <>
      <label>
        {label}
        <input
          type={type}
          autoComplete={autoComplete}
          value={values[key]}
          onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
          aria-invalid={Boolean(errors[key])}
        />
      </label>
      {errors[key] && (
        <p className="field-error" role="alert">
          {errors[key]}
        </p>
      )}
    </>
  );

  return (
    <main className="page narrow auth">
      <h1>Create your account</h1>
      <form onSubmit={(e) => void submit(e)} noValidate className="form">
        {text('name', 'Name', 'text', 'name')}
        {text('email', 'Email', 'email', 'email')}
        {text('password', 'Password', 'password', 'new-password')}
        {text('confirmPassword', 'Confirm password', 'password', 'new-password')}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.termsAccepted}
            onChange={(e) => setValues((v) => ({ ...v, termsAccepted: e.target.checked }))}
          />
          <span>
            I accept the{' '}
            <a href="/terms" target="_blank" rel="noopener">
              terms and conditions
            </a>
          </span>
        </label>
        {errors.termsAccepted && (
          <p className="field-error" role="alert">
            {errors.termsAccepted}
          </p>
        )}
        <button type="submit" className="button" disabled={busy}>
          Sign up
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
        Already have an account? <Link to={PATHS.login}>Log in</Link>
      </p>
    </main>
  );
}
