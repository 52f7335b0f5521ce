import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { countryByCode } from '../../../shared/constants';
import { budgetLabel, statusLabel } from '../../../shared/display';
import { formFromGig } from '../../../shared/gig-content';
import { currencySymbol } from '../../../shared/money';
import { applicationIdFor } from '../../../shared/ids';
import type { Gig } from '../../../shared/schemas/gig';
import { isProfileComplete } from '../../../shared/profile-complete';
import { APPLY_MESSAGES, parseMoneyInput, validateApplication } from '../../../shared/validation/apply';
import { HIRING_MESSAGES, isAccepted } from '../../../shared/hiring';
import { checkDeleteGig, DELETE_GIG_MESSAGES } from '../../../shared/validation/delete-gig';
import { dateLabel } from '../../lib/date-labels';
import { useData, useSyncStatusValue } from '../../data/data-provider';
import { useApplication, useApplicationsForGig, useMe } from '../../data/queries';
import { DeleteGigDialog } from './delete-gig-dialog';
import { useOutbox } from '../../ui/hooks';
import { applyToGig } from '../applications';
import { NO_LINK_NOTICES } from '../../../shared/validation/chat-access';
import { startConversation } from '../chat';
import { ProfileLink, ReputationLine } from '../reviews';
import { GigForm } from './gig-form';
import { OpeningsControl } from './openings-control';
import { deleteGig, editGig } from './gig-writes';

const APPLIED = 'Application submitted successfully!';

function locationText(gig: Gig): string {
  const type = gig.locationType === 'in-person' ? 'In person' : gig.locationType === 'remote' ? 'Remote' : 'Hybrid';
  const place = [gig.city, gig.country ? countryByCode(gig.country)?.name : undefined].filter(Boolean).join(', ');
  return place ? `${type} · ${place}` : type;
}

const longDayLabel = dateLabel({ year: 'numeric', month: 'long', day: 'numeric' });

function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return longDayLabel(new Date(y!, m! - 1, d!));
}

/**
 * A gig with its actions (docs/product.md §2 "Gig modal"): its details; Apply with a rate and Converse
 * with Creator for others; 'This is your gig posting' with edit and delete for its owner. Shared by
 * the board's modal and `/gig/{gigId}`.
 */
