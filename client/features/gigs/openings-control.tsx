import { useEffect, useState, type FormEvent } from 'react';
import { acceptedCount, OPENINGS, openingsError, openingsOf } from '../../../shared/hiring';
import type { Application } from '../../../shared/schemas/application';
import type { Gig } from '../../../shared/schemas/gig';
import { useData } from '../../data/data-provider';
import { setOpenings } from './gig-writes';

/**
 * How many people the creator's gig hires, and how many are hired: editable while the gig exists,
 * even once work is accepted, so a filled gig reopens when openings are added.
 */
export function OpeningsControl({ gig, applications }: { gig: Gig; applications: Pick<Application, 'status'>[] }) {
  const data = useData();
  const current = openingsOf(gig);
  const [value, setValue] = useState(String(current));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => setValue(String(current)), [current]);
  const id = `openings-${gig.id}`;

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const problem = openingsError(value, applications);
    setError(problem ?? null);
    if (problem) return;
    try {
      await setOpenings(data, gig.id, Number(value.trim()));
      setSaved(true);
    } catch {
      setError('Failed to save changes. Please try again.');
    }
  }

  return (
    <form className="form openings" onSubmit={(e) => void save(e)} noValidate>
      <p>
        {acceptedCount(applications)} of {current} hired
      </p>
      <label htmlFor={id}>
        People to hire ({OPENINGS.min}–{OPENINGS.max})
      </label>
      <div className="row">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={OPENINGS.min}
          max={OPENINGS.max}
          step={1}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="submit" className="button button--quiet">
          Save openings
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert" id={`${id}-error`}>
          {error}
        </p>
      )}
      {saved && !error && (
        <p className="success" role="status">
          Openings saved
        </p>
      )}
    </form>
  );
}
