import { useEffect, useRef } from 'react';
import type { RatingTally } from '../../../shared/reputation';
import type { Gig } from '../../../shared/schemas/gig';
import { writeBoardCopy, type BoardCopy, type CopySource } from '../../data/board-copy';
import { FIRST_PAGE } from './use-gig-board';

/** A board that keeps changing is copied once it has been still this long (or when the page goes). */
const WRITE_AFTER_MS = 500;

/** What the board shows in its default view, and when each part came from the database. */
export type BoardShown = {
  /** The gigs on the board, newest first (All Gigs, no filters). */
  onBoard: Gig[];
  appliedIds: ReadonlySet<string>;
  buyerRatings: ReadonlyMap<string, RatingTally>;
  received: Record<CopySource, number>;
};

/**
 * Keeps the board's copy (data/board-copy.ts) to what the board shows: written half a second
 * after the board last changed, and at once when the page is hidden or the board leaves. `shown`
 * is null until every part is the database's (the whole board, the user's applications and the
 * public profiles), so a copy is never made of a copy or of a part; the caller keeps `shown` the
 * same object while none of it changes.
 */
export function useBoardCopyWriter(userId: string, shown: BoardShown | null): void {
  const pending = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (!shown) return;
    const write = () => {
      pending.current = null;
      writeBoardCopy(userId, copyOf(shown), shown.received);
    };
    pending.current = write;
    const timer = setTimeout(write, WRITE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [userId, shown]);

  useEffect(() => {
    const flush = () => pending.current?.();
    addEventListener('pagehide', flush);
    return () => {
      removeEventListener('pagehide', flush);
      flush();
    };
  }, []);
}

function copyOf({ onBoard, appliedIds, buyerRatings }: BoardShown): BoardCopy {
  const gigs = onBoard.slice(0, FIRST_PAGE);
  const ratings = new Map<string, RatingTally>();
  for (const g of gigs) {
    const tally = buyerRatings.get(g.createdBy);
    if (tally) ratings.set(g.createdBy, tally);
  }
  return { gigs, applied: gigs.filter((g) => appliedIds.has(g.id)).map((g) => g.id), ratings: [...ratings] };
}
