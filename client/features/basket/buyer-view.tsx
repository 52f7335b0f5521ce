import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { isSelectable } from '../../../shared/application-machine';
import {
  budgetLabel,
  BUYER_TABS,
  buyerTabsOf,
  isBuyerWorkItem,
  offerLabel,
  shownGigStatus,
  statusLabel,
} from '../../../shared/display';
import { formatMoney } from '../../../shared/money';
import type { Application } from '../../../shared/schemas/application';
import type { Gig } from '../../../shared/schemas/gig';
import { HIRING_MESSAGES, acceptedCount, offersLeft, openingsOf } from '../../../shared/hiring';
import { checkDeleteGig, DELETE_GIG_MESSAGES } from '../../../shared/validation/delete-gig';
import { FINAL_BUDGETS_MISSING, validateFinalBudgets } from '../../../shared/validation/offer';
import { useData } from '../../data/data-provider';
import { useApplicationsToMe, useMyGigs } from '../../data/queries';
import { useOutbox } from '../../ui/hooks';
import { DeleteGigDialog, deleteGig } from '../gigs';
import { sendOffers } from '../applications';
import { BuyerReceipt, MarkComplete, PayForApplication } from '../payments';
import { AutoRelease, BuyerWorkActions, Submissions, WithdrawOffer, WorkState } from '../work';
import { ProfileLink, ReputationLine, ReviewPanel } from '../reviews';
import { Tabs } from '../../ui/tabs';
import { gigPath, PATHS } from '../../../shared/routes';

const OFFERS_SENT = 'Offers sent successfully! Waiting for applicants to accept.';
const OFFERS_FAILED = 'Error sending offers. Please try again.';

/**
 * Accepted work on a gig: pay for it, see the receipt, the submissions and where the money stands,
 * mark it complete or approve it, ask for changes, ask to cancel, dispute (decision 031); once it
 * is finished, review the freelancer (decision 032).
 */
function WorkItem({ application: a, userId, focus }: { application: Application; userId: string; focus: boolean }) {
  return (
    <li className="work-item">
      <p>
        <strong>
          <ProfileLink userId={a.applicantId} name={a.applicantName} />
        </strong>{' '}
        · <span className="status">{statusLabel(a.status)}</span>
        {a.completedAt ? ` · completed ${new Date(a.completedAt).toLocaleDateString()}` : ''}
      </p>
      {a.status === 'PENDING_PAYMENT' && <PayForApplication application={a} />}
      {a.status !== 'PENDING_PAYMENT' && <BuyerReceipt application={a} />}
      <Submissions application={a} />
      <AutoRelease application={a} />
      <WorkState application={a} side="buyer" />
      {a.status === 'IN_PROGRESS' && <MarkComplete application={a} userId={userId} />}
      <BuyerWorkActions application={a} userId={userId} />
      <ReviewPanel application={a} focus={focus} />
    </li>
  );
}

type Tab = (typeof BUYER_TABS)[number];

