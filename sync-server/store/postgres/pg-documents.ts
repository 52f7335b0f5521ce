import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Change, CollectionName, DocWrite, IndexDefinitions, StoredDoc } from '../store';
import { HORIZON_SQL, ROWS_PER_TRANSACTION, seqSql, toSeq } from './order';
import { createPool } from './pool';
import { StatementBatches } from './statement-batches';
import { ANALYZE_SQL, TableStatistics } from './statistics';

/**
 * Documents, index keys, the change feed and chat logs in PostgreSQL: the database half of the
 * PostgreSQL store. Every method is one short transaction or statement; several server
 * instances share one database through it, and `onDurable` tells each of them about every
 * write, whichever instance made it (LISTEN/NOTIFY, then a read of the feed).
 */

/** The channel each committing transaction notifies; the payload is unused (a read follows). */
export const CHANGES_CHANNEL = 'gig_marketplace_changes';
/** The channel an append to a chat log notifies, with the md5 of the room's name. */
export const CHAT_CHANNEL = 'gig_marketplace_chat';
/** The channel chat presence goes through (pg-chat-logs.ts writes and reads its payloads). */
export const PRESENCE_CHANNEL = 'gig_marketplace_presence';

const UNIQUE_VIOLATION = '23505';

/** An append that collided with another instance's at one of its positions is refused; any other failure stands. */
const refusedOnCollision = (err: unknown): AppendOutcome => {
  if ((err as { code?: string }).code === UNIQUE_VIOLATION) return { ok: false };
  throw err;
};

/** An append to a room's chat log, and how it went (see `appendChat`). */
type ChatAppend = { room: string; updates: readonly Uint8Array[]; afterPos: number };
type AppendOutcome = { ok: true; pos: number } | { ok: false };

/** A stretch of a room's chat log: each entry's position and its update. */
export type ChatLogEntries = { pos: number[]; updates: Uint8Array[] };
/** One entry of a room's log: its position and its bytes. */
export type ChatEntry = { pos: number; update: Uint8Array };

export type DocRow = {
  collection: CollectionName;
  id: string;
  seq: string;
  deleted: boolean;
  body: Record<string, unknown>;
};

export const toDoc = (row: DocRow): StoredDoc => ({
  ...row.body,
  id: row.id,
  _seq: toSeq(row.seq),
  _deleted: row.deleted,
});

export type PgDocumentsOptions = {
  pool: pg.Pool;
  /** A connection string for the listening connection (LISTEN needs one connection of its own). */
  connectionString: string;
  indexes: IndexDefinitions;
  /** While rows wait above the horizon (an older transaction still running), re-read this often. */
  pendingPollMs?: number;
  /** A safety read of the feed this often even without notifications (a lost connection). */
  idlePollMs?: number;
  /** Connections for decisions' commits (`commitIfCurrent`), at most this many (default 10). */
  decisionPoolSize?: number;
};

export class PgDocuments {
  private readonly pool: pg.Pool;
  private readonly listeners = new Set<(changes: Change[]) => void>();
  private readonly chatListeners = new Set<(roomDigest: string) => void>();
  private readonly chatResyncListeners = new Set<() => void>();
  private readonly presenceListeners = new Set<(payload: string) => void>();
  private listenClient: pg.Client | undefined;
  /** A LISTEN connection has been open once (a later loss is reconnected), and a reconnect is scheduled. */
  private everListened = false;
  private relistening = false;
  /** Highest seq handed to `onDurable` listeners. */
  private delivered = 0;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  /** Feed reads begun so far, and the callers of readNow waiting for one that began after their call. */
  private readsStarted = 0;
  private readonly readWaiters = new Set<{ after: number; resolve: () => void }>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Notifications to send, by channel (see `announce`), and the send under way. */
  private readonly notices = new Map<string, Set<string>>();
  private noticing: Promise<void> | undefined;

  /** Tells this instance's chat notifications from the others'. */
  private readonly instance = randomBytes(8).toString('hex');

  /** The planner's statistics of the documents, kept in step with what this instance writes. */
  private readonly statistics: TableStatistics;

  /**
   * Connections on which each statement is a SERIALIZABLE transaction of its own and keeps the
   * plan PostgreSQL made for it once: a decision's commit is one statement (`commitIfCurrent`),
   * one round trip where BEGIN, the check of its reads, the write and COMMIT were four. Only that
   * statement runs there (a kept plan suits it, and not every statement: a paged scan's
   * `$2 IS NULL OR id > $2` is better planned for its values each time).
   */
  private readonly decisions: pg.Pool;

  constructor(private readonly options: PgDocumentsOptions) {
    this.pool = options.pool;
    this.decisions = createPool(options.connectionString, options.decisionPoolSize ?? 10, DECISION_SETTINGS);
    this.statistics = new TableStatistics(() => this.pool.query(ANALYZE_SQL));
  }

  /**
   * Starts following the feed: from `afterSeq` (a caller that loaded the documents below a
   * horizon), or from the current horizon.
   */
  async open(afterSeq?: number): Promise<void> {
    this.delivered = afterSeq ?? (await this.horizon()) - 1;
    await this.listen(true);
    this.schedule(this.options.idlePollMs ?? 1000);
  }

  get(collection: CollectionName, id: string): Promise<StoredDoc | undefined> {
    return readDoc(this.pool, collection, id);
  }

