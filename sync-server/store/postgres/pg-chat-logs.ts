import { randomBytes } from 'node:crypto';
import { StoreUnavailableError, type ChatDecision, type ChatRange } from '../store';
import { roomDigest as digest, type ChatEntry, type ChatLogEntries, type PgDocuments } from './pg-documents';

/**
 * The chat logs of a PostgreSQL-backed instance: each room held open here (`open`/`close`,
 * counted) is kept in memory in the order the database numbers its entries, and only committed
 * entries are in it. A room's chat transactions and catch-ups run one after another. A
 * transaction decides on the log as held here and appends its entries at the positions after the
 * last one seen, which the database refuses when any entry at or past the first exists:
 * then the entries missed are read, handed to `onRemote`, and the decision is taken again
 * (docs/decisions/023-postgres-instances.md, "Chat across instances"). Another instance's append
 * is announced by the digest of the room's name; the rooms held here catch up on it, and all of
 * them after the listening connection comes back (notifications sent meanwhile are lost).
 * Presence goes between instances as notifications too, never stored.
 */

type RoomLog = {
  entries: ChatEntry[];
  /** Highest database position this instance has seen. */
  lastPos: number;
  /** Set once the log is read; until then a notification only marks it for a catch-up. */
  loaded: boolean;
  ready: Promise<void>;
  notified: boolean;
  /** Opens not yet closed. */
  holds: number;
  /** The room's transactions and catch-ups, one after another. */
  queue: Promise<unknown>;
};

/** A decision taken this many times on a log other instances kept appending to gives up: StoreUnavailableError (try again later). */
const MAX_ATTEMPTS = 100;

/**
 * How often the rooms held here are checked for entries another instance appended without its
 * notification arriving (an instance killed between its append and the notification, which
 * follows the commit): one query for all of them.
 */
const HEADS_CHECK_MS = 1_000;

/** NOTIFY payloads stay under 8,000 bytes: a presence update past this many is not sent. */
const PRESENCE_MAX_BYTES = 5_600;

export class PgChatLogs {
  private readonly logs = new Map<string, RoomLog>();
  private readonly byDigest = new Map<string, string>();
  private readonly remoteListeners = new Set<(room: string, updates: Uint8Array[]) => void>();
  private readonly presenceListeners = new Set<(room: string, update: Uint8Array) => void>();
  /** Tells this instance's presence notifications from the others'. */
  private readonly instance = randomBytes(8).toString('hex');
  private readonly stopListening: () => void;
  private checkingHeads = false;

  constructor(private readonly documents: PgDocuments) {
    const stopAppended = documents.onChatAppended((d) => {
      const room = this.byDigest.get(d);
      const log = room === undefined ? undefined : this.logs.get(room);
      if (!log) return;
      if (log.loaded) void this.catchUp(room!, log).catch(() => undefined);
      else log.notified = true;
    });
    const stopResync = documents.onChatResync(() => {
      for (const [room, log] of this.logs) if (log.loaded) void this.catchUp(room, log).catch(() => undefined);
    });
    const stopPresence = documents.onPresence((payload) => this.fromPresence(payload));
    const heads = setInterval(() => void this.checkHeads(), HEADS_CHECK_MS);
    heads.unref();
    this.stopListening = () => {
      stopAppended();
      stopResync();
      stopPresence();
      clearInterval(heads);
    };
  }

  /** Catches up the rooms held here whose log has grown past what they have seen. */
  private async checkHeads(): Promise<void> {
    if (this.checkingHeads) return;
    const seen = new Map<string, number>();
    for (const [room, log] of this.logs) if (log.loaded) seen.set(room, log.lastPos);
    if (seen.size === 0) return;
    this.checkingHeads = true;
    try {
      for (const room of await this.documents.chatHeads(seen)) {
        const log = this.logs.get(room);
        if (log?.loaded) void this.catchUp(room, log).catch(() => undefined);
      }
    } catch {
      // Out of reach: the next check tries again.
    } finally {
      this.checkingHeads = false;
    }
  }

