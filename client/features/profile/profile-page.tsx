import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { LIMITS, NICHES } from '../../../shared/constants';
import type { User } from '../../../shared/schemas/user';
import { validateProfileField, type ProfileField, type ProfileValues } from '../../../shared/validation/profile';
import { useData } from '../../data/data-provider';
import { useMe } from '../../data/queries';
import { profilePath } from '../../../shared/routes';
import { useOutbox } from '../../ui/hooks';
import { CountryOptions, NicheOptions, SubcategoryOptions } from '../../ui/options';
import { saveProfileFields } from './profile-writes';

const UPDATED = 'Profile updated successfully!';
const SAVE_FAILED = 'Failed to save changes. Please try again.';
const TYPING_PAUSE_MS = 800;

type FieldState =
  { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string } | { kind: 'hint'; message: string };

function valuesOf(user: User): ProfileValues {
  return {
    name: user.name,
    username: user.username ?? '',
    location: user.location ?? '',
    creativeNiche: user.creativeNiche ?? '',
    subcategory: user.subcategory ?? '',
    portfolioLink: user.portfolioLink ?? '',
    bio: user.bio ?? '',
  };
}

/**
 * `/profile` (docs/product.md §2, §5 Profile page): each field saves on its own as the user edits (after a
 * pause in typing, or on leaving the field), with its own saving / saved / failed state; the email
 * is read-only. Writes go to the local database first, so editing works offline.
 */