  byIndex(collection: CollectionName, index: string, key: string): Promise<StoredDoc[]> {
    return readByIndex(this.pool, collection, index, key);
  }

  all(collection: CollectionName): Promise<StoredDoc[]> {
    return readAll(this.pool, collection);
  }

  /** The current versions of the named documents and of every document filed under the named index keys. */
  current(ids: readonly DocRef[], keys: readonly IndexRef[]): Promise<Change[]> {
    return readCurrent(this.pool, ids, keys);
  }

  /**
   * Every document below the horizon, in seq order, read in one snapshot, and the seq they are
   * final up to: an instance loads them, then follows the feed from there (`open(upTo)`).
   */
  async loadAll(): Promise<{ changes: Change[]; upTo: number }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ horizon: string }>(`SELECT ${HORIZON_SQL} AS horizon`);
      const horizon = toSeq(rows[0]?.horizon ?? Number.NaN);
      const docs = await client.query<DocRow>(
        `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.seq < $1 ORDER BY d.seq`,
        [horizon],
      );
      await client.query('COMMIT');
      this.statistics.loaded(docs.rows.length);
      return { changes: docs.rows.map((r) => ({ collection: r.collection, doc: toDoc(r) })), upTo: horizon - 1 };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** Writes the documents in one transaction; resolves once committed with the seq of the last one. */
  async commit(writes: DocWrite[]): Promise<number> {
    if (writes.length === 0) return this.durableSeq();
    return (await this.transaction(async (tx) => tx.write(writes))).seq;
  }

  /**
   * Runs `fn` in a SERIALIZABLE transaction: its reads and its writes commit together, as if no
   * other transaction ran beside it, on this instance or any other. When PostgreSQL detects a
   * conflict with a concurrent transaction it aborts one of them, and `fn` runs again on fresh
   * reads, so `fn` must only read, decide and write through `tx` (no other side effects).
   * Committed means durable (synchronous commit); every instance is notified just after (`announce`).
   */
  async transaction<T>(fn: (tx: PgTransaction) => Promise<T>): Promise<{ value: T; seq: number; stamps: Stamp[] }> {
    const committed = await retriedOnConflict(async () => {
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        const tx = new PgTransaction(client, this.options.indexes);
        const value = await fn(tx);
        const stamps = await tx.flush();
        await client.query('COMMIT');
        return { value, stamps };
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    });
    return { ...committed, seq: this.written(committed.stamps) };
  }

  /**
   * A decision's commit: `writes` are written if, and only if, everything the decision read is
   * still as `expected` says, checked and written in one SERIALIZABLE statement (as if no other
   * transaction ran beside it, on this instance or any other). `ok: false`: something it read
   * changed, and nothing was written. Without writes, the check alone (a decision whose answer
   * rests on what it read). Committed means durable; every instance is notified just after.
   */
  async commitIfCurrent(expected: Expected, writes: readonly DocWrite[]): Promise<DecisionOutcome> {
    const outcome = await retriedOnConflict(() =>
      writeIfCurrent(this.decisions, this.options.indexes, writes, expected),
    );
    return outcome.ok ? { ok: true, stamps: outcome.stamps, seq: this.written(outcome.stamps) } : outcome;
  }

  /**
   * Several decisions' commits in one statement, tried once: the caller gives only decisions none
   * of which writes anything another one reads or writes, so that checking every read against the
   * one snapshot and writing every write is as if they had committed one after the other.
   * `ok: false`: nothing was written, because a read of one of them had changed (`stale`) or
   * PostgreSQL aborted the statement for a conflict with a concurrent one; the caller then commits
   * each alone (`commitIfCurrent`), so that only a stale one loses. Otherwise one outcome per
   * decision, in order.
   */
  async commitTogether(
    decisions: readonly DecisionCommit[],
  ): Promise<{ ok: false; stale: boolean } | { ok: true; outcomes: DecisionOutcome[] }> {
    let outcome: Awaited<ReturnType<typeof writeIfCurrent>>;
    try {
      outcome = await writeIfCurrent(
        this.decisions,
        this.options.indexes,
        decisions.flatMap((d) => d.writes),
        merged(decisions),
      );
    } catch (err) {
      if (isConflict(err)) return { ok: false, stale: false };
      throw err;
    }
    if (!outcome.ok) return { ok: false, stale: true };
    this.written(outcome.stamps);
    const stampOf = new Map(outcome.stamps.map((s) => [refKey(s.collection, s.id), s]));
    const outcomes = decisions.map((d) => {
      const stamps = [...new Set(d.writes.map((w) => refKey(w.collection, idOf(w))))].map((ref) => stampOf.get(ref)!);
      return { ok: true as const, stamps, seq: Math.max(0, ...stamps.map((s) => s.seq)) };
    });
    return { ok: true, outcomes };
  }

  /** After a commit: the seq of its last write (0 for none), and the statistics, the feed and the other instances told. */
  private written(stamps: readonly Stamp[]): number {
    const seq = Math.max(0, ...stamps.map((s) => s.seq));
    if (seq > 0) {
      this.statistics.wrote(stamps.length);
      this.poll();
      this.announce(CHANGES_CHANNEL, '');
    }
    return seq;
  }

  /** The highest seq below which the feed is final. */
  async durableSeq(): Promise<number> {
    return (await this.horizon()) - 1;
  }

  /**
   * Changes with `seq > afterSeq`, in seq order, at most `limit`, and only below the horizon, so
   * nothing committed later can ever sort before what this returns. `upTo` is the horizon used:
   * a caller that got fewer than `limit` changes is caught up to `upTo - 1`. `pending`: rows wait
   * above the horizon, told by the highest seq (one step down the seq index, whatever the
   * statistics say; "any row at or above the horizon" was planned as a scan of every document
   * while the table had no statistics, once per feed read).
   */
  async changesSince(afterSeq: number, limit: number): Promise<{ changes: Change[]; upTo: number; pending: boolean }> {
    const { rows } = await this.pool.query<DocRow & { horizon: string; pending: boolean }>({
      name: 'feed-read',
      text: FEED_SQL,
      values: [afterSeq, limit],
    });
    const [first] = rows;
    if (!first) throw new Error('the change feed query returned no row');
    const changes = rows.filter((r) => r.id !== null).map((r) => ({ collection: r.collection, doc: toDoc(r) }));
    return { changes, upTo: toSeq(first.horizon), pending: first.pending };
  }

  /** Called with each group of changes once final, from every instance's writes. */
  onDurable(listener: (changes: Change[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Appends `updates` to a room's log at the positions after `afterPos`, the last entry the
   * caller has seen, all or none; resolves with the last one's position. Refused (`ok: false`,
   * nothing written) when any entry at or past that position exists, i.e. another append took it
   * first, or a compaction filed past it entries the caller has not seen (a merge goes to the last
   * position it merged, leaving holes before it): the caller reads what it missed
   * (`chatLog(room, afterPos)`) and decides again. Every other instance is told
   * (`onChatAppended`) just after the commit. One statement at a time: the appends asked for
   * meanwhile (other rooms': a room's appends come one after another) go together in the next.
   */
  appendChat(room: string, updates: readonly Uint8Array[], afterPos: number): Promise<AppendOutcome> {
    if (updates.length === 0) return Promise.resolve({ ok: true, pos: afterPos });
    return this.appends.run({ room, updates, afterPos });
  }

  private readonly appends = new StatementBatches<ChatAppend, AppendOutcome>({
    // A statement of several that fails is sent again item by item: only a colliding one is refused.
    send: (items) =>
      this.appendEach(items).catch((err: unknown) => {
        if (items.length > 1) throw err;
        return [refusedOnCollision(err)];
      }),
  });

  /**
   * The appends in one statement. Each room's entries are written only if the room holds nothing
   * at or past the first of them: the check sees every entry committed before the statement, and
   * one committed after it can only sit at a position the caller has seen (merges) or at one of
   * these (the primary key: a collision fails the whole statement, and nothing is written).
   */
  private async appendEach(items: readonly ChatAppend[]): Promise<AppendOutcome[]> {
    const rows = items.flatMap(({ room, updates, afterPos }) =>
      updates.map((u, i) => ({ room, pos: afterPos + 1 + i, first: afterPos + 1, u })),
    );
    const { rows: written } = await this.pool.query<{ room: string }>({
      name: 'chat-append',
      text: `INSERT INTO chat_updates (room, pos, update)
         SELECT w.room, w.pos, w.u FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[]) AS w(room, pos, first, u)
          WHERE NOT EXISTS (SELECT 1 FROM chat_updates c WHERE c.room = w.room AND c.pos >= w.first)
         RETURNING room`,
      values: [
        rows.map((r) => r.room),
        rows.map((r) => r.pos),
        rows.map((r) => r.first),
        rows.map((r) => Buffer.from(r.u)),
      ],
    });
    const count = new Map<string, number>();
    for (const { room } of written) count.set(room, (count.get(room) ?? 0) + 1);
    return items.map(({ room, updates, afterPos }) => {
      if (count.get(room) !== updates.length) return { ok: false as const };
      this.announce(CHAT_CHANNEL, `${roomDigest(room)} ${this.instance}`);
      return { ok: true as const, pos: afterPos + updates.length };
    });
  }

  /** Reads of rooms' entries past a position, one statement at a time, those asked for meanwhile together. */
  private readonly logReads = new StatementBatches({
    send: async (items: { room: string; afterPos: number }[]) => {
      const { rows } = await this.pool.query<{ i: number; pos: string; update: Buffer }>({
        name: 'chat-log-each',
        text: `SELECT r.i, c.pos, c.update FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS r(room, after, i)
          JOIN LATERAL (SELECT pos, update FROM chat_updates WHERE room = r.room AND pos > r.after ORDER BY pos) c ON true
         ORDER BY r.i, c.pos`,
        values: [items.map((i) => i.room), items.map((i) => i.afterPos)],
      });
      const logs: ChatLogEntries[] = items.map(() => ({ pos: [], updates: [] }));
      for (const row of rows) {
        const log = logs[Number(row.i) - 1]!;
        log.pos.push(toSeq(row.pos));
        log.updates.push(new Uint8Array(row.update));
      }
      return logs;
    },
  });

  /** A room's entries after position `afterPos` (all of them by default) and up to `upTo` (included), in order. */
  async chatLog(room: string, afterPos = 0, upTo = Number.MAX_SAFE_INTEGER): Promise<ChatLogEntries> {
    if (upTo === Number.MAX_SAFE_INTEGER) return this.logReads.run({ room, afterPos });
    const { rows } = await this.pool.query<{ pos: string; update: Buffer }>({
      name: 'chat-log',
      text: 'SELECT pos, update FROM chat_updates WHERE room = $1 AND pos > $2 AND pos <= $3 ORDER BY pos',
      values: [room, afterPos, upTo],
    });
    return { pos: rows.map((r) => toSeq(r.pos)), updates: rows.map((r) => new Uint8Array(r.update)) };
  }

  /**
   * Replaces exactly `entries` (positions and bytes, as `chatLog` returned them) by `merged`,
   * filed at the last of their positions, so a reader that has seen it has seen everything merged.
   * Entries appended meanwhile stay. Refused (false, nothing changed) when one of them is no
   * longer there as it was: another compaction got to it first, or filed its own merge at its
   * position (a position alone does not say what it holds: deleting another instance's merge
   * there would take what it merged with it); or when caught in a deadlock with another transaction.
   */
  async compactChat(room: string, merged: Uint8Array, entries: readonly ChatEntry[]): Promise<boolean> {
    if (entries.length === 0) return true;
    const positions = entries.map((e) => e.pos);
    if (new Set(positions).size !== positions.length) throw new Error(`chat log ${room}: a position merged twice`);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Rows locked in the order of their positions: two instances merging stretches that
      // overlap wait for one another instead of deadlocking.
      await client.query(
        'SELECT 1 FROM chat_updates WHERE room = $1 AND pos = ANY($2::bigint[]) ORDER BY pos FOR UPDATE',
        [room, positions],
      );
      const gone = await client.query(
        `DELETE FROM chat_updates c USING unnest($2::bigint[], $3::bytea[]) AS w(pos, u)
          WHERE c.room = $1 AND c.pos = w.pos AND c.update = w.u`,
        [room, positions, entries.map((e) => Buffer.from(e.update))],
      );
      if (gone.rowCount !== entries.length) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query('INSERT INTO chat_updates (room, pos, update) VALUES ($1, $2, $3)', [
        room,
        Math.max(...positions),
        Buffer.from(merged),
      ]);
      await client.query('COMMIT');
      return true;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      // A deadlock with another transaction on these rows (one locking them in another order):
      // PostgreSQL aborts one; this one changed nothing, and is refused like any that came second.
      if (isConflict(err)) return false;
      throw err;
    } finally {
      client.release();
    }
  }

  /** Copies a whole log (the import): positions 1, 2, 3… in one statement. */
  async writeChatLog(room: string, updates: readonly Uint8Array[]): Promise<void> {
    await this.pool.query(
      'INSERT INTO chat_updates (room, pos, update) SELECT $1, p, u FROM unnest($2::bigint[], $3::bytea[]) AS w(p, u)',
      [room, updates.map((_, i) => i + 1), updates.map((u) => Buffer.from(u))],
    );
  }

  /**
   * Called with the md5 (hex) of a room's name whenever another instance appends to it (names are
   * user-controlled text: the digest bounds the notification's size). This instance's own appends
   * are not told back: the appending caller has them (reading them back was a round trip per
   * message for nothing). Returns an unsubscribe.
   */
  onChatAppended(listener: (roomDigest: string) => void): () => void {
    this.chatListeners.add(listener);
    return () => this.chatListeners.delete(listener);
  }

  /**
   * Sends `payload` (under 8,000 bytes, PostgreSQL's limit) to every instance listening, this one
   * included, now: not stored, and lost by an instance not listening at that moment.
   */
  async notifyPresence(payload: string): Promise<void> {
    this.announce(PRESENCE_CHANNEL, payload);
  }

  /** The chat rooms among `rooms` whose log holds a position past the one given: one query for all. */
  async chatHeads(rooms: ReadonlyMap<string, number>): Promise<string[]> {
    if (rooms.size === 0) return [];
    const { rows } = await this.pool.query<{ room: string }>(CHAT_HEADS_SQL, [[...rooms.keys()], [...rooms.values()]]);
    return rows.map((r) => r.room);
  }

  /**
   * Sends a notification to every instance (this one included) once the commit it announces is
   * done, not inside it: PostgreSQL holds one lock for the whole cluster from a notifying commit
   * until its flush, so commits that notify cannot share a flush (decision 023, "How far one
   * database goes"). The notifications waiting are sent together, one send at a time, in a
   * transaction of their own that waits for no flush (they are not data). One lost with an
   * instance killed between its commit and its send is covered by the readers' periodic reads
   * (the document feed every second; the chat rooms held, `PgChatLogs`).
   */
  private announce(channel: string, payload: string): void {
    if (this.closed) return;
    let waiting = this.notices.get(channel);
    if (!waiting) this.notices.set(channel, (waiting = new Set()));
    waiting.add(payload);
    this.sendNotices();
  }

  private sendNotices(): void {
    if (this.noticing || this.closed || this.notices.size === 0) return;
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const [channel, waiting] of this.notices) {
      for (const payload of waiting) {
        channels.push(channel);
        payloads.push(payload);
      }
    }
    this.notices.clear();
    this.noticing = this.pool
      .query({ name: 'notify', text: NOTIFY_SQL, values: [channels, payloads] })
      .then(
        () => undefined,
        // Out of reach: lost, and covered by the periodic reads.
        () => undefined,
      )
      // The next send, if any, a moment after this one (still `noticing` meanwhile): the
      // notifications of that moment go together.
      .then(() => pause(FOLLOW_UP_GAP_MS))
      .finally(() => {
        this.noticing = undefined;
        this.sendNotices();
      });
  }

  /** Called with every presence payload any instance sends. Returns an unsubscribe. */
  onPresence(listener: (payload: string) => void): () => void {
    this.presenceListeners.add(listener);
    return () => this.presenceListeners.delete(listener);
  }

  /**
   * Called each time the listening connection is (re)established: notifications sent while it
   * was down are lost, so whoever follows chat logs reads them again. Returns an unsubscribe.
   */
  onChatResync(listener: () => void): () => void {
    this.chatResyncListeners.add(listener);
    return () => this.chatResyncListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (const waiter of this.readWaiters) waiter.resolve();
    this.readWaiters.clear();
    await this.polling;
    await this.statistics.settled();
    await this.listenClient?.end().catch(() => {});
    await this.decisions.end().catch(() => {});
  }

  private async horizon(): Promise<number> {
    const { rows } = await this.pool.query<{ horizon: string }>(`SELECT ${HORIZON_SQL} AS horizon`);
    return toSeq(rows[0]?.horizon ?? Number.NaN);
  }

  /**
   * Opens the LISTEN connection. Once one has been open, a lost connection (PostgreSQL restarted)
   * is opened again every RELISTEN_MS until it succeeds, one attempt at a time; meanwhile the idle
   * poll covers the gap, and a read right after reconnecting catches up. The first attempt's
   * failure is the caller's (the store does not open).
   */
  private async listen(first = false): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('notification', (n) => {
      if (n.channel === CHAT_CHANNEL) {
        // "digest instance"; an instance of an earlier version sends the digest alone.
        const [digest = '', from] = (n.payload ?? '').split(' ');
        if (from === this.instance) return;
        for (const listener of this.chatListeners) listener(digest);
      } else if (n.channel === PRESENCE_CHANNEL) {
        for (const listener of this.presenceListeners) listener(n.payload ?? '');
      } else this.poll();
    });
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      if (this.listenClient === client) this.listenClient = undefined;
      void client.end().catch(() => {});
      if (!first || this.listenClient !== undefined || this.everListened) this.relisten();
    };
    client.on('error', lose);
    client.on('end', lose);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}; LISTEN ${CHAT_CHANNEL}; LISTEN ${PRESENCE_CHANNEL}`);
    } catch (err) {
      lose();
      throw err;
    }
    if (this.closed || lost) {
      await client.end().catch(() => {});
      return;
    }
    this.listenClient = client;
    // Chat logs read again what they missed while the connection was down.
    if (this.everListened) for (const listener of this.chatResyncListeners) listener();
    this.everListened = true;
  }

  private relisten(): void {
    if (this.closed || this.relistening) return;
    this.relistening = true;
    setTimeout(() => {
      this.relistening = false;
      // A failure has already scheduled the next attempt (through `lose`).
      this.listen().then(
        () => this.poll(),
        () => {},
      );
    }, RELISTEN_MS).unref();
  }

  /**
   * Resolves once a read of the feed that began after this call has ended (every listener told):
   * what any instance committed before the call, below the horizon, has then been delivered.
   * Calls that arrive together share one read.
   */
  readNow(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const after = this.readsStarted;
    const done = new Promise<void>((resolve) => this.readWaiters.add({ after, resolve }));
    this.poll();
    return done;
  }

  /** Reads the feed past what was delivered and hands it to the listeners; coalesces calls. */
  private poll(): void {
    if (this.closed) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    const read = ++this.readsStarted;
    this.polling = this.readFeed()
      .then(
        ({ pending }) => ({ pending, failed: false }),
        // The database is out of reach: try again a little later, without hammering it.
        () => ({ pending: false, failed: true }),
      )
      .then(({ pending, failed }) => {
        this.polling = undefined;
        for (const waiter of this.readWaiters)
          if (waiter.after < read) {
            this.readWaiters.delete(waiter);
            waiter.resolve();
          }
        if (this.pollAgain) {
          // Asked for again while this read ran: the next read a moment after this one, so that
          // the commits of that moment share it, unless a read is asked for meanwhile (a push
          // waiting for its answer's barrier, say), which starts at once.
          this.pollAgain = false;
          setTimeout(() => this.poll(), FOLLOW_UP_GAP_MS);
        } else {
          this.schedule(
            failed
              ? FAILED_READ_RETRY_MS
              : pending
                ? (this.options.pendingPollMs ?? 20)
                : (this.options.idlePollMs ?? 1000),
          );
        }
      });
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), ms);
    this.timer.unref();
  }

  private async readFeed(): Promise<{ pending: boolean }> {
    for (;;) {
      const { changes, upTo, pending } = await this.changesSince(this.delivered, 1000);
      const last = changes.at(-1);
      if (last) {
        this.delivered = last.doc._seq;
        for (const listener of this.listeners) listener(changes);
      }
      if (changes.length < 1000) {
        this.delivered = Math.max(this.delivered, upTo - 1);
        return { pending };
      }
    }
  }
}

const MAX_ATTEMPTS = 20;

/**
 * A feed read or a send of notifications asked for while one was under way starts this long
 * after it ends. Reads and sends had followed one another without pause: with 50 writers on one
 * instance the feed was read once every 1.3 writes and notifications sent once every 2, each a
 * round trip costing the instance and the database more than the write's own statement did; with
 * the pause, 1.24 statements per write instead of 1.49, 9–28% less CPU per write between instance
 * and database (decision 008, twenty-seventh sitting). A lone write never waits for it.
 */
const FOLLOW_UP_GAP_MS = 1;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The decision connections' settings (see `PgDocuments.decisions`). */
const DECISION_SETTINGS = '-c default_transaction_isolation=serializable -c plan_cache_mode=force_generic_plan';

/**
 * Runs `run` (one transaction) again when PostgreSQL aborted it for a conflict with a concurrent
 * one (40001 serialization failure, 40P01 deadlock), after a short random pause, up to MAX_ATTEMPTS.
 */
async function retriedOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (isConflict(err) && attempt < MAX_ATTEMPTS) {
        await pause(Math.random() * 5 * attempt);
        continue;
      }
      throw err;
    }
  }
}

/** PostgreSQL aborted a transaction for a conflict with a concurrent one (serialization failure, deadlock). */
const isConflict = (err: unknown): boolean => {
  const code = (err as { code?: string }).code;
  return code === '40001' || code === '40P01';
};

/**
 * Notifications in a transaction of their own that waits for no flush (`synchronous_commit` off
 * for it alone): it holds the cluster's notify lock for microseconds, not for a flush.
 */
const NOTIFY_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify(n.c, n.p)
  FROM unnest($1::text[], $2::text[]) AS n(c, p)`;

