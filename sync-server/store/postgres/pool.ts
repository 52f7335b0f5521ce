import pg from 'pg';

/**
 * A connection pool for the PostgreSQL store. Transactions are kept short (the change feed waits
 * for the oldest running one, see order.ts), so a session stuck inside one is ended by the server.
 * `settings`: more of PostgreSQL's settings for each connection (`-c name=value …`).
 */
export function createPool(connectionString: string, max = 10, settings = ''): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    // While the database is down a request fails at once (503) rather than waiting for a connection.
    connectionTimeoutMillis: 5_000,
    options: `-c idle_in_transaction_session_timeout=10000 -c statement_timeout=30000 ${settings}`.trim(),
  });
  // An idle connection the server ended (a restart, an administrator) is dropped from the pool;
  // the next query opens a new one. Without a listener the error would end the process.
  pool.on('error', () => {});
  // Likewise a client checked out between two queries when the server goes away (a restart): its
  // next query fails with a connection error (answered 503) and the client is dropped.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** SQLSTATE classes and codes that say "the database cannot be reached now", not "this query is wrong". */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether an error from `pg` means the database is down, restarting or unreachable (the request
 * may succeed in a moment), rather than a query PostgreSQL refused.
 */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code)) return true;
  }
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i.test(
    err.message,
  );
}
