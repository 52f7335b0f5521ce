import type { Response } from 'express';
import type { AppContext } from '../context';
import type { Change } from '../store/store';
import { REPLICATED, viewFor, type ReplicatedCollection } from './visibility';

const HEARTBEAT_MS = 25_000;

type Listener = { userId: string; sessionId: string; res: Response };

/**
 * One Server-Sent Events stream per signed-in session. Each durable group of changes is filtered
 * per listener and sent as one `changes` event per collection: `{ collection, documents, checkpoint }`.
 * The hub is a rebuildable cache of open connections; "a change happened" comes from the store.
 */
export class ChangeStreamHub {
  private listeners = new Set<Listener>();
  private heartbeat: NodeJS.Timeout;
  private unsubscribe: () => void;

  constructor(private readonly ctx: AppContext) {
    this.unsubscribe = ctx.store.onDurable((changes) => this.broadcast(changes));
    this.heartbeat = setInterval(() => {
      for (const l of this.listeners) l.res.write(': heartbeat\n\n');
    }, HEARTBEAT_MS).unref();
    ctx.events.on('session-revoked', (sessionId: string) => {
      for (const l of this.listeners) if (l.sessionId === sessionId) l.res.end();
    });
  }

  get size(): number {
    return this.listeners.size;
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
    this.listeners.add(listener);
    // The client answers `hello` with RESYNC: whatever changed while it was away comes by pull.
    res.write(`retry: 2000\nevent: hello\ndata: ${JSON.stringify({ seq: this.ctx.store.durableSeq() })}\n\n`);
    res.on('close', () => this.listeners.delete(listener));
  }

  private broadcast(changes: Change[]): void {
    if (this.listeners.size === 0) return;
    const relevant = changes.filter((c) => (REPLICATED as readonly string[]).includes(c.collection));
    if (relevant.length === 0) return;
    const seq = changes[changes.length - 1]!.doc._seq;
    for (const l of this.listeners) {
      const byCollection = new Map<ReplicatedCollection, Record<string, unknown>[]>();
      for (const change of relevant) {
        const view = viewFor(this.ctx.store, l.userId, change.collection, change.doc);
        if (!view) continue;
        const name = change.collection as ReplicatedCollection;
        const list = byCollection.get(name) ?? [];
        list.push(view);
        byCollection.set(name, list);
      }
      for (const [collection, documents] of byCollection) {
        l.res.write(`event: changes\ndata: ${JSON.stringify({ collection, documents, checkpoint: { seq } })}\n\n`);
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
