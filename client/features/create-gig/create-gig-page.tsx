import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isProfileComplete, type User } from '../../../shared/schemas/user';
import { EMPTY_GIG_FORM, type GigFormValues } from '../../../shared/validation/gig';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';
import { GigForm } from '../gigs/gig-form';
import { CREATE_GIG_MESSAGES } from '../../../shared/validation/gig';
import { createGig } from '../gigs/gig-writes';

function fromRestored(content: string): GigFormValues {
  const c = JSON.parse(content) as Record<string, unknown>;
  const s = (k: string) => (typeof c[k] === 'string' ? (c[k] as string) : '');
  return {
    ...EMPTY_GIG_FORM,
    title: s('title'), description: s('description'), category: s('category'), locationType: s('locationType') as GigFormValues['locationType'],
    country: s('country'), city: s('city'), budget: s('budget'), isPassionDriven: c.isPassionDriven === true, currency: s('currency') || EMPTY_GIG_FORM.currency,
    skills: s('skills'), projectDeadline: s('projectDeadline'), projectDate: s('projectDate'),
    openings: typeof c.openings === 'number' ? String(c.openings) : EMPTY_GIG_FORM.openings,
  };
}

/**
 * The create-gig form with its rules, writing to the local database first. Used by the page
 * (`variant: 'page'`) and the board's modal (`'modal'`, whose budget message differs).
 * `restoreId` names a refused write from the sync problems list to bring back into the form.
 */
export function CreateGigPanel({ variant, restoreId, onCreated }: { variant: 'page' | 'modal'; restoreId?: string | null; onCreated: (gigId: string) => void }) {
  const data = useData();
  const { db, userId } = data;
  const me = useLive(() => db.users.findOne(userId).$, [db, userId]);
  const [message, setMessage] = useState<string | null>(null);
  const [initial, setInitial] = useState<GigFormValues | null>(restoreId ? null : EMPTY_GIG_FORM);

  useEffect(() => {
    if (!restoreId) return;
    void db.syncproblems.findOne(restoreId).exec().then((p) => setInitial(p ? fromRestored(p.content) : EMPTY_GIG_FORM));
  }, [db, restoreId]);

  if (!initial || me.loading) return <p role="status">Loading…</p>;
  const profile = me.data?.toJSON() as User | undefined;

  async function submit(values: GigFormValues) {
    setMessage(null);
    // docs/product.md §5: a completed profile is required. (If the own record has not reached this device
    // yet, the gig is queued and the server, which has the last word, decides.)
    if (profile && !isProfileComplete(profile)) {
      setMessage(CREATE_GIG_MESSAGES.profileMissing);
      return;
    }
    try {
      const id = await createGig(data, values, profile);
      if (restoreId) await db.syncproblems.findOne(restoreId).remove();
      onCreated(id);
    } catch {
      setMessage('Failed to create gig. Please try again.');
    }
  }

  return (
    <>
      {message && (
        <p className="notice" role="alert">
          {message}
        </p>
      )}
      <GigForm key={restoreId ?? 'new'} initial={initial} variant={variant} submitLabel="Post gig" onSubmit={submit} idPrefix={`create-${variant}`} />
    </>
  );
}

/** `/create-gig` (docs/product.md §5 "Create gig"). */
export default function CreateGigPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (
    <main className="page narrow">
      <h1>Create a gig</h1>
      <CreateGigPanel variant="page" restoreId={params.get('restore')} onCreated={() => navigate('/landing')} />
    </main>
  );
}
