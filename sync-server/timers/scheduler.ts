import type { Store } from '../store/store';

/**
 * Work the server does when a stored date passes (automatic release of delivered work, a review
 * window closing): nothing is kept in memory but a timer that looks again. What is due is derived
 * from the stored documents at every look, so it survives restarts and needs no job table; on
 * several instances each looks for itself, and a key is fired by the instance that claims it.
 */
export type TimerJob = {
  /** Names the job in claims and logs (letters, digits and dashes). */
  name: string;
  /**
   * The keys due at `now` (e.g. application ids), from the store's documents as they are. Keep it
   * cheap: it runs on every look.
   */
  due(store: Store, now: number): Iterable<string>;
  /**
   * Does the work of one due key. It must decide in store transactions on the documents as they
   * are then (and find the work already done by another instance or an earlier crash), so that
   * firing twice changes nothing twice.
   */
  fire(key: string, now: number): Promise<void>;
};

export type SchedulerOptions = {
  /** How often to look for due keys. */
  intervalMs: number;
  /** How long a claim keeps other instances off a key (a crashed claimer's key is taken after it). */
  claimMs?: number;
  now: () => number;
  log: (message: string, err?: unknown) => void;
  /** This instance's name in claims. */
  instance: string;
};

const DEFAULT_CLAIM_MS = 60_000;

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  /** The last look started or queued. */
  private running: Promise<number> | undefined;
  /** A look queued behind the one under way, not started yet. */
  private queued: Promise<number> | undefined;
  private readonly firing = new Set<string>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly jobs: readonly TimerJob[],
    private readonly options: SchedulerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Stops looking; resolves once a look under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => 0);
  }

  /**
   * Looks once now and fires what is due (tests call it with the clock they control). Resolves
   * with how many keys this instance fired. A call while a look is under way gets the next look,
   * after it (the caller may have moved the clock, or written what made something due); calls
   * made while that one waits share it.
   */
  runDue(): Promise<number> {
    if (this.queued) return this.queued;
    const previous = this.running;
    const look = previous
      ? previous
          .catch(() => 0)
          .then(() => {
            if (this.queued === run) this.queued = undefined;
            return this.look();
          })
      : this.look();
    const run: Promise<number> = look.finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    if (previous) this.queued = run;
    return run;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runDue().finally(() => this.schedule());
    }, this.options.intervalMs);
    this.timer.unref();
  }

  private async look(): Promise<number> {
    let fired = 0;
    for (const job of this.jobs) {
      const now = this.options.now();
      let keys: string[];
      try {
        keys = [...job.due(this.store, now)];
      } catch (err) {
        this.options.log(`timers: ${job.name} could not list what is due`, err);
        continue;
      }
      for (const key of keys) {
        const id = `${job.name}:${key}`;
        if (this.firing.has(id) || this.stopped) continue;
        this.firing.add(id);
        try {
          if (!(await this.claim(id, now))) continue;
          await job.fire(key, now);
          fired += 1;
        } catch (err) {
          // Left due: the next look tries again (the claim lapses first on other instances).
          this.options.log(`timers: ${job.name} failed for ${key}`, err);
        } finally {
          this.firing.delete(id);
        }
      }
    }
    return fired;
  }

  /**
   * Claims a key for this instance for `claimMs`, as one decision: of several instances looking at
   * once, one gets it. Firing is idempotent anyway; the claim spares the others duplicate provider
   * calls. A claim lapses, so a key whose claimer died is fired by another.
   */
  private async claim(id: string, now: number): Promise<boolean> {
    const claimId = `timer-claim:${id}`;
    const until = now + (this.options.claimMs ?? DEFAULT_CLAIM_MS);
    const { value } = await this.store.transaction((read) => {
      const held = read.get('meta', claimId);
      const live =
        held &&
        !held._deleted &&
        held.instance !== this.options.instance &&
        typeof held.until === 'number' &&
        held.until > now;
      if (live) return { writes: [], value: false };
      return {
        writes: [{ collection: 'meta', doc: { id: claimId, instance: this.options.instance, until, _deleted: false } }],
        value: true,
      };
    });
    return value;
  }
}
