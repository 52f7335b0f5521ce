import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { COUNTRIES, LIMITS, NICHES } from '../../../shared/constants';
import { newId } from '../../../shared/ids';
import { isProfileComplete, type User } from '../../../shared/schemas/user';
import {
  changeCountry, changeLocationType, EMPTY_GIG_FORM, localIsoDay, normalizeGigForm, setPassionDriven, validateGigForm, type GigFormValues,
} from '../../../shared/validation/gig';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';

type Errors = Partial<Record<keyof GigFormValues, string>>;

function fromRestored(content: string): GigFormValues {
  const c = JSON.parse(content) as Record<string, unknown>;
  const s = (k: string) => (typeof c[k] === 'string' ? (c[k] as string) : '');
  return {
    ...EMPTY_GIG_FORM,
    title: s('title'), description: s('description'), category: s('category'), locationType: s('locationType') as GigFormValues['locationType'],
    country: s('country'), city: s('city'), budget: s('budget'), isPassionDriven: c.isPassionDriven === true, currency: s('currency') || EMPTY_GIG_FORM.currency,
    skills: s('skills'), projectDeadline: s('projectDeadline'), projectDate: s('projectDate'),
  };
}

/** The create-gig form (SPEC.md §5 "Create gig"), writing to the local database first. */
export default function CreateGigPage() {
  const { db, outbox, userId } = useData();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [values, setValues] = useState<GigFormValues>(EMPTY_GIG_FORM);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const me = useLive(() => db.users.findOne(userId).$, [db, userId]);
  const today = localIsoDay(new Date());

  const restoreId = params.get('restore');
  useEffect(() => {
    if (!restoreId) return;
    void db.syncproblems.findOne(restoreId).exec().then((p) => {
      if (p) setValues(fromRestored(p.content));
    });
  }, [db, restoreId]);

  const set = <K extends keyof GigFormValues>(key: K, value: GigFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setMessage(null);
    const profile = me.data?.toJSON() as User | undefined;
    // SPEC.md §5: a completed profile is required. (If the own record has not reached this device
    // yet, the gig is queued and the server, which has the last word, decides.)
    if (profile && !isProfileComplete(profile)) {
      setMessage('Please complete your profile before creating a gig');
      return;
    }
    const normalized = normalizeGigForm(values);
    const found = validateGigForm(normalized, { today, variant: 'page' }) as Errors;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const id = newId((n) => crypto.getRandomValues(new Uint8Array(n)));
    const now = Date.now();
    const doc = {
      id,
      title: normalized.title,
      description: normalized.description,
      category: normalized.category,
      locationType: normalized.locationType as 'remote' | 'in-person' | 'hybrid',
      ...(normalized.country ? { country: normalized.country as User['location'] } : {}),
      ...(normalized.city ? { city: normalized.city } : {}),
      budget: normalized.isPassionDriven ? '' : normalized.budget,
      isPassionDriven: normalized.isPassionDriven,
      currency: normalized.currency as 'CAD',
      skills: normalized.skills,
      ...(normalized.locationType === 'remote' ? { projectDeadline: normalized.projectDeadline } : {}),
      ...(normalized.locationType !== 'remote' && normalized.projectDate ? { projectDate: normalized.projectDate } : {}),
      createdAt: now,
      createdBy: userId,
      creatorName: profile?.name ?? '',
      status: 'active',
      updatedAt: now,
    };
    outbox.track('gigs', id);
    await db.gigs.insert(doc);
    if (restoreId) await db.syncproblems.findOne(restoreId).remove();
    navigate('/landing');
  }

  const err = (k: keyof GigFormValues) =>
    errors[k] ? (
      <p className="field-error" id={`${k}-error`} role="alert">
        {errors[k]}
      </p>
    ) : null;

  return (
    <main className="page narrow">
      <h1>Create a gig</h1>
      {message && <p className="notice">{message}</p>}
      <form onSubmit={(e) => void submit(e)} noValidate className="form">
        <label>
          Title <span className="counter">{values.title.length}/{LIMITS.titleMax}</span>
          <input value={values.title} maxLength={LIMITS.titleMax} onChange={(e) => set('title', e.target.value)} aria-invalid={Boolean(errors.title)} />
        </label>
        {err('title')}
        <label>
          Description <span className="counter">{values.description.length}/{LIMITS.descriptionMax}</span>
          <textarea value={values.description} maxLength={LIMITS.descriptionMax} onChange={(e) => set('description', e.target.value)} rows={4} />
        </label>
        {err('description')}
        <label>
          Category
          <select value={values.category} onChange={(e) => set('category', e.target.value)}>
            <option value="">Choose a category</option>
            {NICHES.map((n) => (
              <option key={n.id} value={n.name}>
                {n.name}
              </option>
            ))}
          </select>
        </label>
        {err('category')}
        <label>
          Location type
          <select value={values.locationType} onChange={(e) => setValues((v) => changeLocationType(v, e.target.value as GigFormValues['locationType']))}>
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
              <input type="date" min={today} value={values.projectDeadline} onChange={(e) => set('projectDeadline', e.target.value)} />
            </label>
            {err('projectDeadline')}
          </>
        )}
        {values.locationType === 'in-person' && (
          <>
            <label>
              Project date
              <input type="date" min={today} value={values.projectDate} onChange={(e) => set('projectDate', e.target.value)} />
            </label>
            {err('projectDate')}
            <label>
              Country
              <select value={values.country} onChange={(e) => setValues((v) => changeCountry(v, e.target.value))}>
                <option value="">Choose a country</option>
                {COUNTRIES.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            {err('country')}
            <label>
              City
              <input value={values.city} onChange={(e) => set('city', e.target.value)} />
            </label>
            {err('city')}
          </>
        )}
        <label className="checkbox">
          <input type="checkbox" checked={values.isPassionDriven} onChange={(e) => setValues((v) => setPassionDriven(v, e.target.checked))} />
          Passion driven (no budget)
        </label>
        <label>
          Budget ({values.currency})
          <input value={values.budget} disabled={values.isPassionDriven} placeholder="500-1000" onChange={(e) => set('budget', e.target.value)} />
        </label>
        {err('budget')}
        <label>
          Skills (comma separated)
          <input value={values.skills} onChange={(e) => set('skills', e.target.value)} />
        </label>
        {err('skills')}
        <button type="submit" className="button">
          Post gig
        </button>
      </form>
    </main>
  );
}
