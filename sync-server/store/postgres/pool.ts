import pg from 'pg';

/**
 * A connection pool for the PostgreSQL store. Transactions are kept short (the change feed waits
 * for the oldest running one, see order.ts), so a session stuck inside one is ended by the server.
 */
export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    options: '-c idle_in_transaction_session_timeout=10000 -c statement_timeout=30000',
  });
  // An idle connection the server ended (a restart, an administrator) is dropped from the pool;
  // the next query opens a new one. Without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}
