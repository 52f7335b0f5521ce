import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { NICHES } from '../../../shared/constants';
import { budgetLabel, countriesInGigs, EMPTY_STATES, filterGigs, NO_FILTERS, skillPreview, type GigFilters } from '../../../shared/display';
import type { Gig } from '../../../shared/schemas/gig';
import { useData } from '../../data/data-provider';
import { useLive } from '../../data/use-live-query';
import { useOutbox } from '../../ui/hooks';
import { Modal } from '../../ui/modal';
import { CreateGigPanel } from '../create-gig/create-gig-page';
import { GigDetails } from '../gigs/gig-details';
import { useGigBoard } from './use-gig-board';
import { VirtualGrid } from './virtual-grid';

/** Card geometry shared with the stylesheet (.gig-card has a fixed height for the windowed grid). */
const CARD = { rowHeight: 216, minColumn: 260, gap: 16 };

type Tab = 'all' | 'applied';

function toggle<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((x) => x !== value) : [...list, value];
}

/**
 * The gig board (SPEC.md §2 "Landing board"): tabs All Gigs and Applied To, filters for niches,
 * location types and countries, a search box, cards that open the gig modal; newest first and
 * live from the local database, so it works offline. `?openModal=true` opens the create-gig modal.
 */
export default function LandingPage() {
  const { db, outbox, userId } = useData();
  const isWaiting = useOutbox(outbox);
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<Tab>('all');
  const [filters, setFilters] = useState<GigFilters>(NO_FILTERS);
  const [openGigId, setOpenGigId] = useState<string | null>(null);
  const board = useGigBoard(db);
  const mineQuery = useLive(() => db.applications.find({ selector: { applicantId: userId } }).$, [db, userId]);

  const gigs = board.gigs;
  const appliedIds = useMemo(() => new Set((mineQuery.data ?? []).map((a) => a.gigId)), [mineQuery.data]);
  const countries = useMemo(() => countriesInGigs(gigs), [gigs]);
  const shown = useMemo(() => filterGigs(tab === 'applied' ? gigs.filter((g) => appliedIds.has(g.id)) : gigs, filters), [gigs, tab, appliedIds, filters]);
  const openGig: Gig | undefined = openGigId ? gigs.find((g) => g.id === openGigId) : undefined;
  const createOpen = params.get('openModal') === 'true';
  const closeCreate = () => {
    const next = new URLSearchParams(params);
    next.delete('openModal');
    setParams(next, { replace: true });
  };
  const filtered = filters.niches.length + filters.locationTypes.length + filters.countries.length > 0 || filters.search.trim() !== '';

  return (
    <main className="page">
      <div className="page-head">
        <h1>Gigs</h1>
        <div className="row">
          <Link className="button" to="/landing?openModal=true">
            Create Gig
          </Link>
        </div>
      </div>

      <div className="tabs" role="tablist" aria-label="Gig lists">
        {(
          [
            ['all', 'All Gigs'],
            ['applied', 'Applied To'],
          ] as const
        ).map(([id, label]) => (
          <button key={id} type="button" role="tab" className="tab" aria-selected={tab === id} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>

      <input
        type="search"
        className="search"
        placeholder="Search gigs by title, description, skills or category"
        aria-label="Search gigs"
        value={filters.search}
        onChange={(e) => setFilters((f) => ({ ...f, search: e.target.value }))}
      />

      <div className="filters">
        <fieldset>
          <legend>Niches</legend>
          {NICHES.map((n) => (
            <label key={n.id}>
              <input type="checkbox" checked={filters.niches.includes(n.name)} onChange={() => setFilters((f) => ({ ...f, niches: toggle(f.niches, n.name) }))} />
              {n.name}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Location</legend>
          {(
            [
              ['remote', 'Remote'],
              ['in-person', 'In person'],
            ] as const
          ).map(([value, label]) => (
            <label key={value}>
              <input
                type="checkbox"
                checked={filters.locationTypes.includes(value)}
                onChange={() =>
                  setFilters((f) => {
                    const locationTypes = toggle(f.locationTypes, value);
                    return { ...f, locationTypes, countries: locationTypes.includes('in-person') ? f.countries : [] };
                  })
                }
              />
              {label}
            </label>
          ))}
        </fieldset>
        {filters.locationTypes.includes('in-person') && (
          <fieldset>
            <legend>Countries</legend>
            {countries.length === 0 && <span className="field-state">No in-person gigs loaded</span>}
            {countries.map((c) => (
              <label key={c.code}>
                <input type="checkbox" checked={filters.countries.includes(c.code)} onChange={() => setFilters((f) => ({ ...f, countries: toggle(f.countries, c.code) }))} />
                {c.name}
              </label>
            ))}
          </fieldset>
        )}
        <button type="button" className="button button--quiet button--small" onClick={() => setFilters(NO_FILTERS)} disabled={!filtered}>
          Reset Filters
        </button>
      </div>

      {board.loading ? (
        <p role="status">Loading gigs…</p>
      ) : shown.length === 0 ? (
        board.complete ? (
          <p className="empty">{tab === 'applied' && appliedIds.size === 0 ? EMPTY_STATES.appliedTo : EMPTY_STATES.allGigs}</p>
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
                  <p className="gig-card__budget">{budgetLabel(gig)}</p>
                  <p className="gig-card__skills">
                    {skills.shown.map((s) => (
                      <span key={s} className="chip">
                        {s}
                      </span>
                    ))}
                    {skills.moreLabel && <span className="chip chip--more">{skills.moreLabel}</span>}
                  </p>
                  {appliedIds.has(gig.id) && <span className="status">Applied</span>}
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
