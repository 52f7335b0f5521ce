/**
 * Calls of one statement, one under way at a time: the calls asked for meanwhile wait, and go
 * together, all in the next statement (at most `max`). A lone call never waits. `send` answers
 * each item, in order. When a statement of several fails, each of its items is sent again alone
 * (at once, beside the next statement): a failure is only the call's own that causes it (a hostile
 * value, a collision with another instance).
 */
export class OneAtATime<I, O> {
  private waiting: { item: I; resolve: (out: O) => void; reject: (err: unknown) => void }[] = [];
  private busy = false;

  constructor(
    private readonly send: (items: I[]) => Promise<O[]>,
    private readonly max = 256,
  ) {}

  run(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.busy || this.waiting.length === 0) return;
    const batch = this.waiting.splice(0, this.max);
    this.busy = true;
    // Free again before the callers hear back: a call they make then does not wait.
    const done = () => {
      this.busy = false;
      this.next();
    };
    this.send(batch.map((w) => w.item)).then(
      (outs) => {
        done();
        batch.forEach((w, i) => w.resolve(outs[i]!));
      },
      (err: unknown) => {
        done();
        if (batch.length === 1) batch[0]!.reject(err);
        else for (const w of batch) this.send([w.item]).then(([out]) => w.resolve(out!), w.reject);
      },
    );
  }
}
