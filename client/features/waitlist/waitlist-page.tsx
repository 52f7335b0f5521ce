import { useState, type FormEvent } from 'react';
import { validateWaitlist } from '../../../shared/validation/waitlist';
import { api } from '../../lib/api';
import { CountryOptions } from '../../ui/options';

const SUCCESS = "Thank you for signing up..we'll be in touch!";
const FAILURE = 'Oops! Something went wrong. Please try again.';

type Values = { name: string; email: string; city: string; location: string };
const EMPTY: Values = { name: '', email: '', city: '', location: '' };

/** `/` and `/waitlist-signup`: the pre-launch page with the demo video and the waitlist form. */
export default function WaitlistPage() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [status, setStatus] = useState<'idle' | 'sending' | 'done' | 'failed'>('idle');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateWaitlist(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setStatus('sending');
    try {
      await api('POST', '/api/waitlist', values);
      setStatus('done');
      setValues(EMPTY);
    } catch {
      setStatus('failed');
    }
  }

  const field = (key: keyof Values, label: string, type = 'text') => (
    <>
      <label>
        {label}
        <input
          type={type}
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
    <main className="waitlist">
      <section className="waitlist__hero">
        <h1>Creative Gigs</h1>
        <p>Post a gig. Find your creative. A marketplace made by creatives, for creatives.</p>
        <video
          className="demo-video"
          src="/demo.webm"
          controls
          muted
          playsInline
          preload="metadata"
          aria-label="Demo video of the app"
        />
      </section>
      <section className="waitlist__form" aria-labelledby="waitlist-title">
        <h2 id="waitlist-title">Join the waitlist</h2>
        <form onSubmit={(e) => void submit(e)} noValidate className="form">
          {field('name', 'Name')}
          {field('email', 'Email', 'email')}
          {field('city', 'City')}
          <label>
            Country
            <select
              value={values.location}
              onChange={(e) => setValues((v) => ({ ...v, location: e.target.value }))}
              aria-invalid={Boolean(errors.location)}
            >
              <option value="">Choose your country</option>
              <CountryOptions />
            </select>
          </label>
          {errors.location && (
            <p className="field-error" role="alert">
              {errors.location}
            </p>
          )}
          <button type="submit" className="button" disabled={status === 'sending'}>
            {status === 'sending' ? 'Sending…' : 'Join the waitlist'}
          </button>
          {status === 'done' && (
            <p className="success" role="status">
              {SUCCESS}
            </p>
          )}
          {status === 'failed' && (
            <p className="form-error" role="alert">
              {FAILURE}
            </p>
          )}
        </form>
      </section>
    </main>
  );
}
