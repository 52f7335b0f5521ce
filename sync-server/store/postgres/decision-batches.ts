import { ROWS_PER_TRANSACTION } from './order';
import type { DecisionCommit, DecisionOutcome, PgDocuments } from './pg-documents';

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
  resolve: (outcome: DecisionOutcome) => void;
  reject: (err: unknown) => void;
};

const disjoint = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) return false;
  return true;
};

/**
 * Decisions' commits, at most `limit` statements under way; the decisions that arrive meanwhile
 * wait, and go together, several in one statement (`PgDocuments.commitTogether`), when one ends.
 * Only decisions none of which writes what another one reads or writes share a statement: each
 * one's reads are then checked against the same snapshot and all the writes made, as if they had
 * committed one after the other, in any order. A lone decision never waits. When a statement of
 * several finds a read changed, or conflicts with a concurrent transaction, each of its decisions
 * is committed alone (`commitIfCurrent`, retried on conflict), outside the limit: a retry's pauses
 * never hold the others back (decision 023, "Several decisions in one statement").
 */
export class DecisionBatches {
  private inFlight = 0;
  private waiting: Waiting[] = [];

  constructor(
    private readonly documents: Pick<PgDocuments, 'commitTogether' | 'commitIfCurrent'>,
    private readonly limit: number,
  ) {}

  commit(commit: DecisionCommit, footprint: () => Footprint | undefined): Promise<DecisionOutcome> {
    return new Promise((resolve, reject) => {
      let known: { footprint: Footprint | undefined } | undefined;
      const once = () => (known ??= { footprint: safely(footprint) }).footprint;
      this.waiting.push({ commit, footprint: once, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight < this.limit && this.waiting.length > 0) void this.send(this.take());
  }

  private async send(batch: Waiting[]): Promise<void> {
    this.inFlight++;
    let together: Awaited<ReturnType<PgDocuments['commitTogether']>> | undefined;
    try {
      together = await this.documents.commitTogether(batch.map((w) => w.commit));
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      // Else one decision's writes may be what fails: each alone, below, fails or not on its own.
    } finally {
      this.inFlight--;
      this.drain();
    }
    if (together?.ok) batch.forEach((w, i) => w.resolve(together.outcomes[i]!));
    else if (batch.length === 1 && together?.stale) batch[0]!.resolve({ ok: false });
    else if (batch.length > 1 || together)
      for (const w of batch)
        this.documents.commitIfCurrent(w.commit.expected, w.commit.writes).then(w.resolve, w.reject);
  }

  /**
   * The first decision waiting, and each later one that reads nothing the ones taken write, writes
   * nothing they read and no document they write, up to the statement's limits. The others wait for the next
   * statement, the first of them first.
   */
  private take(): Waiting[] {
    const first = this.waiting.shift()!;
    if (this.waiting.length === 0) return [first];
    const touched = first.footprint();
    if (!touched) return [first];
    const reads = new Set(touched.reads);
    const writes = new Set(touched.writes);
    const docs = new Set(touched.docs);
    let rows = first.commit.writes.length;
    const batch = [first];
    const rest: Waiting[] = [];
    for (const w of this.waiting) {
      const fits = batch.length < MAX_DECISIONS_PER_STATEMENT && rows + w.commit.writes.length <= ROWS_PER_TRANSACTION;
      const f = fits ? w.footprint() : undefined;
      if (f && disjoint(f.writes, reads) && disjoint(f.reads, writes) && disjoint(f.docs, docs)) {
        for (const x of f.reads) reads.add(x);
        for (const x of f.writes) writes.add(x);
        for (const x of f.docs) docs.add(x);
        rows += w.commit.writes.length;
        batch.push(w);
      } else rest.push(w);
    }
    this.waiting = rest;
    return batch;
  }
}

/** A footprint that cannot be computed (an index function that throws) means: alone. */
function safely(footprint: () => Footprint | undefined): Footprint | undefined {
  try {
    return footprint();
  } catch {
    return undefined;
  }
}
