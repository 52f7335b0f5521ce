import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import {
  CHAT_MESSAGES_ARRAY,
  CHAT_STAMPS_MAP,
  orderChatMessages,
  type ChatDocMessage,
  type ShownChatMessage,
} from '../../../shared/chat-doc';
import { sanitizeText } from '../../../shared/text';
import type { WorkOffline } from '../../data/work-offline';
import { chatDatabaseName, markSynced, openRooms, syncedStamp } from '../../data/chat-history';

export type Presence = { online: boolean; typing: boolean };
export type RoomState = {
  messages: ShownChatMessage[];
  /** The history stored on this device has been loaded. */
  loaded: boolean;
  connected: boolean;
  /** The server's copy has been received in this session. */
  synced: boolean;
  /** Some sync with the server completed and was stored on this device, now or before. */
  everSynced: boolean;
  other: Presence;
  /** Set when the server closed the room for good (a refused update or access). */
  closed: string | null;
};

type AwarenessUser = { user?: { id?: string; name?: string }; typing?: boolean };

/**
 * One conversation's Yjs document: persisted in IndexedDB (history offline, messages written
 * offline kept until they go out) and synced with the server's room over y-websocket. Awareness
 * carries the user's own presence and typing.
 */
export class RoomConnection {
  readonly doc = new Y.Doc();
  private readonly persistence: IndexeddbPersistence;
  private readonly provider: WebsocketProvider;
  private readonly listeners = new Set<(s: RoomState) => void>();
  private state: RoomState;
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly offWorkOffline: () => void;

  constructor(
    readonly roomId: string,
    private readonly me: { id: string; name: string },
    private readonly otherId: string,
    /** While "Work offline" is on the socket stays closed: messages written meanwhile wait. */
    private readonly workOffline: Pick<WorkOffline, 'on' | 'subscribe'>,
  ) {
    this.state = {
      messages: [],
      loaded: false,
      connected: false,
      synced: false,
      everSynced: syncedStamp(me.id, roomId) !== null,
      other: { online: false, typing: false },
      closed: null,
    };
    openRooms.add(roomId);
    this.persistence = new IndexeddbPersistence(chatDatabaseName(me.id, roomId), this.doc);
    void this.persistence.whenSynced.then(() => this.update({ loaded: true }));
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.provider = new WebsocketProvider(`${scheme}://${location.host}/api/chat`, roomId, this.doc, {
      disableBc: false,
      maxBackoffTime: 10_000,
    });
    // Sanitised like every shown name (decision 013): the server relays no other.
    this.provider.awareness.setLocalState({
      user: { id: me.id, name: sanitizeText(me.name) },
      typing: false,
    } satisfies AwarenessUser);
    this.provider.on('status', ({ status }) => this.update({ connected: status === 'connected' }));
    this.provider.on('closed', (event) => this.update({ closed: event.reason || `closed (${event.code})` }));
    this.provider.on('sync', (synced) => {
      this.update({ synced });
      if (synced) this.recordSynced();
    });
    this.provider.awareness.on('change', () => this.update({ other: this.presence() }));
    this.messagesArray().observe(() => this.update({ messages: this.read() }));
    this.stampsMap().observe(() => {
      this.update({ messages: this.read() });
      // Stamps arrive from the server: what the device stores is still everything the room has.
      if (this.provider.synced) this.recordSynced();
    });
    this.state.messages = this.read();
    // The browser knows before the socket does: going offline stops the socket, so what is
    // written meanwhile shows as waiting, and coming back online reconnects at once.
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
    this.offWorkOffline = workOffline.subscribe((on) => (on ? this.provider.disconnect() : this.onOnline()));
    if (!navigator.onLine || workOffline.on) this.provider.disconnect();
  }

  private readonly onOffline = () => this.provider.disconnect();
  private readonly onOnline = () => {
    if (navigator.onLine && !this.workOffline.on) this.provider.connect();
  };

  /** Records that the room as the server has it is stored on this device. */
  private recordSynced(): void {
    markSynced(this.persistence, this.doc, this.me.id, this.roomId).then(
      () => this.update({ everSynced: true }),
      () => undefined, // stays unmarked: the background download tries again
    );
  }

  private messagesArray(): Y.Array<ChatDocMessage> {
    return this.doc.getArray<ChatDocMessage>(CHAT_MESSAGES_ARRAY);
  }

  private stampsMap(): Y.Map<number> {
    return this.doc.getMap<number>(CHAT_STAMPS_MAP);
  }

  private read(): ShownChatMessage[] {
    return orderChatMessages(this.messagesArray().toArray(), new Map(this.stampsMap().entries()));
  }

  private presence(): Presence {
    for (const [clientId, state] of this.provider.awareness.getStates()) {
      if (clientId === this.doc.clientID) continue;
      const s = state as AwarenessUser;
      if (s.user?.id === this.otherId) return { online: true, typing: s.typing === true };
    }
    return { online: false, typing: false };
  }

  private update(change: Partial<RoomState>): void {
    this.state = { ...this.state, ...change };
    for (const l of this.listeners) l(this.state);
  }

  get current(): RoomState {
    return this.state;
  }

  subscribe(listener: (s: RoomState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Appends a message (already checked and trimmed), written from `gigId` when given. It shows as
   * pending until the server stamps it.
   */
  send(content: string, gigId?: string): void {
    const id = `${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(2)).join('')}`.slice(0, 64);
    const message: ChatDocMessage = {
      id,
      content,
      senderId: this.me.id,
      receiverId: this.otherId,
      clientTime: Date.now(),
      ...(gigId ? { gigId } : {}),
    };
    this.messagesArray().push([message]);
    this.setTyping(false);
  }

  /** Typing shows for the other participant until a pause of three seconds. */
  setTyping(typing: boolean): void {
    clearTimeout(this.typingTimer);
    if (this.provider.awareness.getLocalState()?.typing !== typing)
      this.provider.awareness.setLocalStateField('typing', typing);
    if (typing) this.typingTimer = setTimeout(() => this.setTyping(false), 3_000);
  }

  destroy(): void {
    openRooms.delete(this.roomId);
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    this.offWorkOffline();
    clearTimeout(this.typingTimer);
    this.listeners.clear();
    this.provider.destroy();
    void this.persistence.destroy();
    this.doc.destroy();
  }
}
