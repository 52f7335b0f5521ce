import type { Observable } from 'rxjs';
import type { RatingTally } from '../../shared/reputation';
import type { Gig } from '../../shared/schemas/gig';
import { deviceKeys } from './device-storage';

/**
 * The board's first page as the board last showed it, kept in localStorage for a reload to draw
 * before the database has opened (decision 033). The one exception to "RxDB's data is never
 * copied into a second store", and held to it as far as it can be:
 * - it is only ever drawn until the database answers, then the board's own query replaces it;
 * - any change to the gigs, the applications or the public profiles deletes it at once (in every
 *   tab: RxDB delivers other tabs' changes too), and only the board writes it again, from what it
 *   has drawn since; a copy computed before the latest change is not written;
 * - it is per user and deleted with the rest of the user's device data (sign-out, "Reset this
 *   device"), being one of `deviceKeys`.
 */
export type BoardCopy = {
  /** The first gigs of the board in its default view (All Gigs, newest first, no filters). */
  gigs: Gig[];
  /** Which of those gigs the user applied to (the cards' "Applied"). */
  applied: string[];
  /** The creators' ratings as buyers, for those gigs' cards. */
  ratings: [creatorId: string, tally: RatingTally][];
};

const VERSION = 1;

/** The collections a copy is made of. */
export type CopySource = 'gigs' | 'applications' | 'users';

/** When this tab last saw a change to each collection the copy is made of (performance.now()). */
const lastChangeAt: Record<CopySource, number> = { gigs: -Infinity, applications: -Infinity, users: -Infinity };

/** The users whose data is open (and watched) in this tab: only they have their copy written. */
const watching = new Map<string, number>();

function keyOf(userId: string): string {
  return deviceKeys(userId).boardCopy;
}

/** The last copy read, by its stored text: the preview and the board read it once between them. */
let lastRead: { raw: string; copy: BoardCopy | null } | undefined;

/** The user's copy, or null when there is none or it is not one this version wrote. */
export function readBoardCopy(userId: string): BoardCopy | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(keyOf(userId));
  } catch {
    return null;
  }
  if (!raw) return null;
  if (lastRead?.raw !== raw) lastRead = { raw, copy: parse(raw) };
  return lastRead.copy;
}

function parse(raw: string): BoardCopy | null {
  try {
    const value = JSON.parse(raw) as { v?: unknown } & Partial<BoardCopy>;
    if (value.v !== VERSION || !Array.isArray(value.gigs) || !Array.isArray(value.applied) || !Array.isArray(value.ratings))
      return null;
    if (!value.gigs.every((g) => typeof g === 'object' && g !== null && typeof g.id === 'string')) return null;
    return { gigs: value.gigs, applied: value.applied, ratings: value.ratings };
  } catch {
    return null;
  }
}

/**
 * Writes the copy the board made from query results received at `received` (performance.now(),
 * per collection), unless a collection changed after its result came (the board is drawn again
 * once its query has that change, and writes then), or the user's data is closed in this tab (it
 * may be being deleted: a sign-out). True when written.
 */
export function writeBoardCopy(userId: string, copy: BoardCopy, received: Record<CopySource, number>): boolean {
  if (!watching.get(userId)) return false;
  if ((Object.keys(lastChangeAt) as CopySource[]).some((c) => received[c] < lastChangeAt[c])) return false;
  try {
    localStorage.setItem(keyOf(userId), JSON.stringify({ v: VERSION, ...copy }));
    return true;
  } catch {
    return false; // storage full or unavailable: the board is drawn from the database, as without a copy
  }
}

function dropBoardCopy(userId: string): void {
  try {
    localStorage.removeItem(keyOf(userId));
  } catch {
    // Storage unavailable: there is no copy either.
  }
}

/** A change stream, and which of its events concern the board (all when `counts` is absent). */
export type Watched<E> = { changes: Observable<E>; counts?: (event: E) => boolean };

/**
 * Deletes the copy whenever a change it counts comes on one of the open database's change
 * streams (its gigs, the user's applications, the public profiles), once per burst of events (a stored chunk of a sync is
 * one burst). The copy is written only while it is watched. Returns the unsubscribe.
 */
export function watchBoardCopy<G, A, U>(
  userId: string,
  sources: { gigs: Watched<G>; applications: Watched<A>; users: Watched<U> },
): () => void {
  let queued = false;
  const drop = (source: CopySource) => {
    lastChangeAt[source] = performance.now();
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      dropBoardCopy(userId);
    });
  };
  const watch = <E>(source: CopySource, { changes, counts }: Watched<E>) =>
    changes.subscribe((event) => {
      if (!counts || counts(event)) drop(source);
    });
  const subs = [watch('gigs', sources.gigs), watch('applications', sources.applications), watch('users', sources.users)];
  watching.set(userId, (watching.get(userId) ?? 0) + 1);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    subs.forEach((s) => s.unsubscribe());
    const left = (watching.get(userId) ?? 1) - 1;
    if (left > 0) watching.set(userId, left);
    else watching.delete(userId);
  };
}
