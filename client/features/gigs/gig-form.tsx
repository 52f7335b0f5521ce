import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../../shared/constants';
import { OPENINGS } from '../../../shared/hiring';
import {
  changeCountry,
  changeLocationType,
  EMPTY_GIG_FORM,
  localIsoDay,
  normalizeGigForm,
  setPassionDriven,
  validateGigForm,
  type GigFormValues,
  type GigFormVariant,
} from '../../../shared/validation/gig';
import { CountryOptions, NicheOptions } from '../../ui/options';

type Errors = Partial<Record<keyof GigFormValues, string>>;

/**
 * The create-gig form (docs/product.md §5 "Create gig"): every field, the change rules, counters against
 * the limits and the messages in docs/product.md order. `onSubmit` gets the normalised values once they pass.
 */
export function GigForm({
  initial = EMPTY_GIG_FORM,
  variant,
  submitLabel,
  onSubmit,
  idPrefix,
}: {
  initial?: GigFormValues;
  variant: GigFormVariant;
  submitLabel: string;
  onSubmit: (values: GigFormValues) => Promise<void> | void;
  idPrefix: string;
}) {
  const [values, setValues] = useState<GigFormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const today = localIsoDay(new Date());
  const set = <K extends keyof GigFormValues>(key: K, value: GigFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const id = (k: string) => `${idPrefix}-${k}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const normalized = normalizeGigForm(values);
    const found = validateGigForm(normalized, { today, variant }) as Errors;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(id(Object.keys(found)[0]!))?.focus();
      return;
    }
    setBusy(true);
    try {
      await onSubmit(normalized);
    } finally {
      setBusy(false);
    }
  }

  const err = (k: keyof GigFormValues) =>
    errors[k] ? (
      <p className="field-error" id={id(`${k}-error`)} role="alert">
        {errors[k]}
      </p>
    ) : null;
  const aria = (k: keyof GigFormValues) => ({
    id: id(k),
    'aria-invalid': Boolean(errors[k]),
    'aria-describedby': errors[k] ? id(`${k}-error`) : undefined,
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="form">
      <label>
        <span>
          Title{' '}
          <span className="counter">
            {values.title.length}/{LIMITS.titleMax}
          </span>
        </span>
        <input
          {...aria('title')}
          value={values.title}
          maxLength={LIMITS.titleMax}
          onChange={(e) => set('title', e.target.value)}
        />
      </label>
      {err('title')}
      <label>
        <span>
          Description{' '}
          <span className="counter">
            {values.description.length}/{LIMITS.descriptionMax}
          </span>
        </span>
        <textarea
          {...aria('description')}
          value={values.description}
          maxLength={LIMITS.descriptionMax}
          onChange={(e) => set('description', e.target.value)}
          rows={4}
        />
      </label>
      {err('description')}
      <label>
        Category
        <select {...aria('category')} value={values.category} onChange={(e) => set('category', e.target.value)}>
          <option value="">Choose a category</option>
          <NicheOptions valueBy="name" />
        </select>
      </label>
      {err('category')}
      <label>
        Location type
        <select
          {...aria('locationType')}
          value={values.locationType}
          onChange={(e) => setValues((v) => changeLocationType(v, e.target.value as GigFormValues['locationType']))}
        >
          <option value="">Choose a location type</option>
          <option value="remote">Remote</option>
          <option value="in-person">In person</option>
          <option value="hybrid">Hybrid</option>
        </select>
      </label>
      {err('locationType')}
      {values.locationType === 'remote' && (
        <>
          <label>
            Project deadline
            <input
              {...aria('projectDeadline')}
              type="date"
              min={today}
              value={values.projectDeadline}
              onChange={(e) => set('projectDeadline', e.target.value)}
            />
          </label>
          {err('projectDeadline')}
        </>
      )}
      {values.locationType === 'in-person' && (
        <>
          <label>
            Project date
            <input
              {...aria('projectDate')}
              type="date"
              min={today}
              value={values.projectDate}
              onChange={(e) => set('projectDate', e.target.value)}
            />
          </label>
          {err('projectDate')}
          <label>
            Country
            <select
              {...aria('country')}
              value={values.country}
              onChange={(e) => setValues((v) => changeCountry(v, e.target.value))}
            >
              <option value="">Choose a country</option>
              <CountryOptions />
            </select>
          </label>
          {err('country')}
          <label>
            City
            <input
              {...aria('city')}
              value={values.city}
              maxLength={LIMITS.cityMax}
              onChange={(e) => set('city', e.target.value)}
            />
          </label>
          {err('city')}
        </>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={values.isPassionDriven}
          onChange={(e) => setValues((v) => setPassionDriven(v, e.target.checked))}
        />
        Passion driven (no budget)
      </label>
      <label>
        Budget ({values.currency})
        <input
          {...aria('budget')}
          value={values.budget}
          disabled={values.isPassionDriven}
          placeholder="500-1000"
          onChange={(e) => set('budget', e.target.value)}
        />
      </label>
      {err('budget')}
      <label>
        Skills (comma separated)
        <input
          {...aria('skills')}
          value={values.skills}
          maxLength={LIMITS.skillsMax}
          onChange={(e) => set('skills', e.target.value)}
        />
      </label>
      {err('skills')}
      <label>
        People to hire ({OPENINGS.min}–{OPENINGS.max})
        <input
          {...aria('openings')}
          type="number"
          inputMode="numeric"
          min={OPENINGS.min}
          max={OPENINGS.max}
          step={1}
          value={values.openings}
          onChange={(e) => set('openings', e.target.value)}
        />
      </label>
      {err('openings')}
      <button type="submit" className="button" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
