/**
 * How PostgreSQL writes are ordered in the change feed, so that a reader can never skip one.
 *
 * A sequence number taken when a row is written is not the order writes become visible:
 * transaction 101 may take its number first and commit after 102. A reader that served 102 and
 * moved its checkpoint past it would never see 101. So a document's `seq` is derived from the id
 * of the transaction that wrote it (`pg_current_xact_id()`, a 64-bit counter that never wraps),
 * times `ROWS_PER_TRANSACTION`, plus the row's position in that transaction. Readers serve only
 * rows below the horizon: the oldest transaction still running in the cluster
 * (`pg_snapshot_xmin(pg_current_snapshot())`). Every transaction below it has finished, so the
 * set of rows below the horizon is final; every transaction still to commit writes above it.
 * A checkpoint below the horizon therefore never has an unseen write behind it.
 *
 * The price: a write becomes visible to streams only once every transaction that began before it
 * has ended, so transactions are kept short (a statement and idle-in-transaction timeout bound
 * them). Numbers stay exact in JavaScript (below 2^53) until 2^41 transactions: at 2,000 write
 * transactions a second, 35 years.
 */
export const ROWS_PER_TRANSACTION = 4096;

/** SQL for the seq of the row at position `$n` of the current transaction. */
export const seqSql = (positionParam: string) =>
  `(pg_current_xact_id()::text::bigint * ${ROWS_PER_TRANSACTION} + ${positionParam})`;

/** SQL for the first seq no running or future transaction can write below. */
export const HORIZON_SQL = `(pg_snapshot_xmin(pg_current_snapshot())::text::bigint * ${ROWS_PER_TRANSACTION})`;

/** PostgreSQL returns bigint as text; every seq fits a double exactly (see above). */
export const toSeq = (value: string | number): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`seq out of range: ${value}`);
  return n;
};
