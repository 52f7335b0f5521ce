import { useEffect, useState } from 'react';
import type { Gig } from '../../../shared/schemas/gig';
import type { LocalData } from '../../data/local-data';

export const FIRST_PAGE = 50;

/**
 * The whole board is handed on at most this often while changes stream in (a sync storing pulled
 * gigs 50 at a time): the first change at once, the latest at the end of each window. Sorting and
 * drawing 10k gigs after every stored chunk cost the first sync of 10k gigs about a second
 * (decision 008); a change on its own is drawn as soon as it is stored.
 */
const BOARD_UPDATE_MS = 200;

export type BoardData = {
  gigs: Gig[];
  loading: boolean;
  complete: boolean;
  /** When the gigs came from the database (performance.now()); absent while they are the board's copy. */
  receivedAt?: number;
};

/**
 * The board's gigs, newest first, in two steps measured on this hardware (docs/decisions/008-performance.md):
 * first the newest 50 through the ascending `sortKey` index, which stops at its limit (20–30 ms
 * at 10k gigs after a reload), so the board draws at once; then, once those are in, one live list
 * of every gig kept from the gigs' changes (`LocalData.observeWhole`), sorted and filtered in plain
 * JS on each change (about 3 ms per filter change), which keeps the board live (handed on at most
 * every BOARD_UPDATE_MS while changes stream in).
 * The second waits for the first: reading 10k gigs at the same time held the first 50 behind it
 * (IndexedDB answers one request after another). Performance marks `board:first-50` and
 * `board:complete` time both. Given the board's copy (`copied`, data/board-copy.ts), the board
 * shows it until every gig is read: the copy is the database's first page (any change deletes it),
 * so the first step is skipped.
 */
export function useGigBoard(local: LocalData, copied?: Gig[]): BoardData {
  const [state, setState] = useState<BoardData>(() =>
    copied?.length ? { gigs: copied, loading: false, complete: false } : { gigs: [], loading: true, complete: false },
  );

  const [fromCopy] = useState(() => !!copied?.length);

  useEffect(() => {
    let live = true;
    let complete = false;
    let sub: { unsubscribe(): void } | undefined;
    const observeWhole = () => {
      if (!live) return;
      sub = local.observeWhole('gigs', BOARD_UPDATE_MS).subscribe((all) => {
        if (!live) return;
        const gigs = all.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
        setState({ gigs, loading: false, complete: true, receivedAt: performance.now() });
        if (!complete) {
          complete = true;
          performance.mark('board:complete');
        }
      });
    };
    performance.mark('board:query');
    if (fromCopy) observeWhole();
    else
      local
        .find('gigs', { selector: { sortKey: { $gte: 0 } }, sort: [{ sortKey: 'asc' }], limit: FIRST_PAGE })
        .then(
          (gigs) => {
            if (!live || complete) return;
            setState({ gigs, loading: false, complete: false, receivedAt: performance.now() });
            performance.mark('board:first-50');
          },
          () => undefined, // the live query below reads every gig anyway
        )
        .finally(observeWhole);
    return () => {
      live = false;
      sub?.unsubscribe();
    };
  }, [local, fromCopy]);

  return state;
}
