import type { RxConflictHandler, WithDeleted } from 'rxdb';
import { lateMoveRefusal, normalizeStatus } from '../../shared/application-machine';
import { sanitizeText } from '../../shared/text';
import { normalizeSkills } from '../../shared/validation/gig';
import type { ReplicatedName } from './collections';

/**
 * Fields a user edits as free text. When the server's copy changed while this device edited
 * offline, a change of one of these fields that the server did not also change is kept (a
 * three-way merge against the last known server state); everything else, status and ownership
 * above all, takes the server's value.
 */
export const MERGEABLE: Partial<Record<ReplicatedName, readonly string[]>> = {
  users: ['name', 'username', 'location', 'creativeNiche', 'subcategory', 'portfolioLink', 'bio'],
  gigs: ['title', 'description', 'category', 'locationType', 'country', 'city', 'budget', 'isPassionDriven', 'skills', 'projectDeadline', 'projectDate'],
  // A review changed here while the server published it goes out again: the server refuses it
  // with its reason ('Published reviews cannot be edited.'), which the device keeps (decision 032).
  reviews: ['rating', 'text', 'reply'],
};

const IGNORED = new Set(['_meta', '_rev', '_attachments']);

export function sameContent(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (IGNORED.has(k)) continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
  }
  return true;
}

/**
 * A field's value as the server stores it from what a device wrote: text sanitised and trimmed,
 * empty text and null absent, a gig's skills as the gig form normalises them. Two values the same here
 * differ only by the server's normalising, not by a change of the user's.
 */
export function normalised(collection: ReplicatedName, field: string, v: unknown): unknown {
  if (v === null) return undefined;
  if (typeof v !== 'string') return v;
  const text = sanitizeText(v).trim();
  if (collection === 'gigs' && field === 'skills') return normalizeSkills(text) || undefined;
  return text === '' ? undefined : text;
}

/** The fields of an application a user's move changes (shared/application-machine.ts). */
const MOVE = [
  'status',
  'finalBudget',
  'startedAt',
  // Delivered, questioned and disputed work (decision 031).
  'submissions',
  'deliveredAt',
  'autoReleaseAt',
  'cancellation',
  'dispute',
] as const;

/** What a user wrote in each collection: losing a change of these loses their words or choice. */
const CONTENT: Partial<Record<ReplicatedName, readonly string[]>> = {
  ...MERGEABLE,
  // (startedAt is the server's stamp, not the user's choice.) A submission, a change request, a
  // cancellation note or a dispute's reason are the user's words.
  applications: ['budget', 'status', 'finalBudget', 'submissions', 'cancellation', 'dispute'],
};

/**
 * The user's own words in a work field (decision 031): the server stamps submissions, change
 * requests, cancellations and disputes with its own times, so a move that landed differs from the
 * device's copy only in those; what the user wrote is what must not be lost.
 */
function words(field: string | undefined, v: unknown): unknown {
  if (field === 'submissions' && Array.isArray(v))
    return v.map((s: Record<string, unknown>) => [s.note, s.link, (s.changesRequested as Record<string, unknown> | undefined)?.note]);
  if (field === 'cancellation' && v && typeof v === 'object') return (v as Record<string, unknown>).note;
  if (field === 'dispute' && v && typeof v === 'object') return (v as Record<string, unknown>).reason;
  return v;
}

/** Where accepted work can end up under a move made offline (decision 031): finished, disputed, its money being settled, or cancelled. */
const WORK_ENDED = new Set(['COMPLETED', 'REFUNDED', 'SPLIT', 'DISPUTED', 'SETTLING', 'SETTLEMENT_FAILED', 'CANCELLED', 'WITHDRAWN']);

export const APPLICATION_KEPT_FROM_OTHER_DEVICE = 'Your application from another device was kept; this one was not sent';
export const CHANGED_ELSEWHERE_FIRST = 'This was changed elsewhere (another device or the other party) before your change arrived; your version was not sent';
export const DELETED_ELSEWHERE_FIRST = 'This was deleted before your change arrived; your version was not sent';

/** A local write that lost to another write: kept for the user with its content (a sync problem). */
export type LostWrite = { collection: ReplicatedName; docId: string; reason: string; content: Record<string, unknown> };

