import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  budgetLabel,
  countriesInGigs,
  EMPTY_STATES,
  filterGigs,
  NO_FILTERS,
  skillPreview,
  type GigFilters,
} from '../../../shared/display';
import { HIRING_MESSAGES, onBoardFor } from '../../../shared/hiring';
import {
  asBuyer,
  averageRating,
  byBuyerRating,
  meetsMinRating,
  type BoardSort,
  type MinRating,
  type RatingTally,
} from '../../../shared/reputation';
import type { Gig } from '../../../shared/schemas/gig';
import { useData, useFirstSyncUnderWay } from '../../data/data-provider';
import { useMyApplications, usePublicProfiles } from '../../data/queries';
import { useOutbox } from '../../ui/hooks';
import { Modal } from '../../ui/modal';
import { CreateGigPanel } from '../create-gig';
import { GigDetails } from '../gigs';
import { BoardControls, type BoardTab } from './board-controls';
import { useGigBoard } from './use-gig-board';
import { VirtualGrid } from './virtual-grid';

/** Card geometry shared with the stylesheet (.gig-card has a fixed height for the windowed grid). */
const CARD = { rowHeight: 216, minColumn: 260, gap: 16 };

/**
 * The gig board (docs/product.md §2 "Landing board"): tabs All Gigs and Applied To, filters for niches,
 * location types and countries, a search box, cards that open the gig modal; newest first and
 * live from the local database, so it works offline. `?openModal=true` opens the create-gig modal.
 */
