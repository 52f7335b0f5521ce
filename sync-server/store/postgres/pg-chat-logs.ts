import { createHash } from 'node:crypto';
import type { ChatRange } from '../store';
import type { PgDocuments } from './pg-documents';

/**
 * The chat logs of a PostgreSQL-backed instance: each room it has opened is held in memory, in
 * the order the database numbers its entries, followed by this instance's appends still being
 * written (the store's reads include them, as the embedded store's do). Appends of one room go
 * out one after another, each at the position after the last entry this instance has seen; when
 * another instance took that position, the entries it missed are read, put before its own
 * pending ones, handed to `onRemote`, and the append tries the next position. Another instance's
 * append is announced by the room name's digest: the rooms held here catch up the same way.
 */

type Entry = { update: Uint8Array; pos?: number };

type RoomLog = {
  entries: Entry[];
  /** Highest database position this instance has seen. */
  lastPos: number;
  /** The room's writes and catch-ups, one after another. */
  queue: Promise<unknown>;
};

const digest = (room: string) => createHash('md5').update(room).digest('hex');

export class PgChatLogs {
  private readonly rooms = new Map<string, RoomLog>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly byDigest = new Map<string, string>();
  private readonly remoteListeners = new Set<(room: string, updates: Uint8Array[]) => void>();
  private readonly stopListening: () => void;

  constructor(private readonly documents: PgDocuments) {
    this.stopListening = documents.onChatAppended((d) => {
      const room = this.byDigest.get(d);
      if (room !== undefined) void this.catchUp(room).catch(() => undefined);
    });
  }

  /** Loads a room's log (once; later calls resolve at once). */
  open(room: string): Promise<void> {
    if (this.rooms.has(room)) return Promise.resolve();
    let loading = this.loading.get(room);
    if (!loading) {
      loading = this.documents.chatLog(room).then(
        ({ pos, updates }) => {
          this.loading.delete(room);
          this.rooms.set(room, {
            entries: updates.map((update, i) => ({ update, pos: pos[i] })),
            lastPos: pos.at(-1) ?? 0,
            queue: Promise.resolve(),
          });
          this.byDigest.set(digest(room), room);
        },
        (err: unknown) => {
          this.loading.delete(room);
          throw err;
        },
      );
      this.loading.set(room, loading);
    }
    return loading;
  }

  updates(room: string): Uint8Array[] {
    return this.log(room).entries.map((e) => e.update);
  }

  /** Entries appended by other instances, once this instance has read them (not its own). */
  onRemote(listener: (room: string, updates: Uint8Array[]) => void): () => void {
    this.remoteListeners.add(listener);
    return () => this.remoteListeners.delete(listener);
  }

  append(room: string, update: Uint8Array): Promise<void> {
    const log = this.log(room);
    const entry: Entry = { update: new Uint8Array(update) };
    log.entries.push(entry);
    return this.enqueue(log, async () => {
      try {
        for (;;) {
          const outcome = await this.documents.appendChat(room, entry.update, log.lastPos);
          if (outcome.ok) {
            entry.pos = outcome.pos;
            log.lastPos = outcome.pos;
            return;
          }
          await this.readMissed(room, log);
        }
      } catch (err) {
        const at = log.entries.indexOf(entry);
        if (at >= 0) log.entries.splice(at, 1);
        throw err;
      }
    });
  }

  /**
   * Merges the entries `from`..`to` of `updates(room)` as numbered now, once their appends are
   * written. Entries read or appended meanwhile stay. Another instance's compaction of some of
   * them first leaves the log as it is (the merge is redundant, not wrong).
   */
  compact(room: string, merged: Uint8Array, range?: ChatRange): Promise<void> {
    const log = this.log(room);
    const { from, to } = range ?? { from: 0, to: log.entries.length };
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from || to > log.entries.length)
      return Promise.reject(new Error(`chat log ${room} has ${log.entries.length} entries, not ${from}..${to}`));
    const merging = log.entries.slice(from, to);
    return this.enqueue(log, async () => {
      if (merging.some((e) => e.pos === undefined || !log.entries.includes(e))) return; // an append failed
      const positions = merging.map((e) => e.pos!);
      if (!(await this.documents.compactChat(room, merged, positions))) return;
      const at = log.entries.indexOf(merging.at(-1)!);
      log.entries.splice(at, 1, { update: new Uint8Array(merged), pos: Math.max(...positions) });
      log.entries = log.entries.filter((e) => !merging.includes(e));
    });
  }

  /** Resolves once every write queued so far has finished. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.rooms.values()].map((log) => log.queue));
  }

  close(): void {
    this.stopListening();
  }

  private log(room: string): RoomLog {
    const log = this.rooms.get(room);
    if (!log) throw new Error(`The chat log of ${room} is not open on this instance.`);
    return log;
  }

  private catchUp(room: string): Promise<void> {
    const log = this.log(room);
    return this.enqueue(log, () => this.readMissed(room, log));
  }

  /** Reads what other instances appended past `lastPos`, files it before this instance's pending appends. */
  private async readMissed(room: string, log: RoomLog): Promise<void> {
    const { pos, updates } = await this.documents.chatLog(room, log.lastPos);
    if (updates.length === 0) return;
    const firstPending = log.entries.findIndex((e) => e.pos === undefined);
    const missed = updates.map((update, i) => ({ update, pos: pos[i] }));
    log.entries.splice(firstPending < 0 ? log.entries.length : firstPending, 0, ...missed);
    log.lastPos = pos.at(-1)!;
    for (const listener of this.remoteListeners) {
      try {
        listener(room, updates);
      } catch {
        // A listener's failure is its own (the room logs it); the log stays current.
      }
    }
  }

  private enqueue(log: RoomLog, work: () => Promise<void>): Promise<void> {
    const run = log.queue.then(work, work);
    log.queue = run.catch(() => undefined);
    return run;
  }
}