  /** Holds a room's log open, reading it first when it is not held yet. */
  open(room: string): Promise<void> {
    let log = this.logs.get(room);
    if (!log) {
      const created: RoomLog = {
        entries: [],
        lastPos: 0,
        loaded: false,
        ready: Promise.resolve(),
        notified: false,
        holds: 0,
        queue: Promise.resolve(),
      };
      // Listened for before the read: an append committed while it runs is caught up after it.
      this.logs.set(room, created);
      this.byDigest.set(digest(room), room);
      created.ready = this.documents.chatLog(room).then(({ pos, updates }) => {
        created.entries = updates.map((update, i) => ({ update, pos: pos[i]! }));
        created.lastPos = pos.at(-1) ?? 0;
        created.loaded = true;
        if (created.notified) void this.catchUp(room, created).catch(() => undefined);
      });
      created.queue = created.ready.catch(() => undefined);
      log = created;
    }
    const held = log;
    held.holds++;
    return held.ready.catch((err: unknown) => {
      this.close(room, held);
      throw err;
    });
  }

  /** Releases one `open`; the last one frees the log once its queued work has finished. */
  close(room: string, log = this.logs.get(room)): void {
    if (!log || log.holds === 0) return;
    log.holds--;
    if (log.holds > 0) return;
    void log.queue.then(() => {
      if (log.holds > 0 || this.logs.get(room) !== log) return;
      this.logs.delete(room);
      this.byDigest.delete(digest(room));
    });
  }

  updates(room: string): Uint8Array[] {
    return this.loadedLog(room).entries.map((e) => e.update);
  }

  /** Entries appended by other instances, once this instance has read them (not its own). */
  onRemote(listener: (room: string, updates: Uint8Array[]) => void): () => void {
    this.remoteListeners.add(listener);
    return () => this.remoteListeners.delete(listener);
  }

  /** See `Store.publishPresence`: `<instance> <room digest> <update in base64>`, dropped when the database is out of reach. */
  publishPresence(room: string, update: Uint8Array): void {
    if (update.byteLength > PRESENCE_MAX_BYTES) return;
    const payload = `${this.instance} ${digest(room)} ${Buffer.from(update).toString('base64')}`;
    void this.documents.notifyPresence(payload).catch(() => undefined);
  }

  onRemotePresence(listener: (room: string, update: Uint8Array) => void): () => void {
    this.presenceListeners.add(listener);
    return () => this.presenceListeners.delete(listener);
  }

  private fromPresence(payload: string): void {
    const [instance, roomDigest, base64 = ''] = payload.split(' ');
    if (instance === this.instance || roomDigest === undefined) return;
    const room = this.byDigest.get(roomDigest);
    if (room === undefined || !this.logs.get(room)?.loaded) return;
    const update = new Uint8Array(Buffer.from(base64, 'base64'));
    for (const listener of this.presenceListeners) {
      try {
        listener(room, update);
      } catch {
        // The room's own failure; presence is best effort.
      }
    }
  }

