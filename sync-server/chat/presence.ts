import * as decoding from 'lib0/decoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import type * as Y from 'yjs';
import { readOwnAwareness } from './awareness-filter';
import { CHAT_LIMITS } from './limits';
import { awarenessMessage } from './protocol';

/** A room's peer as presence sees it. */
type PresencePeer = { readonly userId: string; send(message: Uint8Array): void };

/** Origin of presence other instances published. */
const REMOTE = 'remote';
/** y-protocols' origin for states it drops when they were not renewed in time. */
const TIMEOUT = 'timeout';
/** Presence published to other instances in one piece up to this size, client by client past it. */
const PUBLISH_MAX_BYTES = 4 * 1024;

/**
 * Presence (who is here, who is typing) in one room: y-protocols awareness, each peer speaking
 * only for its own client ids, sent out coalesced. Kept in memory, never stored; the changes of
 * this instance's peers are published to the other instances holding the room (`publish`, also
 * coalesced), and theirs are applied here as they come (`remote`).
 */
export class RoomPresence<P extends PresencePeer> {
  private readonly awareness: awarenessProtocol.Awareness;
  /** The client ids each peer speaks for. */
  private readonly controlled = new Map<P, Set<number>>();
  /** Presence changes waiting to go out, by peer (sent together every awarenessFlushMs). */
  private readonly out = new Map<P, Set<number>>();
  /** This instance's peers' clients whose change waits to be published. */
  private readonly published = new Set<number>();
  /** The user each client id other instances publish speaks for. */
  private readonly remoteOwners = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly doc: Y.Doc,
    /** Who writes with a Yjs client id, if anyone does. */
    private readonly ownerOf: (client: number) => string | undefined,
    /** Hands a presence update to the other instances (an empty one asks for theirs). */
    private readonly publish: (update: Uint8Array) => void = () => {},
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

  /** Asks the other instances for their peers' presence (the room just loaded here). */
  askOthers(): void {
    this.publish(new Uint8Array());
  }

  /** Presence another instance published: applied (and sent to the peers here); empty, it asks for this instance's. */
  remote(update: Uint8Array): void {
    if (update.byteLength === 0) {
      for (const ids of this.controlled.values()) for (const c of ids) this.published.add(c);
      this.schedule();
      return;
    }
    const entries = remoteEntries(update);
    if (!entries) return;
    for (const { clientId, userId } of entries) {
      if (userId === undefined) this.remoteOwners.delete(clientId);
      else this.remoteOwners.set(clientId, userId);
    }
    awarenessProtocol.applyAwarenessUpdate(this.awareness, update, REMOTE);
  }

  destroy(): void {
    clearTimeout(this.timer);
    this.out.clear();
    this.published.clear();
    this.awareness.destroy();
  }

  /** A client id is a peer's own unless another user writes with it or another user's socket holds it. */
  private mayControl(peer: P, client: number): boolean {
    if (client === this.doc.clientID) return false;
    const owner = this.ownerOf(client) ?? this.remoteOwners.get(client);
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
    // Each instance drops states that were not renewed on its own clock: only changes made here go out.
    if (origin !== REMOTE && origin !== TIMEOUT) {
      for (const c of changed) this.published.add(c);
      this.schedule();
    }
  };

  /**
   * Presence goes out coalesced: each peer gets at most one frame per awarenessFlushMs with the
   * latest state of every client that changed, however many presence frames came in meanwhile.
   */
  private queue(peer: P, clients: number[]): void {
    let queued = this.out.get(peer);
    if (!queued) this.out.set(peer, (queued = new Set()));
    for (const c of clients) queued.add(c);
    this.schedule();
  }

  private schedule(): void {
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
    const mine = [...this.published].filter((c) => this.awareness.meta.has(c) && !this.remoteOwners.has(c));
    this.published.clear();
    if (mine.length === 0) return;
    const update = awarenessProtocol.encodeAwarenessUpdate(this.awareness, mine);
    if (update.byteLength <= PUBLISH_MAX_BYTES) this.publish(update);
    else for (const c of mine) this.publish(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [c]));
  };
}

/**
 * The client ids an awareness update names, with the user each state speaks for (none for a
 * removal), or undefined when it cannot be read.
 */
function remoteEntries(update: Uint8Array): { clientId: number; userId: string | undefined }[] | undefined {
  try {
    const decoder = decoding.createDecoder(update);
    const entries = [];
    for (let count = decoding.readVarUint(decoder); count > 0; count--) {
      const clientId = decoding.readVarUint(decoder);
      decoding.readVarUint(decoder); // clock
      const state = JSON.parse(decoding.readVarString(decoder)) as { user?: { id?: unknown } } | null;
      const id = state?.user?.id;
      entries.push({ clientId, userId: typeof id === 'string' ? id : undefined });
    }
    return entries;
  } catch {
    return undefined;
  }
}