export default function LandingPage() {
  const { local, outbox, userId } = useData();
  const isWaiting = useOutbox(outbox);
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<BoardTab>('all');
  const [filters, setFilters] = useState<GigFilters>(NO_FILTERS);
  const [sort, setSort] = useState<BoardSort>('newest');
  const [minRating, setMinRating] = useState<MinRating>(null);
  const [openGigId, setOpenGigId] = useState<string | null>(null);
  const board = useGigBoard(local);
  const mineQuery = useMyApplications();
  // A new device says it is loading, never that nothing matches, while the gigs (and, for
  // Applied To, the user's applications) are still on the way.
  const gigsOnTheWay = useFirstSyncUnderWay('gigs');
  const applicationsOnTheWay = useFirstSyncUnderWay('applications');
  // Each creator's rating as a buyer, from the public profiles this device holds (every gig creator's).
  const profiles = usePublicProfiles();
  const buyerRatings = useMemo(() => {
    const byId = new Map<string, RatingTally>();
    for (const u of profiles.data ?? []) if (u.reputation) byId.set(u.id, asBuyer(u.reputation));
    return byId;
  }, [profiles.data]);

  const gigs = board.gigs;
  const appliedIds = useMemo(() => new Set((mineQuery.data ?? []).map((a) => a.gigId)), [mineQuery.data]);
  // A filled gig stays on the board only for its creator and its applicants (the server refuses
  // new applications to it anyway; this keeps it out of everyone else's way).
  const onBoard = useMemo(() => gigs.filter((g) => onBoardFor(g, userId, appliedIds)), [gigs, userId, appliedIds]);
  const countries = useMemo(() => countriesInGigs(onBoard), [onBoard]);
  // The board by buyer rating, sorted once the user first asks for it and again only when the gigs
  // or the ratings change: switching the order back and forth, or filtering, sorts nothing
  // (filters keep the order they are given).
  const [rankByRating, setRankByRating] = useState(false);
  const onBoardByRating = useMemo(
    () => (rankByRating ? byBuyerRating(onBoard, (id) => buyerRatings.get(id)) : onBoard),
    [rankByRating, onBoard, buyerRatings],
  );
  const chooseSort = (next: BoardSort) => {
    if (next === 'best-rated') setRankByRating(true);
    setSort(next);
  };
  const shown = useMemo(() => {
    const ratingOf = (creatorId: string) => buyerRatings.get(creatorId);
    const byRating = sort === 'best-rated';
    const base = tab === 'applied' ? gigs.filter((g) => appliedIds.has(g.id)) : byRating ? onBoardByRating : onBoard;
    let list = filterGigs(base, filters);
    if (minRating !== null) list = list.filter((g) => meetsMinRating(ratingOf(g.createdBy), minRating));
    // (The Applied To tab is short: sorted as it is shown.)
    return byRating && tab === 'applied' ? byBuyerRating(list, ratingOf) : list;
  }, [gigs, onBoard, onBoardByRating, tab, appliedIds, filters, minRating, sort, buyerRatings]);
  const openGig: Gig | undefined = openGigId ? gigs.find((g) => g.id === openGigId) : undefined;
  const createOpen = params.get('openModal') === 'true';
  const closeCreate = () => {
    const next = new URLSearchParams(params);
    next.delete('openModal');
    setParams(next, { replace: true });
  };

  return (
    <main className="page">
      <BoardControls
        tab={tab}
        onTab={setTab}
        filters={filters}
        onFilters={setFilters}
        countries={countries}
        sort={sort}
        onSort={chooseSort}
        minRating={minRating}
        onMinRating={setMinRating}
      />

      {board.loading ? (
        <p role="status">Loading gigs…</p>
      ) : shown.length === 0 ? (
        board.complete && !gigsOnTheWay && !(tab === 'applied' && applicationsOnTheWay) ? (
          <p className="empty">
            {tab === 'applied' && appliedIds.size === 0 ? EMPTY_STATES.appliedTo : EMPTY_STATES.allGigs}
          </p>
        ) : (
          <p role="status">Loading gigs…</p>
        )
      ) : (
        <>
          <p className="field-state" aria-live="polite">
            {board.complete ? `${shown.length} gig${shown.length === 1 ? '' : 's'}` : 'Loading more gigs…'}
          </p>
          <VirtualGrid
            items={shown}
            label="Gigs"
            {...CARD}
            itemKey={(gig) => gig.id}
            renderItem={(gig) => {
              const skills = skillPreview(gig.skills);
              return (
                <li className="gig-card gig-card--clickable" onClick={() => setOpenGigId(gig.id)}>
                  <p className="gig-card__category">{gig.category}</p>
                  <h2 className="gig-card__title">
                    <button
                      type="button"
                      className="gig-card__open"
                      aria-haspopup="dialog"
                      onClick={(e) => {
                        e.stopPropagation();
                        setOpenGigId(gig.id);
                      }}
                    >
                      {gig.title}
                    </button>
                  </h2>
                  <p className="gig-card__budget">
                    {budgetLabel(gig)}
                    <BuyerRating tally={buyerRatings.get(gig.createdBy)} />
                  </p>
                  <p className="gig-card__skills">
                    {skills.shown.map((s) => (
                      <span key={s} className="chip">
                        {s}
                      </span>
                    ))}
                    {skills.moreLabel && <span className="chip chip--more">{skills.moreLabel}</span>}
                  </p>
                  {appliedIds.has(gig.id) && <span className="status">Applied</span>}
                  {gig.filledAt && <span className="status">{HIRING_MESSAGES.positionFilled}</span>}
                  {isWaiting('gigs', gig.id) && <p className="gig-card__pending">Waiting to sync</p>}
                </li>
              );
            }}
          />
        </>
      )}

      {openGig && (
        <Modal title={openGig.title} onClose={() => setOpenGigId(null)} wide>
          <GigDetails gig={openGig} onDeleted={() => setOpenGigId(null)} />
        </Modal>
      )}
      {createOpen && (
        <Modal title="Create a gig" onClose={closeCreate} wide>
          <CreateGigPanel variant="modal" onCreated={closeCreate} />
        </Modal>
      )}
    </main>
  );
}

/** The creator's rating as a buyer on a gig card, when they have one: "★ 4.8". */
function BuyerRating({ tally }: { tally: RatingTally | undefined }) {
  const avg = tally ? averageRating(tally) : null;
  if (avg === null || !tally) return null;
  return (
    <span className="gig-card__rating">
      <span aria-hidden="true"> · ★ {avg.toFixed(1)}</span>
      <span className="visually-hidden">
        , buyer rated {avg.toFixed(1)} out of 5 from {tally.count} review{tally.count === 1 ? '' : 's'}
      </span>
    </span>
  );
}