/**
 * What this device pushed of each document (`collection:id`), the most recent last: a Map, or the
 * kept states of `pushed-states.ts`, which survive a reload.
 */
export type PushedStates = {
  get(key: string): Record<string, unknown>[] | undefined;
  set(key: string, states: Record<string, unknown>[]): unknown;
};
export const PUSHED_KEPT = 20;

/**
 * Records a state as pushed (the push handler calls it before each request, retries included:
 * a retry of the same state is not recorded twice). When the version the push assumes the server
 * holds already has the last state recorded (its every mergeable field), the device's record of
 * the server has caught up with its pushes: the earlier states are not needed any more.
 */
export function rememberPushed(
  pushed: PushedStates,
  key: string,
  state: Record<string, unknown>,
  assumed?: Record<string, unknown> | null,
): void {
  let list = [...(pushed.get(key) ?? [])];
  const last = list.at(-1);
  if (last && sameContent(last, state)) return;
  if (last && assumed && holds(key, assumed, last)) list = [];
  list.push(state);
  if (list.length > PUSHED_KEPT) list.shift();
  pushed.set(key, list);
}

/** Whether `server` holds every mergeable field of `state` (modulo the server's normalising). */
function holds(key: string, server: Record<string, unknown>, state: Record<string, unknown>): boolean {
  const collection = key.slice(0, key.indexOf(':')) as ReplicatedName;
  return (MERGEABLE[collection] ?? []).every((f) => same(normalised(collection, f, state[f]), normalised(collection, f, server[f])));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Sets `fields` of `target` as `from` has them (a field `from` lacks goes); returns `target`. */
function overlay(target: Record<string, unknown>, from: Record<string, unknown>, fields: readonly string[]) {
  for (const f of fields) {
    if (from[f] === undefined) delete target[f];
    else target[f] = from[f];
  }
  return target;
}

/**
 * `refused` holds ids the server just refused: for those the server's state is taken whole, or the
 * merge would push the refused content again forever. The push handler fills it.
 *
 * `pushed` holds what this device pushed of each document. When the server's value of a field is
 * one this device pushed (its answer was lost, or a newer local edit overtook it), it is this
 * device's own earlier write, not a concurrent change: the newer local edit is kept instead of
 * being undone silently.
 */
export function createConflictHandler<T>(
  collection: ReplicatedName,
  refused: Set<string>,
  pushed: PushedStates = new Map(),
  onLost: (lost: LostWrite) => void = () => {},
): RxConflictHandler<T> {
  const mergeable = MERGEABLE[collection] ?? [];
  const content = CONTENT[collection] ?? [];
  /**
   * Keeps the local write when the resolution drops a field the user changed (against `base`,
   * the last server state this device knew, or the result itself when there is none).
   */
  const keepIfLost = (local: Record<string, unknown>, base: Record<string, unknown> | undefined, result: Record<string, unknown>, reason: string) => {
    // The server stores an emptied text field as absent: not a difference.
    const value = (v: unknown) => (v === '' ? undefined : v);
    const differ = (x: unknown, y: unknown, field?: string) => !same(words(field, value(x)), words(field, value(y)));
    const lost = content.some((f) => (base ? differ(local[f], base[f], f) : value(local[f]) !== undefined) && differ(result[f], local[f], f));
    if (!lost) return;
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(local)) if (!IGNORED.has(k) && k !== '_deleted' && k !== 'sortKey') kept[k] = v;
    onLost({ collection, docId: String(local.id), reason, content: kept });
  };
  return {
    isEqual: (a, b) => sameContent(a as Record<string, unknown>, b as Record<string, unknown>),
    async resolve({ assumedMasterState, realMasterState, newDocumentState }) {
      const master = realMasterState as Record<string, unknown>;
      const local = newDocumentState as Record<string, unknown>;
      const key = `${collection}:${String(master.id)}`;
      if (refused.delete(key)) return realMasterState;
      // A deletion is the user's deliberate act: it goes out again against the real master state
      // (the server then accepts or refuses it, and a refusal is kept). Taking the master here
      // would undo it silently, e.g. when the answer to the gig's creation was lost on the way.
      // It carries what the user last wrote of the document's text: refused (work under way, say),
      // the kept problem shows their version, an edit made before the deletion included.
      if (local._deleted && !master._deleted) return overlay({ ...master, _deleted: true }, local, mergeable) as WithDeleted<T>;
      if (local._deleted) return realMasterState;
      if (!assumedMasterState && !master._deleted && collection !== 'applications') {
        // Written here as new, and the server has it: usually the answer to this very write (its
        // own write landing, normalised), taken whole. But when that answer was lost and the app
        // closed before it heard back, its user may have changed the document since: a field that
        // differs from the server's copy by more than the server's normalising is such a change,
        // and goes out again on the server's version (which judges it; a refusal is kept).
        const edited = mergeable.filter((f) => !same(normalised(collection, f, local[f]), normalised(collection, f, master[f])));
        if (edited.length === 0) return realMasterState;
        return overlay({ ...master }, local, edited) as WithDeleted<T>;
      }
      if (!assumedMasterState || master._deleted) {
        // Changed here while it was deleted, or an application written here as new while the
        // server had one (made on another device, say): the server's state is taken whole.
        if (master._deleted) keepIfLost(local, assumedMasterState as Record<string, unknown> | undefined, master, DELETED_ELSEWHERE_FIRST);
        else if (collection === 'applications') {
          // The server's copy is this device's own application when it is still as it was made
          // (waiting, at the rate written here): its answer was lost, and a move made here since
          // (a withdrawal) goes out again on it, as a move does when the server changed nothing
          // of its own; the server judges it.
          const asMade = normalizeStatus(String(master.status)) === 'PENDING' && same(master.budget, local.budget);
          if (asMade && normalizeStatus(String(local.status)) !== 'PENDING') return overlay({ ...master }, local, MOVE) as WithDeleted<T>;
          keepIfLost(local, undefined, master, APPLICATION_KEPT_FROM_OTHER_DEVICE);
        }
        return realMasterState;
      }
      const base = assumedMasterState as Record<string, unknown>;
      const mine = pushed.get(key) ?? [];
      const merged: Record<string, unknown> = { ...master };
      for (const field of mergeable) {
        const from = mine.some((p) => same(master[field], p[field])) ? master[field] : base[field];
        if (!same(local[field], from) && same(master[field], from)) overlay(merged, local, [field]);
      }
      // An application move made here while the server changed only other fields (the gig was
      // deleted or renamed) goes out again on the new master state: the server judges the move,
      // and a refusal is kept. When the server's status moved too, the server wins.
      if (collection === 'applications' && MOVE.some((f) => !same(local[f], base[f])) && MOVE.every((f) => same(master[f], base[f]))) {
        overlay(merged, local, MOVE);
      }
      // A move that lost to the work moving on (a change request arriving after the automatic
      // release, say) is kept with the machine's reason for the status it is in now.
      const late = collection === 'applications' && !same(master.status, base.status) && WORK_ENDED.has(String(master.status)) ? lateMoveRefusal(String(master.status)) : undefined;
      keepIfLost(local, base, merged, late ?? CHANGED_ELSEWHERE_FIRST);
      return merged as WithDeleted<T>;
    },
  };
}

/**
 * The same handler, telling `onResolved` how it resolved each conflict: whether the resolution
 * goes out again (RxDB pushes it when it differs from the server's version, by the handler's own
 * `isEqual`) or takes the server's version, leaving nothing of the device's to send; with the
 * version that was pushed. RxDB writes the resolution once `onResolved` is done (only over that
 * pushed version: a newer one the user wrote meanwhile is pushed next, and meets its own conflict).
 */
export function reportingResolutions<T>(
  handler: RxConflictHandler<T>,
  onResolved: (id: string, goesOutAgain: boolean, pushed: WithDeleted<T>) => void | Promise<void>,
): RxConflictHandler<T> {
  return {
    isEqual: handler.isEqual,
    async resolve(input, context) {
      const resolved = await handler.resolve(input, context);
      const id = String((input.realMasterState as { id?: unknown }).id);
      await onResolved(id, !handler.isEqual(resolved, input.realMasterState, context), input.newDocumentState);
      return resolved;
    },
  };
}
