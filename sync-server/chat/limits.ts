const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * What one user may cost a chat room, and what a room may grow to (decision 011). Every frame a
 * socket sends costs work in proportion to its size, never to the room's: these bounds keep the
 * server answering everyone else while one user floods.
 */
export const CHAT_LIMITS = {
  /** Largest frame a socket may send (ws closes a bigger one with 1009): the first sync of a long offline queue fits. */
  maxFrameBytes: 1 * MiB,
  /** A room's stored log may not grow past this: a client update that would is refused, 'This conversation is full'. */
  roomMaxBytes: 4 * MiB,
  /** Frames each user may send in a room, per second, with this burst (all their sockets there together). */
  framesPerSecond: 20,
  frameBurst: 60,
  /** Bytes each user may send in a room, per second. One frame may overdraw the burst; the next waits until it is repaid. */
  bytesPerSecond: 128 * KiB,
  byteBurst: 256 * KiB,
  /** Frames over the budget wait unread (the socket is paused); past this many bytes waiting, the socket is closed. */
  inboxMaxBytes: 2 * MiB,
  /** Open chat sockets: per user in one room (tabs and devices), per room, per user in all rooms. */
  socketsPerUserInRoom: 6,
  socketsPerRoom: 12,
  socketsPerUser: 24,
  /** New chat sockets each user may open per second, with this burst. */
  joinsPerSecond: 5,
  joinBurst: 20,
  /** Presence changes go out to each peer together, at most once per this many ms. */
  awarenessFlushMs: 50,
  /** A presence frame is a few small states; a bigger one is dropped unread. */
  awarenessMaxBytes: 4 * KiB,
  /** A socket that leaves this much of what it was sent unread is closed (it reconnects later). */
  sendBufferMaxBytes: 16 * MiB,
  /** Compaction merges only the log's newest small entries, so one merge costs about this much at most. */
  segmentBytes: 128 * KiB,
  /**
   * The log's newest small entries are merged once there are more than this many (or once they
   * add up to a segment). With 200, a busy room's tail was merged again and again on its way to a
   * segment (about three merges per byte, a tenth of the server's time at saturation; decision 008).
   */
  compactAfterEntries: 1_000,
  /** A sync request behind by more than this many values is answered from the stored log, never by encoding the room. */
  directSyncMaxValues: 64,
} as const;