export default function ProfilePage() {
  const data = useData();
  const { local, outbox, userId } = data;
  const isWaiting = useOutbox(outbox);
  const { data: me, loading, error } = useMe();
  const user = me ?? undefined;
  const [draft, setDraft] = useState<ProfileValues | null>(null);
  const [states, setStates] = useState<Partial<Record<ProfileField, FieldState>>>({});
  const [announce, setAnnounce] = useState<string | null>(null);
  const timers = useRef<Partial<Record<ProfileField, ReturnType<typeof setTimeout>>>>({});
  const dirty = useRef(new Set<ProfileField>());

  // Take the stored record, except fields the user is editing right now.
  useEffect(() => {
    if (!user) return;
    const stored = valuesOf(user);
    setDraft((d) => {
      if (!d) return stored;
      const next = { ...stored };
      for (const f of dirty.current) (next as Record<string, unknown>)[f] = d[f];
      return next;
    });
  }, [user]);

  useEffect(() => () => Object.values(timers.current).forEach((t) => clearTimeout(t)), []);

  if (loading) return <p role="status">Loading profile…</p>;
  if (error || !user || !draft) {
    return (
      <p role="alert" className="form-error">
        Failed to load profile
      </p>
    );
  }

  const setState = (field: ProfileField, state: FieldState | undefined) => setStates((s) => ({ ...s, [field]: state }));

  async function save(fields: ProfileField[], values: ProfileValues) {
    for (const f of fields) {
      const message = validateProfileField(f, values[f] ?? '', values);
      if (message) {
        setState(f, { kind: 'error', message });
        return;
      }
    }
    const current = await local.get('users', userId);
    const change: Record<string, string> = {};
    for (const f of fields) {
      const value = (values[f] ?? '').trim();
      if (((current?.[f] as string | undefined) ?? '') !== value) change[f] = value;
    }
    for (const f of fields) dirty.current.delete(f);
    if (Object.keys(change).length === 0) {
      for (const f of fields) setState(f, undefined);
      return;
    }
    for (const f of fields) setState(f, { kind: 'saving' });
    try {
      await saveProfileFields(data, change);
      for (const f of fields) setState(f, { kind: 'saved' });
      setAnnounce(UPDATED);
    } catch {
      for (const f of fields) setState(f, { kind: 'error', message: SAVE_FAILED });
    }
  }

  function edit(field: ProfileField, value: string, immediately = false) {
    const next = { ...draft!, [field]: value };
    setDraft(next);
    dirty.current.add(field);
    setAnnounce(null);
    clearTimeout(timers.current[field]);
    if (immediately) void save([field], next);
    else timers.current[field] = setTimeout(() => void save([field], next), TYPING_PAUSE_MS);
  }

  function flush(field: ProfileField) {
    if (!dirty.current.has(field)) return;
    clearTimeout(timers.current[field]);
    void save([field], draft!);
  }

  function changeNiche(nicheId: string) {
    // Changing the niche resets the subcategory; both are saved once a focus area is chosen.
    const next = { ...draft!, creativeNiche: nicheId, subcategory: '' };
    setDraft(next);
    dirty.current.add('creativeNiche');
    dirty.current.add('subcategory');
    setState('creativeNiche', undefined);
    setState('subcategory', { kind: 'hint', message: 'Please select your specific focus area' });
  }

  function changeSubcategory(subcategory: string) {
    const next = { ...draft!, subcategory };
    setDraft(next);
    dirty.current.add('subcategory');
    void save(
      next.creativeNiche !== (user!.creativeNiche ?? '') ? ['creativeNiche', 'subcategory'] : ['subcategory'],
      next,
    );
  }

  const niche = NICHES.find((n) => n.id === draft.creativeNiche);
  const waiting = isWaiting('users', userId);
  const stateLine = (field: ProfileField) => {
    const s = states[field];
    if (!s) return null;
    const id = `profile-${field}-state`;
    if (s.kind === 'error' || s.kind === 'hint')
      return (
        <p className="field-error" id={id} role="alert">
          {s.message}
        </p>
      );
    return (
      <p className="field-state" id={id} role="status" data-field-state={field}>
        {s.kind === 'saving' ? 'Saving…' : waiting ? 'Saved on this device · waiting to sync' : 'Saved'}
      </p>
    );
  };
  const textProps = (field: ProfileField) => ({
    value: draft[field] ?? '',
    onChange: (e: { target: { value: string } }) => edit(field, e.target.value),
    onBlur: () => flush(field),
    'aria-invalid': states[field]?.kind === 'error',
    'aria-describedby': states[field] ? `profile-${field}-state` : undefined,
  });

  return (
    <main className="page narrow">
      <h1>Profile</h1>
      <p className="field-state">Changes save automatically.</p>
      {user.username && (
        <p>
          <Link to={profilePath(user.username)}>See your public profile and reviews</Link>
        </p>
      )}
      {announce && (
        <p className="success" role="status">
          {announce}
        </p>
      )}
      <div className="form">
        <label>
          Email
          <input value={user.email ?? ''} readOnly aria-readonly="true" />
        </label>
        <label>
          Name
          <input {...textProps('name')} maxLength={LIMITS.nameMax} autoComplete="name" />
        </label>
        {stateLine('name')}
        <label>
          Username
          <input {...textProps('username')} maxLength={64} autoComplete="username" />
        </label>
        {stateLine('username')}
        <label>
          Location
          <select value={draft.location} onChange={(e) => edit('location', e.target.value, true)}>
            <option value="">Select your location</option>
            <CountryOptions />
          </select>
        </label>
        {stateLine('location')}
        <label>
          Creative niche
          <select value={draft.creativeNiche} onChange={(e) => changeNiche(e.target.value)}>
            <option value="">Select your creative niche</option>
            <NicheOptions valueBy="id" />
          </select>
        </label>
        {stateLine('creativeNiche')}
        <label>
          Focus area
          <select value={draft.subcategory} onChange={(e) => changeSubcategory(e.target.value)} disabled={!niche}>
            <option value="">Select your specific focus area</option>
            <SubcategoryOptions niche={niche} />
          </select>
        </label>
        {stateLine('subcategory')}
        <label>
          Portfolio link
          <input {...textProps('portfolioLink')} type="url" maxLength={LIMITS.urlMax} placeholder="https://" />
        </label>
        {stateLine('portfolioLink')}
        <label>
          Bio
          <textarea {...textProps('bio')} maxLength={LIMITS.bioMax} rows={4} />
        </label>
        {stateLine('bio')}
      </div>
    </main>
  );
}
