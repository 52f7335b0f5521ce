import { useEffect, useState } from 'react';
import type { Gig } from '../../../shared/schemas/gig';
import type { AppDatabase } from '../../data/database';

export const FIRST_PAGE = 50;

export type BoardData = { gigs: Gig[]; loading: boolean; complete: boolean };

function plain(doc: { toJSON(): unknown }): Gig {
  return doc.toJSON() as Gig;
}

/**
 * The board's gigs, newest first, in two steps measured on this hardware (docs/decisions/008-performance.md):
 * first the newest 50 through the ascending `sortKey` index, which stops at its limit (about
 * 130 ms at 10k gigs after a reload), so the board draws at once; then one live query holding
 * every gig, sorted and filtered in plain JS on each change (about 3 ms per filter change), which
 * keeps the board live. Performance marks `board:first-50` and `board:complete` time both.
 */
export function useGigBoard(db: AppDatabase): BoardData {
  const [state, setState] = useState<BoardData>({ gigs: [], loading: true, complete: false });

  useEffect(() => {
    let live = true;
    let complete = false;
    performance.mark('board:query');
    void db.gigs
      .find({ selector: { sortKey: { $gte: 0 } }, sort: [{ sortKey: 'asc' }], limit: FIRST_PAGE })
      .exec()
      .then((docs) => {
        if (!live || complete) return;
        setState({ gigs: docs.map(plain), loading: false, complete: false });
        performance.mark('board:first-50');
      });
    const sub = db.gigs.find().$.subscribe((docs) => {
      if (!live) return;
      const gigs = docs.map(plain).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
      setState({ gigs, loading: false, complete: true });
      if (!complete) {
        complete = true;
        performance.mark('board:complete');
      }
    });
    return () => {
      live = false;
      sub.unsubscribe();
    };
  }, [db]);

  return state;
}
