import { ROWS_PER_TRANSACTION } from './order';
import type { DecisionCommit, DecisionOutcome, PgDocuments } from './pg-documents';
import { StatementBatches } from './statement-batches';

/**
 * What a decision touches, as `refKey`s and `indexKey`s: `reads`, each document it read (by id or
 * under a key) and each key it read; `writes`, each document it writes and every key that
 * document is filed under before and after the write; `docs`, the documents it writes. Two
 * decisions that file documents under one key, and read neither, can share a statement.
 */
export type Footprint = { reads: ReadonlySet<string>; writes: ReadonlySet<string>; docs: ReadonlySet<string> };

/**
 * An instance's decision statements under way at once. One: the decisions asked for meanwhile
 * wait for it and then go together, as many as arrived (group commit). With 50 writers on one
 * instance (two cores shared by the database, the instance and the load generator) one statement
 * at a time committed 2,201–2,459 writes/s against 1,840–1,897 with two and 1,566 with five
 * (the decision connections), and cost the database 167–188 µs a write against 265–318 and 410
 * (decision 008, twenty-eighth sitting).
 */
export const DECISION_STATEMENTS = 1;

/** At most this many decisions go in one statement (its arrays stay a few hundred kilobytes). */
export const MAX_DECISIONS_PER_STATEMENT = 64;

type Waiting = {
  commit: DecisionCommit;
  /** Undefined: the decision goes alone (its footprint cannot be known exactly). */
  footprint: () => Footprint | undefined;
};

const disjoint = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) return false;
  return true;
};

/**
 * Decisions' commits, at most `limit` statements under way; the decisions that arrive meanwhile
 * wait, and go together, several in one statement (`PgDocuments.commitTogether`), when one ends
 * (`StatementBatches`). Only decisions none of which writes what another one reads or writes
 * share a statement: each one's reads are then checked against the same snapshot and all the
 * writes made, as if they had committed one after the other, in any order. A lone decision never
 * waits. When a statement of several finds a read changed, or conflicts with a concurrent
 * transaction, or fails, each of its decisions is committed alone (`commitIfCurrent`, retried on
 * conflict), outside the limit (decision 023, "Several decisions in one statement").
 */
export class DecisionBatches {
  private readonly statements: StatementBatches<Waiting, DecisionOutcome>;

  constructor(documents: Pick<PgDocuments, 'commitTogether' | 'commitIfCurrent'>, limit: number) {
    this.statements = new StatementBatches<Waiting, DecisionOutcome>({
      limit,
      send: async (batch) => {
        const together = await documents.commitTogether(batch.map((w) => w.commit));
        if (together.ok) return together.outcomes;
        // A lone decision whose read changed has lost; any other case, each alone.
        return batch.length === 1 && together.stale ? [{ ok: false }] : undefined;
      },
      alone: (w) => documents.commitIfCurrent(w.commit.expected, w.commit.writes),
      take: (waiting) => take(waiting),
    });
  }

  commit(commit: DecisionCommit, footprint: () => Footprint | undefined): Promise<DecisionOutcome> {
    let known: { footprint: Footprint | undefined } | undefined;
    const once = () => (known ??= { footprint: safely(footprint) }).footprint;
    return this.statements.run({ commit, footprint: once });
  }
}

/**
 * The first decision waiting, and each later one that reads nothing the ones taken write, writes
 * nothing they read and no document they write, up to the statement's limits (by index).
 */
function take(waiting: readonly Waiting[]): number[] {
  const first = waiting[0]!;
  const touched = first.footprint();
  if (!touched) return [0];
  const reads = new Set(touched.reads);
  const writes = new Set(touched.writes);
  const docs = new Set(touched.docs);
  let rows = first.commit.writes.length;
  const batch = [0];
  for (let i = 1; i < waiting.length; i++) {
    const w = waiting[i]!;
    const fits = batch.length < MAX_DECISIONS_PER_STATEMENT && rows + w.commit.writes.length <= ROWS_PER_TRANSACTION;
    const f = fits ? w.footprint() : undefined;
    if (f && disjoint(f.writes, reads) && disjoint(f.reads, writes) && disjoint(f.docs, docs)) {
      for (const x of f.reads) reads.add(x);
      for (const x of f.writes) writes.add(x);
      for (const x of f.docs) docs.add(x);
      rows += w.commit.writes.length;
      batch.push(i);
    }
  }
  return batch;
}

/** A footprint that cannot be computed (an index function that throws) means: alone. */
function safely(footprint: () => Footprint | undefined): Footprint | undefined {
  try {
    return footprint();
  } catch {
    return undefined;
  }
}
