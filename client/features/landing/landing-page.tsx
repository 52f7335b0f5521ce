import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { countriesInGigs, EMPTY_STATES, filterGigs, NO_FILTERS, type GigFilters } from '../../../shared/display';
import { onBoardFor } from '../../../shared/hiring';
import {
  asBuyer,
  byBuyerRating,
  meetsMinRating,
  type BoardSort,
  type MinRating,
  type RatingTally,
} from '../../../shared/reputation';
import type { Gig } from '../../../shared/schemas/gig';
import { readBoardCopy } from '../../data/board-copy';
import { useData, useFirstSyncUnderWay } from '../../data/data-provider';
import { useMyApplications, usePublicProfiles } from '../../data/queries';
import { useOutbox } from '../../ui/hooks';
import { Modal } from '../../ui/modal';
import { CreateGigPanel } from '../create-gig';
import { GigDetails } from '../gigs';
import { BoardCards } from './board-cards';
import { useBoardCopyWriter } from './board-copy-writer';
import { BoardControls, type BoardTab } from './board-controls';
import { useGigBoard } from './use-gig-board';

/**
 * The gig board (docs/product.md §2 "Landing board"): tabs All Gigs and Applied To, filters for niches,
 * location types and countries, a search box, cards that open the gig modal; newest first and
 * live from the local database, so it works offline. `?openModal=true` opens the create-gig modal.
 * It starts from the board's copy when there is one (the preview showed it while the data opened)
 * until the database's answers come, and keeps that copy to what it shows.
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
  const [copy] = useState(() => readBoardCopy(userId));
  const board = useGigBoard(local, copy?.gigs);
  const mineQuery = useMyApplications();
  // A new device says it is loading, never that nothing matches, while the gigs (and, for
  // Applied To, the user's applications) are still on the way.
  const gigsOnTheWay = useFirstSyncUnderWay('gigs');
  const applicationsOnTheWay = useFirstSyncUnderWay('applications');
  // Each creator's rating as a buyer, from the public profiles this device holds (every gig creator's).
  const profiles = usePublicProfiles();
  const buyerRatings = useMemo(() => {
    if (!profiles.data && copy) return new Map(copy.ratings);
    const byId = new Map<string, RatingTally>();
    for (const u of profiles.data ?? []) if (u.reputation) byId.set(u.id, asBuyer(u.reputation));
    return byId;
  }, [profiles.data, copy]);

  const gigs = board.gigs;
  const appliedIds = useMemo(
    () => (!mineQuery.data && copy ? new Set(copy.applied) : new Set((mineQuery.data ?? []).map((a) => a.gigId))),
    [mineQuery.data, copy],
  );
  // A filled gig stays on the board only for its creator and its applicants (the server refuses
  // new applications to it anyway; this keeps it out of everyone else's way).
  const onBoard = useMemo(() => gigs.filter((g) => onBoardFor(g, userId, appliedIds)), [gigs, userId, appliedIds]);
  const countries = useMemo(() => countriesInGigs(onBoard), [onBoard]);
  useBoardCopyWriter(
    userId,
    useMemo(
      () =>
        board.complete &&
        board.receivedAt !== undefined &&
        mineQuery.receivedAt !== undefined &&
        profiles.receivedAt !== undefined
          ? {
              onBoard,
              appliedIds,
              buyerRatings,
              received: { gigs: board.receivedAt, applications: mineQuery.receivedAt, users: profiles.receivedAt },
            }
          : null,
      [board.complete, board.receivedAt, mineQuery.receivedAt, profiles.receivedAt, onBoard, appliedIds, buyerRatings],
    ),
  );
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
        <BoardCards
          gigs={shown}
          complete={board.complete}
          appliedIds={appliedIds}
          buyerRatings={buyerRatings}
          isWaiting={(id) => isWaiting('gigs', id)}
          onOpen={setOpenGigId}
        />
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