/** The digest a room is announced by (names are user text: the digest bounds the payload). */
export const roomDigest = (room: string): string => createHash('md5').update(room).digest('hex');

/** A lost LISTEN connection is opened again after this long (and again, until it succeeds). */
const RELISTEN_MS = 500;
/** After a failed read of the feed (the database restarting), the next one waits this long. */
const FAILED_READ_RETRY_MS = 250;

/**
 * The rooms (`$1`, each with the last position its instance has seen, `$2`) whose log holds more:
 * each room's last position, one step down its own index. Asked as "does any entry of the room
 * lie past it" (EXISTS), PostgreSQL joined the rooms against every entry of every room (a hash
 * join over the whole table: 10.7 ms a check at the chat benchmark's 200 rooms, once a second on
 * every instance, and growing with all chat ever written).
 */
export const CHAT_HEADS_SQL = `SELECT r.room FROM unnest($1::text[], $2::bigint[]) AS r(room, seen)
  WHERE (SELECT c.pos FROM chat_updates c WHERE c.room = r.room ORDER BY c.pos DESC LIMIT 1) > r.seen`;

/** The change feed's read (`changesSince`): the documents after `$1` below the horizon, at most `$2`. */
export const FEED_SQL = `WITH h AS (SELECT ${HORIZON_SQL} AS horizon)
       SELECT h.horizon, d.collection, d.id, d.seq, d.deleted, d.body,
              COALESCE((SELECT max(p.seq) FROM documents p), 0) >= h.horizon AS pending
         FROM h LEFT JOIN LATERAL (
           SELECT * FROM documents WHERE seq > $1 AND seq < h.horizon ORDER BY seq LIMIT $2
         ) d ON true`;

