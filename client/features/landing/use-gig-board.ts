import { useEffect, useState } from 'react';
import type { Gig } from '../../../shared/schemas/gig';
import type { LocalData } from '../../data/local-data';

export const FIRST_PAGE = 50;

export type BoardData = { gigs: Gig[]; loading: boolean; complete: boolean };

/**
 * The board's gigs, newest first, in two steps measured on this hardware (docs/decisions/008-performance.md):
 * first the newest 50 through the ascending `sortKey` index, which stops at its limit (about
 * 130 ms at 10k gigs after a reload), so the board draws at once; then one live query holding
 * every gig, sorted and filtered in plain JS on each change (about 3 ms per filter change), which
 * keeps the board live. Performance marks `board:first-50` and `board:complete` time both.
 */
export function useGigBoard(local: LocalData): BoardData {
  const [state, setState] = useState<BoardData>({ gigs: [], loading: true, complete: false });

  useEffect(() => {
    let live = true;
    let complete = false;
    performance.mark('board:query');
    void local
      .find('gigs', { selector: { sortKey: { $gte: 0 } }, sort: [{ sortKey: 'asc' }], limit: FIRST_PAGE })
      .then((gigs) => {
        if (!live || complete) return;
        setState({ gigs, loading: false, complete: false });
        performance.mark('board:first-50');
      });
    const sub = local.observeAll('gigs').subscribe((all) => {
      if (!live) return;
      const gigs = all.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
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
  }, [local]);

  return state;
}
