import type { StampedMessage } from './record';

/**
 * How often a busy room's conversation record and notification are written at most. The first
 * messages after a quiet second are recorded at once (the peers see them once their record is
 * written too); the ones that follow within the second are recorded together at its end, with
 * the newest message of each sender. A busy conversation then costs its two users' devices one
 * record and notification update a second instead of one per message, and the server one record
 * a second instead of one per decision (decision 008).
 */
export const RECORD_EVERY_MS = 1_000;

type RoomPace = {
  /** Messages waiting for the room's next record: the newest of each sender. */
  waiting: Map<string, StampedMessage>;
  /** The end of the room's second: its waiting messages are recorded then, or the room forgotten. */
  timer: NodeJS.Timeout;
  /** The room's last record (it resolves once written; it never rejects: failures are logged). */
  writing: Promise<void>;
};

/**
 * Paces the records of each room (`record` writes one: see `ChatHub.record`). A room is kept
 * only while its second since the last record runs, so this holds the rooms recorded in the last
 * second, each with at most one message per sender.
 */
export class RecordPace {
  private readonly rooms = new Map<string, RoomPace>();
  private closed = false;

  constructor(
    private readonly record: (room: string, messages: StampedMessage[]) => Promise<void>,
    private readonly everyMs: number = RECORD_EVERY_MS,
  ) {}

  /**
   * Stamped messages of `room`: recorded now when the room had no record in the last second (the
   * promise resolves once it is written), otherwise kept for the record at the end of that second
   * (resolves at once).
   */
  stamped(room: string, messages: StampedMessage[]): Promise<void> {
    const pace = this.rooms.get(room);
    if (!pace) {
      const writing = this.record(room, messages);
      if (!this.closed) this.rooms.set(room, { waiting: new Map(), timer: this.endOfSecond(room), writing });
      return writing;
    }
    for (const m of messages) {
      const kept = pace.waiting.get(m.senderId);
      if (!kept || m.timestamp > kept.timestamp) pace.waiting.set(m.senderId, m);
    }
    return Promise.resolve();
  }

  /** Records the room's waiting messages now, if any, and forgets the room; resolves once its records are written. */
  async flush(room: string): Promise<void> {
    const pace = this.rooms.get(room);
    if (!pace) return;
    clearTimeout(pace.timer);
    this.rooms.delete(room);
    await this.writeWaiting(room, pace);
  }

  /** Records every room's waiting messages (the server is stopping); later messages are recorded at once. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.rooms.keys()].map((room) => this.flush(room)));
  }

  /** Rooms recorded in the last second (tests watch that this stays bounded). */
  get size(): number {
    return this.rooms.size;
  }

  private endOfSecond(room: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const pace = this.rooms.get(room);
      if (!pace || pace.timer !== timer) return;
      if (pace.waiting.size === 0) {
        this.rooms.delete(room); // quiet: the room's next message is recorded at once
        return;
      }
      void this.writeWaiting(room, pace);
      pace.timer = this.endOfSecond(room);
    }, this.everyMs);
    timer.unref();
    return timer;
  }

  /** The waiting messages' record, after the room's record under way: at most one of the room's in flight. */
  private writeWaiting(room: string, pace: RoomPace): Promise<void> {
    if (pace.waiting.size > 0) {
      const messages = [...pace.waiting.values()];
      pace.waiting = new Map();
      pace.writing = pace.writing.then(() => this.record(room, messages));
    }
    return pace.writing;
  }
}
