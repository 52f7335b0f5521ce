/**
 * How a kind of statement batches its calls (see `StatementBatches`): `send` runs one statement
 * for several calls' items and answers each, in order; undefined when they could not go together
 * (each then goes `alone`). When it throws, a lone item's call fails with the error, and the items
 * of a statement of several each go `alone`: the failure is then only the call's own that causes
 * it (a hostile value, a collision with another instance).
 */
export type StatementBatchesOptions<I, O> = {
  send: (items: I[]) => Promise<O[] | undefined>;
  /** An item of a statement that failed or could not go together, on its own (default: `send([item])`). */
  alone?: (item: I) => Promise<O>;
  /**
   * The waiting items that go together in the next statement, by index, the first always among
   * them; the others wait for the one after, the first of them first. Default: the first `max`.
   */
  take?: (waiting: readonly I[]) => number[];
  /** Statements under way at once (default 1). */
  limit?: number;
  /** Items in one statement at most, with the default `take` (default 256). */
  max?: number;
};

type Waiting<I, O> = { item: I; resolve: (out: O) => void; reject: (err: unknown) => void };

/**
 * Calls of one statement, at most `limit` under way at a time: the calls asked for meanwhile
 * wait, and go together in the next statement (group commit). A lone call never waits. An item
 * sent again alone (its statement of several failed, or could not go together) goes at once,
 * outside the limit: a retry's pauses never hold the others back. Used for the decisions'
 * commits (decision-batches.ts) and chat's appends and reads (pg-documents.ts); decision 023,
 * "Several decisions in one statement".
 */
export class StatementBatches<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private inFlight = 0;
  private readonly limit: number;
  private readonly max: number;

  constructor(private readonly options: StatementBatchesOptions<I, O>) {
    this.limit = options.limit ?? 1;
    this.max = options.max ?? 256;
  }

  run(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight < this.limit && this.waiting.length > 0) void this.send(this.take());
  }

  private take(): Waiting<I, O>[] {
    if (!this.options.take || this.waiting.length === 1) return this.waiting.splice(0, this.max);
    const chosen = new Set(this.options.take(this.waiting.map((w) => w.item)));
    chosen.add(0);
    const batch: Waiting<I, O>[] = [];
    const rest: Waiting<I, O>[] = [];
    this.waiting.forEach((w, i) => (chosen.has(i) ? batch : rest).push(w));
    this.waiting = rest;
    return batch;
  }

  private async send(batch: Waiting<I, O>[]): Promise<void> {
    this.inFlight++;
    let outs: O[] | undefined;
    let failed = false;
    try {
      outs = await this.options.send(batch.map((w) => w.item));
    } catch (err) {
      failed = true;
      if (batch.length === 1) batch[0]!.reject(err);
    } finally {
      // Free again before the callers hear back: a call they make then does not wait.
      this.inFlight--;
      this.drain();
    }
    if (outs) batch.forEach((w, i) => w.resolve(outs[i]!));
    else if (!failed || batch.length > 1) for (const w of batch) this.alone(w.item).then(w.resolve, w.reject);
  }

  private alone(item: I): Promise<O> {
    if (this.options.alone) return this.options.alone(item);
    return this.options.send([item]).then((outs) => {
      if (!outs) throw new Error('a statement of one item could not be sent');
      return outs[0]!;
    });
  }
}
