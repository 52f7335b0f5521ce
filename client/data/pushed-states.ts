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
 * of the user's entries out of localStorage's quota: past it, the last state of the documents
 * pushed most recently, as many as fit.
 */
export const KEPT_MAX_CHARS = 200_000;

/**
 * What this device pushed of each document, kept across a reload (the conflict handler's
 * `pushed`, see conflict-handler.ts). When a push's answer is lost and the app closes, the server
 * may hold that push while the device does not know it: after the reload, a newer edit of the
 * same field then met the server's copy of the device's own earlier edit, took it for a change
 * made elsewhere, and lost to it (convergence, a profile edited twice offline around a restart).
 * Kept here: the mergeable fields of the last few states pushed of each document (nothing of
 * applications); `rememberPushed` forgets a document's earlier states once a push assumes a
 * server version that holds them. Other tabs' pushes are read from the persistence when this tab
 * has none (leadership moves between tabs).
 */
export class KeptPushedStates implements PushedStates {
  private readonly memory = new Map<string, Record<string, unknown>[]>();
  private saving = false;

  constructor(private readonly persistence: PushedPersistence) {}

  get(key: string): Record<string, unknown>[] | undefined {
    return this.memory.get(key) ?? loaded(this.persistence.load()).get(key);
  }

  set(key: string, list: Record<string, unknown>[]): void {
    // The most recently pushed last (what the budget keeps first).
    this.memory.delete(key);
    this.memory.set(key, list);
    this.saveSoon();
  }

  /** One save for the rows of a push (they are recorded in one go), not one per row. */
  private saveSoon(): void {
    if (this.saving) return;
    this.saving = true;
    queueMicrotask(() => {
      this.saving = false;
      this.save();
    });
  }

  private save(): void {
    const byKey = new Map<string, Record<string, unknown>[]>();
    // Another tab's pushes first, this tab's over them (and after them: pushed more recently).
    for (const [key, list] of [...loaded(this.persistence.load()), ...this.memory]) {
      byKey.delete(key);
      const fields = list.map((s) => kept(key, s)).filter((s): s is Record<string, unknown> => s !== undefined);
      if (fields.length > 0) byKey.set(key, fields.slice(-KEPT_PER_DOCUMENT));
    }
    this.persistence.save(withinBudget(byKey));
  }
}

/** The states to keep within KEPT_MAX_CHARS (see there), in the order given. */
function withinBudget(byKey: Map<string, Record<string, unknown>[]>): States {
  const all: States = {};
  for (const [key, list] of byKey) all[key] = list;
  if (JSON.stringify(all).length <= KEPT_MAX_CHARS) return all;
  const recent: [string, Record<string, unknown>[]][] = [];
  let used = 2;
  for (const [key, list] of [...byKey].reverse()) {
    const last = [list.at(-1)!];
    const size = JSON.stringify(key).length + JSON.stringify(last).length + 2;
    if (used + size > KEPT_MAX_CHARS) break;
    recent.unshift([key, last]);
    used += size;
  }
  return Object.fromEntries(recent);
}

/** The kept pushed states in localStorage under `key` (one of the user's deviceKeys). */
export function localStoragePushed(key: string): PushedPersistence {
  // Read for every row a push records: parsed again only when the stored text changed.
  let lastRaw: string | null | undefined;
  let lastValue: unknown;
  return {
    load() {
      try {
        const raw = globalThis.localStorage?.getItem(key) ?? null;
        if (raw !== lastRaw) {
          lastValue = raw ? (JSON.parse(raw) as unknown) : undefined;
          lastRaw = raw;
        }
        return lastValue;
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
