import type pg from 'pg';
import type { AddOptions, CounterWindow, WindowCounters } from '../../http/window-counters';
import { StoreUnavailableError } from '../store';
import { isConnectionError } from './pool';

/**
 * Rate-limit windows in PostgreSQL, so that several instances count as one: a burst spread over
 * them is limited as if it hit one. Each call is one statement; a key's row is locked only for it.
 */
export class PgWindowCounters implements WindowCounters {
  constructor(private readonly pool: pg.Pool) {}

  async add(key: string, n: number, options: AddOptions): Promise<CounterWindow & { added: boolean }> {
    try {
      return await this.addNow(key, n, options);
    } catch (err) {
      throw isConnectionError(err) ? new StoreUnavailableError(err) : err;
    }
  }

  private async addNow(
    key: string,
    n: number,
    { now, windowMs, limit }: AddOptions,
  ): Promise<CounterWindow & { added: boolean }> {
    // A window that has ended starts again with what the insert would have written (EXCLUDED).
    const { rows } = await this.pool.query<{ start_ms: string; count: number; added: boolean }>(
      `WITH p AS (SELECT $1::text AS key, $2::bigint AS now, $3::integer AS n, $4::bigint AS lim, $5::bigint AS span)
       INSERT INTO rate_windows AS w (key, start_ms, count, added)
            SELECT key, now, CASE WHEN n <= lim THEN n ELSE 0 END, n <= lim FROM p
       ON CONFLICT (key) DO UPDATE SET
         start_ms = CASE WHEN (SELECT now FROM p) - w.start_ms >= (SELECT span FROM p) THEN EXCLUDED.start_ms ELSE w.start_ms END,
         count = CASE
           WHEN (SELECT now FROM p) - w.start_ms >= (SELECT span FROM p) THEN EXCLUDED.count
           WHEN w.count + (SELECT n FROM p) <= (SELECT lim FROM p) THEN w.count + (SELECT n FROM p)
           ELSE w.count END,
         added = CASE
           WHEN (SELECT now FROM p) - w.start_ms >= (SELECT span FROM p) THEN EXCLUDED.added
           ELSE w.count + (SELECT n FROM p) <= (SELECT lim FROM p) END
       RETURNING start_ms, count, added`,
      [key, now, n, limit ?? 2 ** 31 - 1, windowMs],
    );
    const row = rows[0];
    if (!row) throw new Error('the rate window statement returned no row');
    return { start: Number(row.start_ms), count: row.count, added: row.added };
  }

  async adjust(key: string, delta: number | 'clear'): Promise<void> {
    if (delta === 'clear') await this.pool.query('DELETE FROM rate_windows WHERE key = $1', [key]);
    else await this.pool.query('UPDATE rate_windows SET count = GREATEST(0, count + $2) WHERE key = $1', [key, delta]);
  }

  async prune(now: number, olderThanMs: number): Promise<void> {
    await this.pool.query('DELETE FROM rate_windows WHERE start_ms <= $1', [now - olderThanMs]);
  }
}
