import { Rng } from '../rng';
import { hostileValue, randomText, tooLong, wrongTypeFor } from './values';

// ---------------------------------------------------------------------------------------------
// Push rows: every row with a defect of its own

export type RowContext = {
  /** Documents the attacker may write: each would be accepted as it is. */
  valid: () => Record<string, unknown>;
  /** The master state the attacker's client would assume for `valid()` (null for a new one). */
  assumed: (doc: Record<string, unknown>) => Record<string, unknown> | null;
  /** Rows about other users' documents, or moves the attacker may not make: refused as they are. */
  forbidden: ((r: Rng) => { label: string; row: Record<string, unknown> })[];
};

export const RXDB_FIELDS = new Set(['_deleted', '_meta', '_rev', '_attachments']);

/** One to five push rows, each refused for a reason of its own. */
export function hostileRows(r: Rng, rc: RowContext): { label: string; rows: Record<string, unknown>[] } {
  const rows: Record<string, unknown>[] = [];
  const labels: string[] = [];
  for (let n = r.int(1, 5); n > 0; n--) {
    const { label, row } = hostileRow(r, rc);
    rows.push(row);
    labels.push(label);
  }
  return { label: `rows: ${labels.join('; ')}`, rows };
}

export function hostileRow(r: Rng, rc: RowContext): { label: string; row: Record<string, unknown> } {
  const doc = rc.valid();
  const row = (d: Record<string, unknown>) => ({ assumedMasterState: rc.assumed(doc), newDocumentState: d });
  const fields = Object.keys(doc).filter((f) => !RXDB_FIELDS.has(f) && f !== 'id');
  switch (r.int(0, 5)) {
    case 0: {
      const field = r.pick(fields);
      return { label: `row wrong-type ${field}`, row: row({ ...doc, [field]: wrongTypeFor(r, doc[field]) }) };
    }
    case 1: {
      const name = r.pick(['isAdmin', 'role', 'passwordHash', 'sessionId', '_seq', 'owner', randomText(r, 10) || 'x']);
      if (name in doc) return hostileRow(r, rc);
      return { label: `row extra-field ${name}`, row: row({ ...doc, [name]: hostileValue(r) }) };
    }
    case 2: {
      const id = r.pick<unknown>([undefined, '', 42, null, ['a'], { a: 1 }, 'x'.repeat(r.int(201, 5000))]);
      const d = { ...doc };
      if (id === undefined) delete d.id;
      else d.id = id;
      return { label: `row bad-id ${JSON.stringify(id)?.slice(0, 20)}`, row: row(d) };
    }
    case 3: {
      const field = r.pick(fields.filter((f) => typeof doc[f] === 'string'));
      return { label: `row huge ${field}`, row: row({ ...doc, [field]: tooLong(r) }) };
    }
    default: {
      const make = r.pick(rc.forbidden);
      return make(r);
    }
  }
}
