/**
 * The planner's statistics of the documents and their index keys, kept in step with their growth.
 *
 * A decision's statements are prepared once per connection (named statements), and PostgreSQL
 * keeps their generic plan once it is no costlier than planning each run. A plan made while the
 * tables were small scans them whole (cheaper than an index at a few pages), and it is kept as the
 * tables grow until their statistics change: so each write read every index key twice, and the
 * feed every document, a cost rising with the data (measured: pushes of 200 gigs 0.9 s at first,
 * 1.85 s at 3,000 gigs; flat at ~0.6 s once analyzed). Autovacuum analyzes a table after 50 rows
 * plus a tenth of it have changed, but only on its round, once a minute; a new database (a first
 * deployment, an import, a test) grows far past that in a minute. So the store analyzes the two
 * tables itself each time the rows it wrote since the last time reach half the table (at least
 * `minRows`): a few times while a database is young, rarely after (an ANALYZE samples at most
 * 30,000 rows, and takes no lock that holds up reads or writes). One at a time per instance.
 */
export const STATISTICS = {
  /** Rows written before the first ANALYZE of an instance, and at least between two. */
  minRows: 200,
  /** Rows written since the last ANALYZE, as a share of the rows then, that call for another. */
  growth: 0.5,
} as const;

/** The statement: both tables a decision reads and writes. */
export const ANALYZE_SQL = 'ANALYZE documents, document_keys';

export class TableStatistics {
  /** The rows at the last ANALYZE, or as the instance loaded them. */
  private rowsThen = 0;
  private written = 0;
  private running: Promise<void> | undefined;

  /** `analyze` runs ANALYZE_SQL. */
  constructor(private readonly analyze: () => Promise<unknown>) {}

  /** The instance loaded `rows` documents (its start). */
  loaded(rows: number): void {
    this.rowsThen = rows;
  }

  /** Counts rows this instance committed; starts an ANALYZE when they reach the threshold. */
  wrote(rows: number): void {
    this.written += rows;
    if (this.running) return;
    if (this.written < Math.max(STATISTICS.minRows, this.rowsThen * STATISTICS.growth)) return;
    const rowsNow = this.rowsThen + this.written;
    this.written = 0;
    // A failed ANALYZE (the database restarting) costs nothing but the plans it would have mended.
    this.running = this.analyze()
      .then(
        () => {
          this.rowsThen = rowsNow;
        },
        () => {},
      )
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Resolves once no ANALYZE of this instance is under way (the store closing). */
  async settled(): Promise<void> {
    await this.running;
  }
}