export function GigDetails({ gig, onDeleted }: { gig: Gig; onDeleted: () => void }) {
  const data = useData();
  const online = useSyncStatusValue((s) => s.network === 'online');
  const firstSyncDone = useSyncStatusValue((s) => s.initialSync.done);
  const { userId } = data;
  const navigate = useNavigate();
  const isWaiting = useOutbox(data.outbox);
  const me = useMe();
  const mine = useApplication(applicationIdFor(gig.id, userId));
  const gigApps = useApplicationsForGig(gig.id);
  const [rate, setRate] = useState('');
  const [applyError, setApplyError] = useState<string | null>(null);
  const [applied, setApplied] = useState(false);
  const [converseError, setConverseError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [editError, setEditError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const own = gig.createdBy === userId;
  const myApplication = mine.data ?? undefined;
  const applications = (gigApps.data ?? []).map((a) => ({ status: a.status }));
  const accepted = applications.some(isAccepted);
  const filled = Boolean(gig.filledAt);
  // Delete is offered only where it can succeed (the server judges with the same rule).
  const deletable = checkDeleteGig(userId, gig, applications);

  async function apply(e: FormEvent) {
    e.preventDefault();
    setApplyError(null);
    const profile = me.data ?? undefined;
    if (filled) {
      setApplyError(HIRING_MESSAGES.filled);
      return;
    }
    const message = validateApplication({
      rate,
      actor: { id: userId },
      // Without the own record: still arriving (verifying), or unknown until the device is back online.
      verifying: me.loading || (!profile && (online || firstSyncDone)),
      unavailable: !profile && !online && !firstSyncDone,
      profile: profile ? { complete: isProfileComplete(profile) } : null,
      gig: { createdBy: gig.createdBy || undefined },
      alreadyApplied: Boolean(myApplication),
    });
    if (message) {
      setApplyError(message);
      return;
    }
    try {
      await applyToGig(data, gig, profile!, parseMoneyInput(rate)!);
      setApplied(true);
      setRate('');
    } catch {
      setApplyError('Failed to submit application. Please try again.');
    }
  }

  async function converse() {
    setConverseError(null);
    const result = await startConversation(data, gig.createdBy, gig.id);
    if (result.ok) navigate(result.path);
    else if ('redirectTo' in result) navigate(result.redirectTo, { state: { notice: NO_LINK_NOTICES.fromGig } });
    else setConverseError(result.error);
  }

  async function remove() {
    const check = checkDeleteGig(userId, gig, applications);
    if (!check.ok) {
      setDeleteError(check.error);
      setConfirmDelete(false);
      return;
    }
    try {
      await deleteGig(data, gig.id);
      setConfirmDelete(false);
      onDeleted();
    } catch {
      setDeleteError('Failed to delete gig. Please try again.');
      setConfirmDelete(false);
    }
  }

  if (editing) {
    return (
      <div className="gig-details">
        {editError && (
          <p className="form-error" role="alert">
            {editError}
          </p>
        )}
        <GigForm
          idPrefix={`edit-${gig.id}`}
          variant="page"
          initial={formFromGig(gig)}
          submitLabel="Save changes"
          onSubmit={async (values) => {
            try {
              await editGig(data, gig.id, values);
              setEditing(false);
            } catch {
              setEditError('Failed to save changes. Please try again.');
            }
          }}
        />
        <button type="button" className="button button--quiet" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
    );
  }

  return (
    <div className="gig-details">
      <dl className="details">
        <dt>Category</dt>
        <dd>{gig.category}</dd>
        <dt>Description</dt>
        <dd className="gig-details__description">{gig.description}</dd>
        <dt>Budget</dt>
        <dd>{budgetLabel(gig)}</dd>
        <dt>Location</dt>
        <dd>{locationText(gig)}</dd>
        {gig.projectDeadline && (
          <>
            <dt>Deadline</dt>
            <dd>{formatDay(gig.projectDeadline)}</dd>
          </>
        )}
        {gig.projectDate && (
          <>
            <dt>Date</dt>
            <dd>{formatDay(gig.projectDate)}</dd>
          </>
        )}
        <dt>Skills</dt>
        <dd>{gig.skills}</dd>
        <dt>Posted by</dt>
        <dd>
          <ProfileLink userId={gig.createdBy} name={gig.creatorName} />
          <br />
          <ReputationLine userId={gig.createdBy} side="buyer" />
        </dd>
      </dl>
      {isWaiting('gigs', gig.id) && <p className="gig-card__pending">Waiting to sync</p>}
      {filled && (
        <p className="notice position-filled" role="status">
          {HIRING_MESSAGES.positionFilled}
        </p>
      )}

      {own ? (
        <div className="owner-actions">
          <p className="notice">This is your gig posting</p>
          {deleteError && (
            <p className="form-error" role="alert">
              {deleteError}
            </p>
          )}
          {/* Shown once the gig's applications are read: accepted work locks editing, work under way deleting. */}
          {!gigApps.loading && (
            <>
              <div className="row">
                {!accepted && (
                  <button type="button" className="button button--quiet" onClick={() => setEditing(true)}>
                    Edit gig
                  </button>
                )}
                {deletable.ok && (
                  <button type="button" className="button button--danger" onClick={() => setConfirmDelete(true)}>
                    Delete gig
                  </button>
                )}
              </div>
              {!deletable.ok && deletable.error === DELETE_GIG_MESSAGES.workUnderWay && (
                <p className="notice">{deletable.error}</p>
              )}
              <OpeningsControl gig={gig} applications={applications} />
            </>
          )}
        </div>
      ) : (
        <div className="apply">
          {myApplication ? (
            <p className={applied ? 'success' : 'notice'} role="status">
              {applied ? APPLIED : APPLY_MESSAGES.alreadyApplied} ({statusLabel(myApplication.status)}
              {isWaiting('applications', myApplication.id) ? ', waiting to sync' : ''})
            </p>
          ) : filled ? (
            <p className="notice">{HIRING_MESSAGES.filled}</p>
          ) : (
            <form className="form" onSubmit={(e) => void apply(e)} noValidate>
              <label>
                Your rate ({currencySymbol(gig.currency)} {gig.currency})
                <input
                  inputMode="decimal"
                  value={rate}
                  onChange={(e) => setRate(e.target.value)}
                  aria-invalid={Boolean(applyError)}
                  aria-describedby={applyError ? `apply-error-${gig.id}` : undefined}
                />
              </label>
              {applyError && (
                <p className="field-error" role="alert" id={`apply-error-${gig.id}`}>
                  {applyError}
                </p>
              )}
              <button type="submit" className="button">
                Apply
              </button>
            </form>
          )}
          <div className="row">
            <button type="button" className="button button--quiet" onClick={() => void converse()}>
              Converse with Creator
            </button>
          </div>
          {converseError && (
            <p className="form-error" role="alert">
              {converseError}
            </p>
          )}
        </div>
      )}
      {confirmDelete && (
        <DeleteGigDialog title={gig.title} onConfirm={() => void remove()} onCancel={() => setConfirmDelete(false)} />
      )}
    </div>
  );
}
