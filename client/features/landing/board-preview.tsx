import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { readBoardCopy } from '../../data/board-copy';
import { BoardCards } from './board-cards';
import { BoardSkeleton, DisabledBoardControls } from './board-controls';

/** The longest the user's data waits for the board's copy to be on screen before it opens. */
export const PREVIEW_WAIT_MS = 500;

/**
 * When the board's copy is there to draw (a reload of `/landing`), what the data's opening waits
 * for: the copy's cards on screen (`painted`, given to the preview as `onPainted`), or
 * PREVIEW_WAIT_MS at most (a tab in the background paints nothing). The copy is what the user
 * sees first; RxDB's modules, requested after it, no longer compete with it (decision 008).
 * Null without a copy: the data opens at once.
 */
export function previewGate(userId: string): { opened: Promise<void>; painted: () => void } | null {
  if (!readBoardCopy(userId)?.gigs.length) return null;
  let painted!: () => void;
  const opened = new Promise<void>((resolve) => {
    painted = resolve;
    setTimeout(resolve, PREVIEW_WAIT_MS);
  });
  return { opened, painted };
}

/**
 * The board while the user's database opens after a reload: its first page as the board last
 * showed it (data/board-copy.ts), with the controls not yet in use; the board itself takes over
 * with the same cards once the data is open. Without a copy, the skeleton ("Loading gigs…").
 */
export function BoardPreview({ userId, onPainted }: { userId: string; onPainted?: () => void }) {
  // Drawn in a render of its own, after the shell's first paint: one long task split in two.
  const [copy, setCopy] = useState<ReturnType<typeof readBoardCopy>>(null);
  useEffect(() => startTransition(() => setCopy(readBoardCopy(userId))), [userId]);
  const drawn = !!copy?.gigs.length;
  useLayoutEffect(() => {
    if (drawn) performance.mark('board:first-50');
  }, [drawn]);
  // Once the cards are on screen: the frame that shows them is painted before the callback runs.
  useEffect(() => {
    if (!drawn || !onPainted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(onPainted, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [drawn, onPainted]);
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
