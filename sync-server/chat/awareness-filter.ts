import * as decoding from 'lib0/decoding';
import { LIMITS } from '../../shared/constants';
import { isSanitized } from '../../shared/text';

export type AwarenessEntry = { clientId: number; state: Record<string, unknown> | null };

/** At most this many client ids in one awareness message: a client speaks for its own tab or two. */
const MAX_ENTRIES = 4;

/**
 * Reads a client's awareness update and keeps it only if every entry is that client's own
 * presence: a client id it may speak for, and a state that is removed (null) or carries nothing
 * but `user: { id, name }` with the signed-in user's id and `typing: boolean`. Anything else is
 * dropped whole (returns undefined), never half applied.
 */
export function readOwnAwareness(
  update: Uint8Array,
  userId: string,
  mayControl: (clientId: number) => boolean,
): AwarenessEntry[] | undefined {
  try {
    const decoder = decoding.createDecoder(update);
    const count = decoding.readVarUint(decoder);
    if (count > MAX_ENTRIES) return undefined;
    const entries: AwarenessEntry[] = [];
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      decoding.readVarUint(decoder); // clock
      const state: unknown = JSON.parse(decoding.readVarString(decoder));
      if (!mayControl(clientId) || !isOwnPresence(state, userId)) return undefined;
      entries.push({ clientId, state });
    }
    if (decoding.hasContent(decoder)) return undefined;
    return entries;
  } catch {
    return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isOwnPresence(state: unknown, userId: string): state is Record<string, unknown> | null {
  if (state === null) return true;
  if (!isPlainObject(state)) return false;
  for (const [key, value] of Object.entries(state)) {
    if (key === 'typing') {
      if (typeof value !== 'boolean') return false;
    } else if (key === 'user') {
      if (!isPlainObject(value)) return false;
      const keys = Object.keys(value);
      if (keys.some((k) => k !== 'id' && k !== 'name')) return false;
      if (value.id !== userId) return false;
      // A name with direction overrides or controls is not relayed (decision 013).
      if (
        value.name !== undefined &&
        (typeof value.name !== 'string' || value.name.length > LIMITS.nameMax || !isSanitized(value.name))
      )
        return false;
    } else {
      return false;
    }
  }
  return true;
}
