import { MERGEABLE, PUSHED_KEPT, type PushedStates } from './conflict-handler';
import type { ReplicatedName } from './collections';

type States = Record<string, Record<string, unknown>[]>;

export type PushedPersistence = { load(): unknown; save(states: States): void };

/** The fields of a pushed state the conflict handler compares: a collection's mergeable ones. */
function kept(key: string, state: Record<string, unknown>): Record<string, unknown> | undefined {
  const fields = MERGEABLE[key.slice(0, key.indexOf(':')) as ReplicatedName];
  if (!fields) return undefined;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (state[f] !== undefined) out[f] = state[f];
  return out;
}

/** What the persistence holds, checked: a map of lists of plain objects (anything else is nothing). */
function loaded(raw: unknown): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, list] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    const states = list.filter((s): s is Record<string, unknown> => Boolean(s) && typeof s === 'object' && !Array.isArray(s));
    if (states.length > 0) out.set(key, states.slice(-PUSHED_KEPT));
  }
  return out;
}

/** States kept per document across a reload: the last few pushes are the ones an answer was lost for. */
export const KEPT_PER_DOCUMENT = 5;
/**
 * The kept entry's size at most (characters of JSON), so it never crowds the outbox and the rest
 * of the user's entries out of localStorage's quota: past it, one state per document, then the
 * documents first in the outbox (waiting longest) until the budget is used.
 */
export const KEPT_MAX_CHARS = 200_000;

/**
 * What this device pushed of the documents still waiting for the server's answer, kept across a
 * reload (the conflict handler's `pushed`, see conflict-handler.ts). When a push's answer is lost
 * and the app closes, the server may hold that push while the device does not know it: after the
 * reload, a newer edit of the same field then met the server's copy of the device's own earlier
 * edit, took it for a change made elsewhere, and lost to it (convergence, a profile edited twice
 * offline around a restart). Kept here: the mergeable fields of the states pushed for documents
 * in the outbox (`waiting`), nothing else, so the stored entry stays small and goes once the
 * outbox is empty. Other tabs' pushes are read from the persistence when this tab has none.
 */
export class KeptPushedStates implements PushedStates {
  private readonly memory = new Map<string, Record<string, unknown>[]>();

  constructor(
    private readonly persistence: PushedPersistence,
    /** The outbox's keys (`collection:id`): the documents whose pushes are not all answered. */
    private readonly waiting: () => readonly string[],
  ) {}

  get(key: string): Record<string, unknown>[] | undefined {
    return this.memory.get(key) ?? loaded(this.persistence.load()).get(key);
  }

  set(key: string, list: Record<string, unknown>[]): void {
    this.memory.set(key, list);
    // One save for the rows of a push (they are recorded in one go), not one per row.
    if (this.saving) return;
    this.saving = true;
    queueMicrotask(() => {
      this.saving = false;
      this.save();
    });
  }

  private saving = false;

  private save(): void {
    const waiting = this.waiting();
    const waitingSet = new Set(waiting);
    const byKey = new Map<string, Record<string, unknown>[]>();
    // Another tab's pushes first (leadership moves between tabs), this tab's over them.
    for (const [key, list] of [...loaded(this.persistence.load()), ...this.memory]) {
      if (!waitingSet.has(key)) continue;
      const fields = list.map((s) => kept(key, s)).filter((s): s is Record<string, unknown> => s !== undefined);
      if (fields.length > 0) byKey.set(key, fields.slice(-KEPT_PER_DOCUMENT));
    }
    this.persistence.save(withinBudget(waiting, byKey));
  }
}

/** The states to keep, in the outbox's order, within KEPT_MAX_CHARS (see there). */
function withinBudget(order: readonly string[], byKey: Map<string, Record<string, unknown>[]>): States {
  const all: States = {};
  for (const key of order) {
    const list = byKey.get(key);
    if (list) all[key] = list;
  }
  if (JSON.stringify(all).length <= KEPT_MAX_CHARS) return all;
  const some: States = {};
  let used = 2;
  for (const [key, list] of Object.entries(all)) {
    const last = [list.at(-1)!];
    const size = JSON.stringify(key).length + JSON.stringify(last).length + 2;
    if (used + size > KEPT_MAX_CHARS) break;
    some[key] = last;
    used += size;
  }
  return some;
}

/** The kept pushed states in localStorage under `key` (one of the user's deviceKeys). */
export function localStoragePushed(key: string): PushedPersistence {
  return {
    load() {
      try {
        const raw = globalThis.localStorage?.getItem(key);
        return raw ? (JSON.parse(raw) as unknown) : undefined;
      } catch {
        return undefined;
      }
    },
    save(states) {
      try {
        if (Object.keys(states).length > 0) globalThis.localStorage?.setItem(key, JSON.stringify(states));
        else globalThis.localStorage?.removeItem(key);
      } catch {
        // Storage full or unavailable: the states are then only kept for this page's life.
      }
    },
  };
}