/** The seq a written document got. */
export type Stamp = { collection: CollectionName; id: string; seq: number };
export type DocRef = { collection: CollectionName; id: string };
export type IndexRef = { collection: CollectionName; index: string; key: string };

type Queryable = pg.Pool | pg.PoolClient;

const DOC_COLUMNS = 'd.collection, d.id, d.seq, d.deleted, d.body';

async function readDoc(q: Queryable, collection: CollectionName, id: string): Promise<StoredDoc | undefined> {
  const { rows } = await q.query<DocRow>(
    `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.collection = $1 AND d.id = $2`,
    [collection, id],
  );
  return rows[0] && toDoc(rows[0]);
}

async function readByIndex(q: Queryable, collection: CollectionName, index: string, key: string): Promise<StoredDoc[]> {
  const { rows } = await q.query<DocRow>(
    `SELECT ${DOC_COLUMNS} FROM document_keys k JOIN documents d ON d.collection = k.collection AND d.id = k.id
      WHERE k.collection = $1 AND k.index_name = $2 AND k.key = $3`,
    [collection, index, key],
  );
  return rows.map(toDoc);
}

async function readAll(q: Queryable, collection: CollectionName): Promise<StoredDoc[]> {
  const { rows } = await q.query<DocRow>(`SELECT ${DOC_COLUMNS} FROM documents d WHERE d.collection = $1`, [
    collection,
  ]);
  return rows.map(toDoc);
}

