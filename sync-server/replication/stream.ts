import type { Response } from 'express';
import {
  STREAM_EVENTS,
  STREAM_HEARTBEAT_MS,
  STREAM_RETRY_MS,
  type Checkpoint,
  type HelloEvent,
} from '../../shared/sync/protocol';
import type { AppContext } from '../context';
import type { Change } from '../store/store';
import {
  documentsJson,
  REPLICATED,
  viewJson,
  viewKindFor,
  type ReplicatedCollection,
  type ViewKind,
} from './visibility';

/**
 * What one account may hold open, and how far behind a reader may fall (docs/decisions/012).
 * A browser replicates from one tab, so a session needs one stream (two while the leading tab
 * changes); a user has a few devices. Past a cap the oldest stream of that session or user is
 * closed. A stream whose reader leaves more than `maxBufferedBytes` unsent is dropped: its
 * client reconnects and pulls what it missed from its checkpoint, compressed and paged, which
 * is cheaper for both sides than holding the backlog here.
 */
export const STREAM_LIMITS = { perSession: 4, perUser: 16, maxBufferedBytes: 1024 * 1024 };

type Listener = { userId: string; sessionId: string; res: Response };

/** One document of a batch as each kind of reader sees it, serialized at most once per kind. */
type BatchDoc = { change: Change; json: Partial<Record<ViewKind, string>> };

/**
 * One Server-Sent Events stream per signed-in session. Each durable group of changes is filtered
 * per listener and sent as one `changes` event per collection (`ChangesEvent` in
 * shared/sync/protocol.ts: `{ collection, documents, checkpoint }`). Each document is serialized
 * once per batch (per view kind), and listeners that see the same documents share one payload
 * buffer. The hub is a rebuildable cache of open connections; "a change happened" comes from
 * the store.
 */
export class ChangeStreamHub {
  private listeners = new Set<Listener>();
  private heartbeat: NodeJS.Timeout;
  private unsubscribe: () => void;
  /** Streams dropped for falling behind, since start (for tests and operators). */
  dropped = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly limits = STREAM_LIMITS,
  ) {
    this.unsubscribe = ctx.store.onDurable((changes) => this.broadcast(changes));
    this.heartbeat = setInterval(() => {
      for (const l of this.listeners) this.send(l, ': heartbeat\n\n');
    }, STREAM_HEARTBEAT_MS).unref();
    ctx.events.on('session-revoked', (sessionId: string) => {
      for (const l of this.listeners) if (l.sessionId === sessionId) l.res.end();
    });
  }

  get size(): number {
    return this.listeners.size;
  }

  /** How many streams this user has open. */
  openFor(userId: string): number {
    let n = 0;
    for (const l of this.listeners) if (l.userId === userId) n += 1;
    return n;
  }

  open(res: Response, userId: string, sessionId: string): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    const listener = { userId, sessionId, res };
    this.closeOldest((l) => l.sessionId === sessionId, this.limits.perSession - 1);
    this.closeOldest((l) => l.userId === userId, this.limits.perUser - 1);
    this.listeners.add(listener);
    // The client answers `hello` with RESYNC: whatever changed while it was away comes by pull.
    const hello: HelloEvent = { seq: this.ctx.store.durableSeq() };
    res.write(`retry: ${STREAM_RETRY_MS}\nevent: ${STREAM_EVENTS.hello}\ndata: ${JSON.stringify(hello)}\n\n`);
    res.on('close', () => this.listeners.delete(listener));
  }

  /** Ends the oldest matching streams until at most `keep` remain (the set keeps opening order). */
  private closeOldest(match: (l: Listener) => boolean, keep: number): void {
    const matching = [...this.listeners].filter(match);
    for (const l of matching.slice(0, Math.max(0, matching.length - keep))) {
      this.listeners.delete(l);
      l.res.end();
    }
  }

  /** Writes to one stream, or drops it when its reader has left too much unsent. */
  private send(l: Listener, chunk: string | Buffer): void {
    if (!this.listeners.has(l)) return;
    if (l.res.writableLength > this.limits.maxBufferedBytes) {
      this.listeners.delete(l);
      this.dropped += 1;
      // Destroyed, not ended: ending would keep the backlog queued until the reader takes it.
      l.res.destroy();
      return;
    }
    l.res.write(chunk);
  }

  private broadcast(changes: Change[]): void {
    if (this.listeners.size === 0) return;
    const relevant: BatchDoc[] = changes
      .filter((c) => (REPLICATED as readonly string[]).includes(c.collection))
      .map((change) => ({ change, json: {} }));
    if (relevant.length === 0) return;
    const seq = changes[changes.length - 1]!.doc._seq;
    // A `ChangesEvent`, written by hand so that each document's JSON is shared (see above).
    const checkpoint: Checkpoint = { seq };
    /** Payloads by the documents and kinds they carry: readers who see the same share the buffer. */
    const payloads = new Map<string, Buffer>();
    for (const l of [...this.listeners]) {
      const byCollection = new Map<ReplicatedCollection, { key: string; docs: string[] }>();
      relevant.forEach((item, index) => {
        const { collection, doc } = item.change;
        const kind = viewKindFor(this.ctx.store, l.userId, collection, doc);
        if (!kind) return;
        const json = (item.json[kind] ??= viewJson(kind, collection, doc));
        const name = collection as ReplicatedCollection;
        const entry = byCollection.get(name) ?? { key: name, docs: [] };
        entry.key += `,${index}${kind[0]}`;
        entry.docs.push(json);
        byCollection.set(name, entry);
      });
      for (const [collection, { key, docs }] of byCollection) {
        let payload = payloads.get(key);
        if (!payload) {
          payload = Buffer.from(
            `event: ${STREAM_EVENTS.changes}\ndata: ${documentsJson(docs, checkpoint, collection)}\n\n`,
          );
          payloads.set(key, payload);
        }
        this.send(l, payload);
      }
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const l of this.listeners) l.res.end();
    this.listeners.clear();
  }
}
