import { budgetLabel, skillPreview } from '../../../shared/display';
import { HIRING_MESSAGES } from '../../../shared/hiring';
import { averageRating, type RatingTally } from '../../../shared/reputation';
import type { Gig } from '../../../shared/schemas/gig';
import { VirtualGrid } from './virtual-grid';

/** Card geometry shared with the stylesheet (.gig-card has a fixed height for the windowed grid). */
const CARD = { rowHeight: 216, minColumn: 260, gap: 16 };

/**
 * The board's count line and its windowed grid of gig cards: drawn by the board, and by its
 * preview from the board's copy while the database opens (board-preview.tsx), alike.
 */
export function BoardCards({
  gigs,
  complete,
  appliedIds,
  buyerRatings,
  isWaiting,
  onOpen,
}: {
  gigs: Gig[];
  /** Every gig is in (else the first page only: "Loading more gigs…"). */
  complete: boolean;
  appliedIds: ReadonlySet<string>;
  buyerRatings: ReadonlyMap<string, RatingTally>;
  /** The gig has changes waiting to sync. */
  isWaiting?: (gigId: string) => boolean;
  /** Opens the gig; absent, the cards do nothing yet (the preview). */
  onOpen?: (gigId: string) => void;
}) {
  return (
    <>
      <p className="field-state" aria-live="polite">
        {complete ? `${gigs.length} gig${gigs.length === 1 ? '' : 's'}` : 'Loading more gigs…'}
      </p>
      <VirtualGrid
        items={gigs}
        label="Gigs"
        {...CARD}
        itemKey={(gig) => gig.id}
        renderItem={(gig) => {
          const skills = skillPreview(gig.skills);
          return (
            <li className="gig-card gig-card--clickable" onClick={() => onOpen?.(gig.id)}>
              <p className="gig-card__category">{gig.category}</p>
              <h2 className="gig-card__title">
                <button
                  type="button"
                  className="gig-card__open"
                  aria-haspopup="dialog"
                  onClick={(e) => {
                    e.stopPropagation();
                    onOpen?.(gig.id);
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
              {isWaiting?.(gig.id) && <p className="gig-card__pending">Waiting to sync</p>}
            </li>
          );
        }}
      />
    </>
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
