import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { readBoardCopy } from '../../data/board-copy';
import { BoardCards } from './board-cards';
import { BoardSkeleton, DisabledBoardControls } from './board-controls';

/**
 * The board while the user's database opens after a reload: its first page as the board last
 * showed it (data/board-copy.ts), with the controls not yet in use; the board itself takes over
 * with the same cards once the data is open. Without a copy, the skeleton ("Loading gigs…").
 */
export function BoardPreview({ userId }: { userId: string }) {
  // Drawn in a render of its own, after the shell's first paint: one long task split in two.
  const [copy, setCopy] = useState<ReturnType<typeof readBoardCopy>>(null);
  useEffect(() => startTransition(() => setCopy(readBoardCopy(userId))), [userId]);
  const drawn = !!copy?.gigs.length;
  useLayoutEffect(() => {
    if (drawn) performance.mark('board:first-50');
  }, [drawn]);
  if (!copy || !drawn) return <BoardSkeleton />;
  return (
    <main className="page" data-board-copy="">
      <DisabledBoardControls />
      <BoardCards
        gigs={copy.gigs}
        complete={false}
        appliedIds={new Set(copy.applied)}
        buyerRatings={new Map(copy.ratings)}
      />
    </main>
  );
}