async function readCurrent(q: Queryable, ids: readonly DocRef[], keys: readonly IndexRef[]): Promise<Change[]> {
  const { rows } = await q.query<DocRow>(
    `SELECT ${DOC_COLUMNS} FROM documents d
       JOIN unnest($1::text[], $2::text[]) AS r(c, i) ON d.collection = r.c AND d.id = r.i
     UNION ALL
     SELECT ${DOC_COLUMNS} FROM document_keys k
       JOIN unnest($3::text[], $4::text[], $5::text[]) AS r(c, x, key) ON k.collection = r.c AND k.index_name = r.x AND k.key = r.key
       JOIN documents d ON d.collection = k.collection AND d.id = k.id`,
    [ids.map((r) => r.collection), ids.map((r) => r.id), ...keyColumns(keys)],
  );
  const byRef = new Map(rows.map((r) => [`${r.collection}\u0000${r.id}`, r]));
  return [...byRef.values()].map((r) => ({ collection: r.collection, doc: toDoc(r) }));
}

/** Where a document is: `collection`, NUL, `id`; where an index key is: `collection`, NUL, `index`, NUL, `key`. */
export const refKey = (collection: string, id: string): string => `${collection}\u0000${id}`;
export const indexKey = (collection: string, index: string, key: string): string =>
  `${collection}\u0000${index}\u0000${key}`;

