import { useEffect, useState } from 'react';
import { LIMITS } from '../../../shared/constants';
import type { User } from '../../../shared/schemas/user';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';

type Field = 'name' | 'bio';

/** Profile editing, saved field by field into the local database (replicated when online). */
export default function ProfilePage() {
  const { db, outbox, userId } = useData();
  const { data, loading } = useLive(() => db.users.findOne(userId).$, [db, userId]);
  const user = data?.toJSON() as User | undefined;
  const [draft, setDraft] = useState<Record<Field, string>>({ name: '', bio: '' });
  const [state, setState] = useState<Partial<Record<Field, string>>>({});

  useEffect(() => {
    if (user) setDraft({ name: user.name, bio: user.bio ?? '' });
    // Only when the stored record changes, not on every keystroke.
  }, [user?.name, user?.bio]);

  if (loading) return <p role="status">Loading profile…</p>;
  if (!user || !data) return <p role="alert">Failed to load profile</p>;

  async function save(field: Field) {
    const value = draft[field].trim();
    if ((user![field] ?? '') === value) return;
    if (field === 'name' && !value) {
      setState((s) => ({ ...s, name: 'Name is required' }));
      return;
    }
    setState((s) => ({ ...s, [field]: 'Saving…' }));
    try {
      outbox.track('users', userId);
      await data!.incrementalPatch({ [field]: value });
      setState((s) => ({ ...s, [field]: 'Saved' }));
    } catch {
      setState((s) => ({ ...s, [field]: 'Failed to save changes. Please try again.' }));
    }
  }

  return (
    <main className="page narrow">
      <h1>Profile</h1>
      <div className="form">
        <label>
          Email
          <input value={user.email ?? ''} readOnly aria-readonly="true" />
        </label>
        <label>
          Name
          <input value={draft.name} maxLength={LIMITS.nameMax} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} onBlur={() => void save('name')} />
        </label>
        {state.name && <p className="field-state" role="status">{state.name}</p>}
        <label>
          Bio
          <textarea value={draft.bio} maxLength={LIMITS.bioMax} rows={4} onChange={(e) => setDraft((d) => ({ ...d, bio: e.target.value }))} onBlur={() => void save('bio')} />
        </label>
        {state.bio && <p className="field-state" role="status">{state.bio}</p>}
      </div>
    </main>
  );
}