  /** See `Store.chatTransaction`. */
  transaction<T>(
    room: string,
    decide: () => ChatDecision<T>,
    logged?: (decision: ChatDecision<T>) => void,
  ): Promise<T> {
    let log: RoomLog;
    try {
      log = this.loadedLog(room);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return this.enqueue(log, async () => {
      for (let attempt = 1; ; attempt++) {
        const decision = decide();
        const updates = (decision.append ?? []).map((u) => new Uint8Array(u));
        if (updates.length === 0) return decision.value;
        const outcome = await this.documents.appendChat(room, updates, log.lastPos);
        if (outcome.ok) {
          const first = outcome.pos - updates.length + 1;
          log.entries.push(...updates.map((update, i) => ({ update, pos: first + i })));
          log.lastPos = outcome.pos;
          logged?.(decision);
          return decision.value;
        }
        if (attempt >= MAX_ATTEMPTS) {
          // Nothing was appended; the same update may well pass in a moment (the room closes its
          // peers with "try again later", as when the database is out of reach).
          throw new StoreUnavailableError(
            new Error(
              `chat: gave up appending to a room after ${MAX_ATTEMPTS} attempts (other instances kept appending)`,
            ),
          );
        }
        await this.readMissed(room, log);
      }
    });
  }

  /**
   * Merges the entries `from`..`to` of `updates(room)` as numbered now. Entries read or appended
   * meanwhile stay. When another instance merged some of them first, nothing is written and the
   * database's entries for those positions replace them here.
   */
  compact(room: string, merged: Uint8Array, range?: ChatRange): Promise<void> {
    let log: RoomLog;
    try {
      log = this.loadedLog(room);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const { from, to } = range ?? { from: 0, to: log.entries.length };
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from || to > log.entries.length)
      return Promise.reject(new Error(`chat log ${room} has ${log.entries.length} entries, not ${from}..${to}`));
    const merging = log.entries.slice(from, to);
    const copy = new Uint8Array(merged);
    return this.enqueue(log, async () => {
      if (merging.some((e) => !log.entries.includes(e))) return; // merged here meanwhile
      const first = log.entries.indexOf(merging[0]!);
      const last = Math.max(...merging.map((e) => e.pos));
      if (await this.documents.compactChat(room, copy, merging)) {
        log.entries.splice(first, merging.length, { update: copy, pos: last });
        return;
      }
      // Another instance merged some of these entries first. Its merge went to the last position
      // it merged, which can be past these, even past the last one seen here: everything from the
      // first of them on is read again, in one snapshot, so the log held here is the database's
      // from there, and what is new is handed over as a catch-up would.
      const low = Math.min(...merging.map((e) => e.pos));
      // (Nothing else changes the log meanwhile: its work runs one item at a time.)
      const fresh = await this.documents.chatLog(room, low - 1);
      const seen = fresh.pos.filter((pos) => pos <= log.lastPos).length;
      log.entries.splice(
        first,
        log.entries.length - first,
        ...fresh.updates.slice(0, seen).map((update, i) => ({ update, pos: fresh.pos[i]! })),
      );
      this.handOver(room, log, { pos: fresh.pos.slice(seen), updates: fresh.updates.slice(seen) });
    });
  }

  /** Resolves once every write queued so far has finished. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.logs.values()].map((log) => log.queue));
  }

  /** Stops following other instances' appends (the store is closing). */
  stop(): void {
    this.stopListening();
  }

  private loadedLog(room: string): RoomLog {
    const log = this.logs.get(room);
    if (!log?.loaded) throw new Error(`The chat log of ${room} is not open on this instance.`);
    return log;
  }

  private catchUp(room: string, log: RoomLog): Promise<void> {
    return this.enqueue(log, () => this.readMissed(room, log));
  }

  /** Reads what other instances appended past `lastPos` and hands it to the listeners. */
  private async readMissed(room: string, log: RoomLog): Promise<void> {
    this.handOver(room, log, await this.documents.chatLog(room, log.lastPos));
  }

  /** Entries past `lastPos`, read from the database: into the log, then to the listeners. */
  private handOver(room: string, log: RoomLog, { pos, updates }: ChatLogEntries): void {
    if (updates.length === 0) return;
    log.entries.push(...updates.map((update, i) => ({ update, pos: pos[i]! })));
    log.lastPos = pos.at(-1)!;
    for (const listener of this.remoteListeners) {
      try {
        listener(room, updates);
      } catch {
        // A listener's failure is its own (the room logs it); the log stays current.
      }
    }
  }

  private enqueue<T>(log: RoomLog, work: () => Promise<T>): Promise<T> {
    const run = log.queue.then(work);
    log.queue = run.catch(() => undefined);
    return run;
  }
}