/**
 * What a decision read, as it read it, checked at its commit: the seq of each document read by id
 * (0: not there), every document filed under each index key read with its seq, and whether any
 * document was filed under each key asked about for existence only.
 */
export type Expected = {
  docs: readonly (DocRef & { seq: number })[];
  keys: readonly (IndexRef & { docs: ReadonlyMap<string, number> })[];
  exists: readonly (IndexRef & { any: boolean })[];
};

const NOTHING_READ: Expected = { docs: [], keys: [], exists: [] };

/** A decision to commit: what it read, as it read it, and what it writes. */
export type DecisionCommit = { expected: Expected; writes: readonly DocWrite[] };
/** How a decision's commit went: `ok: false`, something it read had changed and nothing was written. */
export type DecisionOutcome = { ok: false } | { ok: true; seq: number; stamps: Stamp[] };

/** Several decisions' reads as one decision's (a key read by two is checked twice, which holds). */
const merged = (decisions: readonly DecisionCommit[]): Expected => ({
  docs: decisions.flatMap((d) => d.expected.docs),
  keys: decisions.flatMap((d) => d.expected.keys),
  exists: decisions.flatMap((d) => d.expected.exists),
});
const TOO_MANY_ROWS = `A transaction writes at most ${ROWS_PER_TRANSACTION} documents`;

