import { useState, type Dispatch, type SetStateAction } from 'react';
import { Link } from 'react-router-dom';
import { NICHES } from '../../../shared/constants';
import { NO_FILTERS, type GigFilters } from '../../../shared/display';
import { BOARD_SORTS, MIN_RATINGS, minRatingLabel, type BoardSort, type MinRating } from '../../../shared/reputation';
import { Tabs } from '../../ui/tabs';
import { PATHS } from '../../../shared/routes';

export type BoardTab = 'all' | 'applied';
const BOARD_TABS = [
  ['all', 'All Gigs'],
  ['applied', 'Applied To'],
] as const;

function toggle<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((x) => x !== value) : [...list, value];
}

type Props = {
  tab: BoardTab;
  onTab: (tab: BoardTab) => void;
  filters: GigFilters;
  onFilters: Dispatch<SetStateAction<GigFilters>>;
  countries: { code: string; name: string }[];
  /** The board's order: newest first, or best rated buyers first (decision 032). */
  sort: BoardSort;
  onSort: (sort: BoardSort) => void;
  /** Only gigs whose buyer is rated at least this (null: any). */
  minRating: MinRating;
  onMinRating: (min: MinRating) => void;
  /** While the database opens: drawn in place, not yet usable. */
  disabled?: boolean;
};

/** The board's heading, tabs, search and filters (docs/product.md §2 "Landing board"). */
export function BoardControls({
  tab,
  onTab,
  filters,
  onFilters,
  countries,
  sort,
  onSort,
  minRating,
  onMinRating,
  disabled = false,
}: Props) {
  const active =
    filters.niches.length + filters.locationTypes.length + filters.countries.length + (minRating === null ? 0 : 1);
  const filtered = active > 0 || filters.search.trim() !== '';
  // On a phone the filters sit behind a disclosure so the first gigs show on the first screen; the
  // button, shown only there (app.css), counts the active ones.
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="page-head">
        <h1>Gigs</h1>
        <div className="row">
          <Link className="button" to={`${PATHS.landing}?openModal=true`}>
            Create Gig
          </Link>
        </div>
      </div>

      <Tabs label="Gig lists" tabs={BOARD_TABS} selected={tab} onSelect={onTab} disabled={disabled} />

      <input
        type="search"
        className="search"
        placeholder="Search gigs by title, description, skills or category"
        aria-label="Search gigs"
        value={filters.search}
        onChange={(e) => onFilters((f) => ({ ...f, search: e.target.value }))}
        disabled={disabled}
      />

      <label className="board-sort">
        Sort by{' '}
        <select value={sort} onChange={(e) => onSort(e.target.value as BoardSort)} disabled={disabled}>
          {BOARD_SORTS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>

      <button
        type="button"
        className="button button--quiet button--small filters-toggle"
        aria-expanded={open}
        aria-controls="board-filters"
        onClick={() => setOpen((o) => !o)}
      >
        {active > 0 ? `Filters (${active})` : 'Filters'}
      </button>

      <div className={open ? 'filters filters--open' : 'filters'} id="board-filters">
        <fieldset>
          <legend>Niches</legend>
          {NICHES.map((n) => (
            <label key={n.id}>
              <input
                type="checkbox"
                disabled={disabled}
                checked={filters.niches.includes(n.name)}
                onChange={() => onFilters((f) => ({ ...f, niches: toggle(f.niches, n.name) }))}
              />
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
                disabled={disabled}
                checked={filters.locationTypes.includes(value)}
                onChange={() =>
                  onFilters((f) => {
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
                <input
                  type="checkbox"
                  disabled={disabled}
                  checked={filters.countries.includes(c.code)}
                  onChange={() => onFilters((f) => ({ ...f, countries: toggle(f.countries, c.code) }))}
                />
                {c.name}
              </label>
            ))}
          </fieldset>
        )}
        <fieldset>
          <legend>Buyer rating</legend>
          <label>
            <span className="visually-hidden">Minimum buyer rating</span>
            <select
              value={minRating === null ? '' : String(minRating)}
              onChange={(e) => onMinRating(e.target.value === '' ? null : (Number(e.target.value) as MinRating))}
              disabled={disabled}
            >
              {MIN_RATINGS.map((min) => (
                <option key={String(min)} value={min === null ? '' : String(min)}>
                  {minRatingLabel(min)}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
        <button
          type="button"
          className="button button--quiet button--small"
          onClick={() => {
            onFilters(NO_FILTERS);
            onMinRating(null);
          }}
          disabled={disabled || !filtered}
        >
          Reset Filters
        </button>
      </div>
    </>
  );
}

/** The board's controls before the board can use them (they look the same, and do nothing yet). */
export function DisabledBoardControls() {
  return (
    <BoardControls
      tab="all"
      onTab={() => undefined}
      filters={NO_FILTERS}
      onFilters={() => undefined}
      countries={[]}
      sort="newest"
      onSort={() => undefined}
      minRating={null}
      onMinRating={() => undefined}
      disabled
    />
  );
}

/**
 * The board as it first paints, before the database is open: the same controls in the same
 * places, so the page's largest element is drawn at once and nothing moves when the gigs arrive.
 */
export function BoardSkeleton() {
  return (
    <main className="page">
      <DisabledBoardControls />
      <p role="status">Loading gigs…</p>
    </main>
  );
}
