import { useEffect, useState } from 'react';
import { gigFormFromRecord } from '../../../shared/gig-content';
import { isProfileComplete } from '../../../shared/profile-complete';
import { EMPTY_GIG_FORM, type GigFormValues } from '../../../shared/validation/gig';
import { useData } from '../../data/data-provider';
import { useMe } from '../../data/queries';
import { createGig, GigForm } from '../gigs';
import { CREATE_GIG_MESSAGES } from '../../../shared/validation/gig';

/** A refused gig kept on this device, back into the form (its JSON is the write as the user made it). */
function fromRestored(content: string): GigFormValues {
  const form = gigFormFromRecord(JSON.parse(content) as Record<string, unknown>);
  return { ...form, currency: form.currency || EMPTY_GIG_FORM.currency };
}

/**
 * The create-gig form with its rules, writing to the local database first. Used by the page
 * (`variant: 'page'`) and the board's modal (`'modal'`, whose budget message differs).
 * `restoreId` names a refused write from the sync problems list to bring back into the form.
 */
export function CreateGigPanel({
  variant,
  restoreId,
  onCreated,
}: {
  variant: 'page' | 'modal';
  restoreId?: string | null;
  onCreated: (gigId: string) => void;
}) {
  const data = useData();
  const { local } = data;
  const me = useMe();
  const [message, setMessage] = useState<string | null>(null);
  const [initial, setInitial] = useState<GigFormValues | null>(restoreId ? null : EMPTY_GIG_FORM);

  useEffect(() => {
    if (!restoreId) return;
    void local.get('syncproblems', restoreId).then((p) => setInitial(p ? fromRestored(p.content) : EMPTY_GIG_FORM));
  }, [local, restoreId]);

  if (!initial || me.loading) return <p role="status">Loading…</p>;
  const profile = me.data ?? undefined;

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
      if (restoreId) await local.remove('syncproblems', restoreId);
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
      <GigForm
        key={restoreId ?? 'new'}
        initial={initial}
        variant={variant}
        submitLabel="Post gig"
        onSubmit={submit}
        idPrefix={`create-${variant}`}
      />
    </>
  );
}