/**
 * Writes documents and their index keys (the stale ones removed, the new ones added; disjoint
 * sets, so the two parts cannot see each other's rows) if every read of the decision is as it
 * was ($10–$24), all in one statement, one snapshot. The reads are checked from the seq column
 * and the key table only: a check costs the number of documents read, never their size (a
 * creator's thousands of gigs are read by one key). Under a key, the documents filed now are those
 * read exactly when there are as many as were read and each one read is still filed there with
 * its seq.
 */
const WRITE_SQL = `WITH ok AS (
    SELECT NOT EXISTS (
             SELECT 1 FROM unnest($10::text[], $11::text[], $12::bigint[]) AS r(c, i, s)
               LEFT JOIN documents d ON d.collection = r.c AND d.id = r.i
              WHERE COALESCE(d.seq, 0) <> r.s)
       AND (SELECT count(*) FROM unnest($13::text[], $14::text[], $15::text[]) AS q(c, x, key)
              JOIN document_keys k ON k.collection = q.c AND k.index_name = q.x AND k.key = q.key
              JOIN documents d ON d.collection = k.collection AND d.id = k.id) = cardinality($16::text[])
       AND (SELECT count(*) FROM unnest($16::text[], $17::text[], $18::text[], $19::text[], $20::bigint[]) AS e(c, x, key, i, s)
              JOIN document_keys k ON k.collection = e.c AND k.index_name = e.x AND k.key = e.key AND k.id = e.i
              JOIN documents d ON d.collection = e.c AND d.id = e.i AND d.seq = e.s) = cardinality($16::text[])
       AND NOT EXISTS (
             SELECT 1 FROM unnest($21::text[], $22::text[], $23::text[], $24::boolean[]) AS q(c, x, key, a)
              WHERE q.a <> EXISTS (SELECT 1 FROM document_keys k WHERE k.collection = q.c AND k.index_name = q.x AND k.key = q.key))
      AS ok
  ), w AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::boolean[], $5::json[]) AS w(c, i, p, d, b)
     WHERE (SELECT ok FROM ok)
  ), k AS (
    SELECT * FROM unnest($6::text[], $7::text[], $8::text[], $9::text[]) AS k(c, x, key, i)
     WHERE (SELECT ok FROM ok)
  ), docs AS (
    INSERT INTO documents (collection, id, seq, deleted, body)
      SELECT c, i, ${seqSql('p')}, d, b FROM w
    ON CONFLICT (collection, id) DO UPDATE SET seq = EXCLUDED.seq, deleted = EXCLUDED.deleted, body = EXCLUDED.body
    RETURNING collection, id, seq
  ), stale AS (
    DELETE FROM document_keys dk USING w
     WHERE dk.collection = w.c AND dk.id = w.i
       AND NOT EXISTS (SELECT 1 FROM k WHERE k.c = dk.collection AND k.x = dk.index_name AND k.key = dk.key AND k.i = dk.id)
  ), added AS (
    INSERT INTO document_keys (collection, index_name, key, id) SELECT c, x, key, i FROM k ON CONFLICT DO NOTHING
  )
  SELECT (SELECT ok FROM ok) AS ok,
         (SELECT array_agg(docs.seq ORDER BY w.p) FROM docs JOIN w ON w.c = docs.collection AND w.i = docs.id) AS seqs`;