/** One of the buyer's gigs with its applicants, the offer form and delete. */
function BuyerGig({ gig, applications, focus }: { gig: Gig; applications: Application[]; focus?: string }) {
  const data = useData();
  const isWaiting = useOutbox(data.outbox);
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<ReadonlyMap<string, string>>(new Map());
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const status = shownGigStatus(gig, applications);
  const left = offersLeft(gig, applications);
  const deletable = checkDeleteGig(data.userId, gig, applications);

  async function moveForward() {
    setMessage(null);
    if (selected.size > left) {
      setMessage({ kind: 'error', text: HIRING_MESSAGES.noOpeningLeft });
      return;
    }
    const result = validateFinalBudgets(
      [...selected].map(([applicationId, finalBudget]) => ({ applicationId, finalBudget })),
    );
    if (!result.ok) {
      setMessage({
        kind: 'error',
        text: result.error === FINAL_BUDGETS_MISSING ? FINAL_BUDGETS_MISSING : result.error,
      });
      return;
    }
    try {
      await sendOffers(data, result.budgets);
      setSelected(new Map());
      setMessage({ kind: 'ok', text: OFFERS_SENT });
    } catch {
      setMessage({ kind: 'error', text: OFFERS_FAILED });
    }
  }

  async function remove() {
    setConfirmDelete(false);
    const check = checkDeleteGig(data.userId, gig, applications);
    if (!check.ok) {
      setMessage({ kind: 'error', text: check.error });
      return;
    }
    try {
      await deleteGig(data, gig.id);
    } catch {
      setMessage({ kind: 'error', text: 'Failed to delete gig. Please try again.' });
    }
  }

  const panelId = `applicants-${gig.id}`;
  return (
    <li className="card basket-gig">
      <div className="page-head">
        <h3>
          <Link to={gigPath(gig.id)}>{gig.title}</Link>
        </h3>
        <span className="status">{statusLabel(status)}</span>
      </div>
      <p>
        {gig.category} · {budgetLabel(gig)} · {applications.length} applicant{applications.length === 1 ? '' : 's'}
        {' · '}
        {acceptedCount(applications)} of {openingsOf(gig)} hired
        {isWaiting('gigs', gig.id) ? ' · waiting to sync' : ''}
      </p>
      {gig.filledAt && <p className="notice position-filled">{HIRING_MESSAGES.positionFilled}</p>}
      <div className="row">
        <button
          type="button"
          className="button button--quiet button--small"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide applicants' : 'View applicants'}
        </button>
        {deletable.ok && (
          <button type="button" className="button button--danger button--small" onClick={() => setConfirmDelete(true)}>
            Delete gig
          </button>
        )}
      </div>
      {!deletable.ok && deletable.error === DELETE_GIG_MESSAGES.workUnderWay && (
        <p className="field-state">{deletable.error}</p>
      )}
      {message && (
        <p
          className={message.kind === 'ok' ? 'success' : 'form-error'}
          role={message.kind === 'ok' ? 'status' : 'alert'}
        >
          {message.text}
        </p>
      )}
      {applications.some((a) => isBuyerWorkItem(a.status)) && (
        <ul className="card-list work" aria-label={`Work on ${gig.title}`}>
          {applications
            .filter((a) => isBuyerWorkItem(a.status))
            .map((a) => (
              <WorkItem key={a.id} application={a} userId={data.userId} focus={a.id === focus} />
            ))}
        </ul>
      )}
      {open && (
        <div id={panelId}>
          {applications.length === 0 ? (
            <p className="empty">No applicants yet.</p>
          ) : (
            <>
              <ul className="applicants" aria-label={`Applicants for ${gig.title}`}>
                {applications.map((a) => {
                  const checked = selected.has(a.id);
                  // Never more offers out and accepted than openings.
                  const selectable = isSelectable(a) && (checked || selected.size < left);
                  return (
                    <li key={a.id} className="applicant">
                      <label className="row">
                        <input
                          type="checkbox"
                          checked={checked}
                          disabled={!selectable && !checked}
                          onChange={(e) =>
                            setSelected((s) => {
                              const next = new Map(s);
                              if (e.target.checked) next.set(a.id, '');
                              else next.delete(a.id);
                              return next;
                            })
                          }
                        />
                        <span>
                          <strong>{a.applicantName}</strong> offered {offerLabel(a.budget, a.currency)}
                        </span>
                      </label>
                      <span className="applicant__reputation">
                        <ReputationLine userId={a.applicantId} side="freelancer" /> ·{' '}
                        <ProfileLink userId={a.applicantId} name={`${a.applicantName}’s profile`} />
                      </span>
                      <span className="status">{statusLabel(a.status)}</span>
                      {a.finalBudget !== null && !checked && (
                        <span>Final budget: {formatMoney(a.finalBudget, a.currency)}</span>
                      )}
                      {isWaiting('applications', a.id) && <span className="field-state">Waiting to sync</span>}
                      {a.status === 'PENDING_ACCEPTANCE' && !checked && <WithdrawOffer application={a} />}
                      {checked && (
                        <label className="row">
                          Final budget ({a.currency})
                          <input
                            type="text"
                            inputMode="decimal"
                            value={selected.get(a.id)}
                            onChange={(e) => setSelected((s) => new Map(s).set(a.id, e.target.value))}
                            aria-label={`Final budget for ${a.applicantName}`}
                          />
                        </label>
                      )}
                    </li>
                  );
                })}
              </ul>
              {left === 0 && applications.some(isSelectable) && (
                <p className="field-state">
                  {gig.filledAt
                    ? `${HIRING_MESSAGES.positionFilled}. Add openings on the gig's page to hire more.`
                    : HIRING_MESSAGES.noOpeningLeft}
                </p>
              )}
              <button
                type="button"
                className="button"
                onClick={() => void moveForward()}
                disabled={selected.size === 0}
              >
                Send offers
              </button>
            </>
          )}
        </div>
      )}
      {confirmDelete && (
        <DeleteGigDialog title={gig.title} onConfirm={() => void remove()} onCancel={() => setConfirmDelete(false)} />
      )}
    </li>
  );
}

/**
 * The basket's buyer view (docs/product.md §2): the user's gigs under All Gigs, In Progress and
 * Completed. `focus` names work whose reviews to bring into view (a review notification).
 */
export function BuyerView({ focus }: { focus?: string }) {
  const [tab, setTab] = useState<Tab>('All Gigs');
  const gigsQuery = useMyGigs();
  const appsQuery = useApplicationsToMe();
  const byGig = useMemo(() => {
    const map = new Map<string, Application[]>();
    for (const a of appsQuery.data ?? []) {
      map.set(a.gigId, [...(map.get(a.gigId) ?? []), a]);
    }
    for (const list of map.values()) list.sort((x, y) => x.appliedAt - y.appliedAt);
    return map;
  }, [appsQuery.data]);
  const gigs = gigsQuery.data ?? [];
  const shown = gigs.filter((g) => buyerTabsOf(g, byGig.get(g.id) ?? []).includes(tab));

  return (
    <section aria-label="Gigs I posted">
      <Tabs label="Buyer tabs" tabs={BUYER_TABS} selected={tab} onSelect={setTab} />
      {gigsQuery.loading ? (
        <p role="status">Loading your gigs…</p>
      ) : shown.length === 0 ? (
        <p className="empty">
          {gigs.length === 0 ? (
            <>
              You haven't posted any gigs yet. <Link to={`${PATHS.landing}?openModal=true`}>Create a gig</Link>
            </>
          ) : (
            `No gigs under ${tab}.`
          )}
        </p>
      ) : (
        <ul className="card-list">
          {shown.map((g) => (
            <BuyerGig key={g.id} gig={g} applications={byGig.get(g.id) ?? []} focus={focus} />
          ))}
        </ul>
      )}
    </section>
  );
}
