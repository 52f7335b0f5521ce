import * as awarenessProtocol from 'y-protocols/awareness';
import type * as Y from 'yjs';
import { readOwnAwareness } from './awareness-filter';
import { CHAT_LIMITS } from './limits';
import { awarenessMessage } from './protocol';

/** A room's peer as presence sees it. */
type PresencePeer = { readonly userId: string; send(message: Uint8Array): void };

/**
 * Presence (who is here, who is typing) in one room: y-protocols awareness, each peer speaking
 * only for its own client ids, sent out coalesced. Kept in this instance's memory, beside the
 * room's document; it is not stored.
 */
export class RoomPresence<P extends PresencePeer> {
  private readonly awareness: awarenessProtocol.Awareness;
  /** The client ids each peer speaks for. */
  private readonly controlled = new Map<P, Set<number>>();
  /** Presence changes waiting to go out, by peer (sent together every awarenessFlushMs). */
  private readonly out = new Map<P, Set<number>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly doc: Y.Doc,
    /** Who writes with a Yjs client id, if anyone does. */
    private readonly ownerOf: (client: number) => string | undefined,
  ) {
    this.awareness = new awarenessProtocol.Awareness(doc);
    this.awareness.setLocalState(null);
    this.awareness.on('update', this.onUpdate);
  }

  /** A new peer gets everyone present. */
  join(peer: P): void {
    this.controlled.set(peer, new Set());
    const present = [...this.awareness.getStates().keys()];
    if (present.length > 0)
      peer.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, present)));
  }

  /** A peer gone: the others hear its clients leave. */
  leave(peer: P): void {
    const controlled = this.controlled.get(peer);
    if (!controlled) return;
    this.controlled.delete(peer);
    this.out.delete(peer);
    awarenessProtocol.removeAwarenessStates(this.awareness, [...controlled], null);
  }

  receive(peer: P, update: Uint8Array): void {
    const controlled = this.controlled.get(peer);
    if (!controlled || update.byteLength > CHAT_LIMITS.awarenessMaxBytes) return;
    const entries = readOwnAwareness(update, peer.userId, (client) => this.mayControl(peer, client));
    if (!entries) return; // someone else's presence, or fields we do not carry: dropped
    for (const { clientId, state } of entries) {
      for (const [other, ids] of this.controlled) if (other !== peer) ids.delete(clientId);
      if (state === null) controlled.delete(clientId);
      else controlled.add(clientId);
    }
    awarenessProtocol.applyAwarenessUpdate(this.awareness, update, peer);
  }

  /** A peer asked for everyone's presence. */
  query(peer: P): void {
    this.queue(peer, [...this.awareness.getStates().keys()]);
  }

  destroy(): void {
    clearTimeout(this.timer);
    this.out.clear();
    this.awareness.destroy();
  }

  /** A client id is a peer's own unless another user writes with it or another user's socket holds it. */
  private mayControl(peer: P, client: number): boolean {
    if (client === this.doc.clientID) return false;
    const owner = this.ownerOf(client);
    if (owner !== undefined && owner !== peer.userId) return false;
    for (const [other, ids] of this.controlled)
      if (other !== peer && other.userId !== peer.userId && ids.has(client)) return false;
    return true;
  }

  private onUpdate = (
    { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void => {
    const changed = [...added, ...updated, ...removed];
    for (const peer of this.controlled.keys()) if (peer !== origin) this.queue(peer, changed);
  };

  /**
   * Presence goes out coalesced: each peer gets at most one frame per awarenessFlushMs with the
   * latest state of every client that changed, however many presence frames came in meanwhile.
   */
  private queue(peer: P, clients: number[]): void {
    let queued = this.out.get(peer);
    if (!queued) this.out.set(peer, (queued = new Set()));
    for (const c of clients) queued.add(c);
    this.timer ??= setTimeout(this.flush, CHAT_LIMITS.awarenessFlushMs);
  }

  private flush = (): void => {
    this.timer = undefined;
    for (const [peer, clients] of this.out) {
      const known = [...clients].filter((c) => this.awareness.meta.has(c));
      if (known.length > 0 && this.controlled.has(peer))
        peer.send(awarenessMessage(awarenessProtocol.encodeAwarenessUpdate(this.awareness, known)));
    }
    this.out.clear();
  };
}