/** The collection, index and key of each index key, as three array parameters of a statement. */
const keyColumns = (keys: readonly { collection: string; index: string; key: string }[]): string[][] => [
  keys.map((k) => k.collection),
  keys.map((k) => k.index),
  keys.map((k) => k.key),
];

/**
 * Writes `writes` (a document written twice: its last write counts) if the reads are as
 * `expected`, in one statement (WRITE_SQL): in a transaction of the caller's, or on its own.
 */
async function writeIfCurrent(
  q: Queryable,
  indexes: IndexDefinitions,
  writes: readonly DocWrite[],
  expected: Expected,
): Promise<{ ok: false } | { ok: true; stamps: Stamp[] }> {
  const last = new Map<string, DocWrite>();
  for (const w of writes) last.set(`${w.collection}\u0000${idOf(w)}`, w);
  const docs = [...last.values()];
  if (docs.length > ROWS_PER_TRANSACTION) throw new Error(TOO_MANY_ROWS);
  // Index keys first: an index function that throws leaves nothing written.
  const keys = docs.flatMap((w) => indexKeys(indexes, w.collection, w.doc as StoredDoc));
  const filed = expected.keys.flatMap((k) => [...k.docs].map(([id, seq]) => ({ ...k, id, seq })));
  const { rows } = await q.query<{ ok: boolean; seqs: string[] | null }>({
    name: 'doc-write',
    text: WRITE_SQL,
    values: [
      docs.map((w) => w.collection),
      docs.map((w) => w.doc.id),
      docs.map((_, i) => i),
      docs.map((w) => w.doc._deleted),
      docs.map((w) => JSON.stringify(bodyOf(w.doc))),
      ...keyColumns(keys),
      keys.map((k) => k.id),
      expected.docs.map((r) => r.collection),
      expected.docs.map((r) => r.id),
      expected.docs.map((r) => r.seq),
      ...keyColumns(expected.keys),
      ...keyColumns(filed),
      filed.map((f) => f.id),
      filed.map((f) => f.seq),
      ...keyColumns(expected.exists),
      expected.exists.map((k) => k.any),
    ],
  });
  const row = rows[0];
  if (!row?.ok) return { ok: false };
  const seqs = row.seqs ?? [];
  if (seqs.length !== docs.length) throw new Error(`wrote ${docs.length} documents but got ${seqs.length} seqs back`);
  return { ok: true, stamps: docs.map((w, i) => ({ collection: w.collection, id: idOf(w), seq: toSeq(seqs[i]!) })) };
}

/**
 * Reads and writes inside one `transaction`. Reads see the transaction's own writes only after
 * `flush` (writes are buffered and sent in one statement at the end), so a policy reads first,
 * then writes, as the store's callers do.
 */
export class PgTransaction {
  private readonly writes: DocWrite[] = [];

  constructor(
    private readonly client: pg.PoolClient,
    private readonly indexes: IndexDefinitions,
  ) {}

  get(collection: CollectionName, id: string): Promise<StoredDoc | undefined> {
    return readDoc(this.client, collection, id);
  }

  byIndex(collection: CollectionName, index: string, key: string): Promise<StoredDoc[]> {
    return readByIndex(this.client, collection, index, key);
  }

  all(collection: CollectionName): Promise<StoredDoc[]> {
    return readAll(this.client, collection);
  }

  write(writes: readonly DocWrite[]): void {
    if (this.writes.length + writes.length > ROWS_PER_TRANSACTION) throw new Error(TOO_MANY_ROWS);
    this.writes.push(...writes);
  }

  /** Sends the buffered writes; returns the seq each written document got (none when nothing was written). */
  async flush(): Promise<Stamp[]> {
    const writes = this.writes.splice(0);
    if (writes.length === 0) return [];
    const written = await writeIfCurrent(this.client, this.indexes, writes, NOTHING_READ);
    if (!written.ok) throw new Error('a write that checks nothing was refused');
    return written.stamps;
  }
}

export function indexKeys(indexes: IndexDefinitions, collection: CollectionName, doc: StoredDoc): IndexKeyRow[] {
  return Object.entries(indexes[collection] ?? {}).flatMap(([index, keyOf]) =>
    keysUnder(collection, index, keyOf, doc),
  );
}

/** A row of `document_keys`: the document `id` of `collection` is filed under `key` of `index`. */
export type IndexKeyRow = { collection: string; index: string; key: string; id: string };

/** The rows of `document_keys` one index function files a document under. */
export function keysUnder(
  collection: string,
  index: string,
  keyOf: (doc: StoredDoc) => string | string[] | undefined,
  doc: StoredDoc,
): IndexKeyRow[] {
  const keys = keyOf(doc);
  return (keys === undefined ? [] : Array.isArray(keys) ? keys : [keys]).map((key) => ({
    collection,
    index,
    key,
    id: doc.id,
  }));
}

function idOf(write: DocWrite): string {
  const { id } = write.doc;
  if (typeof id !== 'string' || id === '') throw new Error(`A document for ${write.collection} has no id.`);
  return id;
}

/** What is stored in `body`: the document without the fields kept in columns. */
function bodyOf(doc: DocWrite['doc']): Record<string, unknown> {
  const { _seq, _deleted, ...body } = doc;
  return body;
}
